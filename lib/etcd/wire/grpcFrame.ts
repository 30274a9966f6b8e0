// gRPC's message framing on an HTTP/2 stream: 1 byte compressed flag (we never compress and ask
// for no compression), 4 bytes big-endian length, the message. A response may split a message
// across DATA frames or carry several in one: the Deframer reassembles them.
import { ProtoWriter } from '../../protowire/writer';

export const FRAME_PREFIX = 5;

/** Encodes a message with `write` into one buffer with the frame prefix filled in. */
export function frameMessage<T>(write: (w: ProtoWriter, m: T) => void, m: T, sizeHint = 256): Buffer {
  const w = new ProtoWriter(sizeHint, FRAME_PREFIX, true);
  write(w, m);
  const out = w.finish();
  out[0] = 0;
  out.writeUInt32BE(out.length - FRAME_PREFIX, 1);
  return out;
}

export class FrameError extends Error {}

/** Collects DATA chunks and hands out whole messages (views of the chunk or of one concatenation). */
export class Deframer {
  private chunks: Buffer[] = [];
  private buffered = 0;

  push(chunk: Buffer, onMessage: (msg: Buffer) => void): void {
    if (this.buffered === 0 && chunk.length >= FRAME_PREFIX) {
      // Fast path: whole messages straight from the chunk.
      let p = 0;
      while (chunk.length - p >= FRAME_PREFIX) {
        const len = this.header(chunk, p);
        if (chunk.length - p - FRAME_PREFIX < len) break;
        onMessage(chunk.subarray(p + FRAME_PREFIX, p + FRAME_PREFIX + len));
        p += FRAME_PREFIX + len;
      }
      if (p === chunk.length) return;
      chunk = chunk.subarray(p);
    }
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    for (;;) {
      if (this.buffered < FRAME_PREFIX) return;
      const head = this.chunks[0].length >= FRAME_PREFIX ? this.chunks[0] : this.flatten();
      const len = this.header(head, 0);
      if (this.buffered < FRAME_PREFIX + len) return;
      const all = this.flatten();
      onMessage(all.subarray(FRAME_PREFIX, FRAME_PREFIX + len));
      const rest = all.subarray(FRAME_PREFIX + len);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
    }
  }

  /** Bytes of an incomplete message left over. */
  get pending(): number {
    return this.buffered;
  }

  private header(b: Buffer, p: number): number {
    if (b[p] !== 0) throw new FrameError('gRPC: compressed message received, but no compression was negotiated');
    return b.readUInt32BE(p + 1);
  }

  private flatten(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.buffered)];
    return this.chunks[0];
  }
}
