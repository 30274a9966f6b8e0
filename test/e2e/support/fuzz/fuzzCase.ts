// One malformed request of the barrage and what must hold for its response.

/** Who sends it: the admin client certificate, no certificate, or no certificate with a garbage bearer token. */
export type Identity = 'admin' | 'anonymous' | 'bearer';

export interface FuzzCase {
  /** Family and a short description, printed with failures (e.g. "body/wrong-type spec.usages"). */
  name: string;
  method: string;
  /** Path and query exactly as written on the request line. */
  path: string;
  headers?: Record<string, string | string[]>;
  body?: Buffer;
  /** Fixed by the generator; otherwise mixed in by the barrage. */
  identity?: Identity;
  /** Write these bytes on a raw TLS connection (header-level oddities an HTTP client refuses to send). */
  raw?: RawRequest;
  /** Certainly invalid (and often aimed at a sentinel object): any 2xx is a finding. */
  mustFail?: boolean;
  /** The only acceptable status. */
  expectStatus?: number;
  /** Node's HTTP parser may answer it (a plain 4xx without a Status) before the server sees it. */
  protocolLevel?: boolean;
  /** A closed connection without a response is tolerated (counted as "closed"). */
  mayClose?: boolean;
}

export interface RawRequest {
  bytes: Buffer;
  /** Half-close the connection after writing (a body shorter than its Content-Length must not hang). */
  halfClose?: boolean;
}

/** A request line, headers and body as bytes; nothing is added or corrected. */
export function rawRequest(method: string, path: string, headers: readonly (readonly [string, string])[], body: Buffer | string = ''): Buffer {
  const head = [`${method} ${path} HTTP/1.1`, ...headers.map(([k, v]) => `${k}: ${v}`)].join('\r\n');
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8')]);
}
