// A large HTTP/1.1 body is written in pieces, each after the previous one drained. Why: over TLS,
// Node's TLS socket encrypts one write into one output buffer sized for the whole write and keeps
// that buffer for the connection's life (its BIO keeps its last buffers for reuse). One res.end()
// of a 133 MiB list left 133 MiB of ciphertext buffer on a keep-alive connection until it closed
// (issue 14 item 3: 1.4 KB per stored object in the scale run). A corked run of writes is one
// gathered write to TLS, so a body in chunks (a CBOR list, lib/codec/bodyChunks.ts) is pieced
// the same way. HTTP/2 frames its DATA itself and keeps nothing of that size (measured), so it
// writes the body whole.

/** The part of a response (or any writable) this needs. */
export interface PieceSink {
  write(chunk: Uint8Array): boolean;
  end(chunk?: Uint8Array): unknown;
  cork(): void;
  uncork(): void;
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

/**
 * Writes body (one buffer, or chunks in order) and ends the response: a piece of up to `piece`
 * bytes at a time, its chunks corked into one write, the next piece once the socket drained.
 */
export function endInPieces(res: PieceSink, body: Uint8Array | readonly Uint8Array[], piece = bodyPieceBytes): void {
  if (body instanceof Uint8Array && body.length <= piece) {
    res.end(body);
    return;
  }
  const chunks: readonly Uint8Array[] = body instanceof Uint8Array ? [body] : body;
  // The next byte to write: chunks[index] at offset.
  let index = 0;
  let offset = 0;
  const onClose = (): void => {
    res.off('drain', more);
  };
  function more(): void {
    while (!res.destroyed) {
      let room = piece;
      let flowing = true;
      res.cork();
      while (room > 0 && index < chunks.length) {
        const c = chunks[index];
        const take = Math.min(room, c.length - offset);
        const part = offset === 0 && take === c.length ? c : c.subarray(offset, offset + take);
        offset += take;
        room -= take;
        if (offset === c.length) {
          index++;
          offset = 0;
        }
        if (index === chunks.length) {
          res.off('close', onClose);
          res.end(part);
          res.uncork();
          return;
        }
        flowing = res.write(part);
      }
      res.uncork();
      if (!flowing) {
        res.once('drain', more);
        return;
      }
    }
    res.off('close', onClose);
  }
  if (chunks.length === 0) {
    res.end();
    return;
  }
  res.once('close', onClose);
  more();
}
