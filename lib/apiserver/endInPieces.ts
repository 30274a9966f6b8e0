// A large HTTP/1.1 body is written in pieces, each after the previous one drained. Why: over TLS,
// Node's TLS socket encrypts one write into one output buffer sized for the whole write and keeps
// that buffer for the connection's life (its BIO keeps its last buffers for reuse). One res.end()
// of a 133 MiB list left 133 MiB of ciphertext buffer on a keep-alive connection until it closed
// (issue 14 item 3: 1.4 KB per stored object in the scale run). HTTP/2 frames its DATA itself and
// keeps nothing of that size (measured), so it writes the body whole.

/** The part of a response (or any writable) this needs. */
export interface PieceSink {
  write(chunk: Buffer): boolean;
  end(chunk?: Buffer): unknown;
  once(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
  readonly destroyed: boolean;
}

/**
 * Bodies up to this size go out in one write; larger ones in pieces of this size. So a
 * connection keeps at most about this much after a large response. Not smaller: each piece
 * waits for a drain: with 256 KiB pieces a 700 KB body (a page of 500) took 1.2–1.5 ms instead
 * of 1.0 over a keep-alive TLS connection (microbenchmark).
 */
export const bodyPieceBytes = 1024 * 1024;

/** Writes body and ends the response: at once when small, else piece by piece with back-pressure. */
export function endInPieces(res: PieceSink, body: Buffer, piece = bodyPieceBytes): void {
  if (body.length <= piece) {
    res.end(body);
    return;
  }
  let at = 0;
  const onClose = (): void => {
    res.off('drain', more);
  };
  function more(): void {
    while (!res.destroyed) {
      const next = Math.min(body.length, at + piece);
      const chunk = body.subarray(at, next);
      at = next;
      if (at === body.length) {
        res.off('close', onClose);
        res.end(chunk);
        return;
      }
      if (!res.write(chunk)) {
        res.once('drain', more);
        return;
      }
    }
    res.off('close', onClose);
  }
  res.once('close', onClose);
  more();
}
