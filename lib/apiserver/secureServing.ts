// HTTP server timeouts as upstream's secure serving sets them: a client still sending its request
// headers after ReadHeaderTimeout (32 s, "just shy of requestTimeoutUpperBound") is answered 408
// and disconnected (clientError.ts writes the answer).

/** Upstream secure_serving.go: ReadHeaderTimeout 32 * time.Second. */
export const readHeaderTimeoutMs = 32_000;

export interface ServingTimeouts {
  /** Node's headersTimeout: the whole head must arrive within this. */
  headersTimeout: number;
  /**
   * How often Node checks for expired heads. Its default (30 s) would let a 32 s timeout fire
   * anywhere up to 62 s; a 32nd of the timeout keeps the answer within ~3% of it.
   */
  connectionsCheckingInterval: number;
}

/** createServer options for a head timeout of `ms` (the server's default unless a test shortens it). */
export function servingTimeouts(ms: number = readHeaderTimeoutMs): ServingTimeouts {
  return { headersTimeout: ms, connectionsCheckingInterval: Math.max(10, Math.floor(ms / 32)) };
}
