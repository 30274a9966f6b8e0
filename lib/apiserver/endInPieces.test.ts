import { EventEmitter } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endInPieces, type PieceSink } from './endInPieces';

/** A sink that accepts `room` writes before asking for a drain, and records every write. */
class FakeSink extends EventEmitter implements PieceSink {
  writes: Buffer[] = [];
  ended: Buffer | undefined | null = null;
  destroyed = false;
  corked = 0;
  /** Writes and the end made while uncorked (each would be a write of its own to TLS). */
  uncorkedWrites = 0;
  /** Bytes written (and ended) per corked run: what reaches TLS as one write. */
  pieces: number[] = [];
  private pieceBytes = 0;
  cork(): void {
    this.corked++;
  }
  uncork(): void {
    if (--this.corked === 0) {
      this.pieces.push(this.pieceBytes);
      this.pieceBytes = 0;
    }
  }
  constructor(private room: number) {
    super();
  }
  write(chunk: Uint8Array): boolean {
    if (!this.corked) this.uncorkedWrites++;
    this.pieceBytes += chunk.length;
    this.writes.push(Buffer.from(chunk));
    return --this.room > 0;
  }
  end(chunk?: Uint8Array): void {
    this.pieceBytes += chunk?.length ?? 0;
    this.ended = chunk ? Buffer.from(chunk) : undefined;
  }
  drain(room: number): void {
    this.room = room;
    this.emit('drain');
  }
}

const body = (n: number): Buffer => Buffer.from(Array.from({ length: n }, (_, i) => i % 251));

describe('endInPieces', () => {
  test.each([
    ['empty', 0],
    ['one piece', 10],
    ['exactly one piece', 16],
  ])('a small body (%s) goes out in one end()', (_name, n) => {
    const s = new FakeSink(100);
    endInPieces(s, body(n), 16);
    expect(s.writes).toHaveLength(0);
    expect(s.ended).toEqual(body(n));
  });

  test('a large body goes out in pieces no larger than the piece size, in order, waiting for drain', () => {
    const s = new FakeSink(2);
    const b = body(100);
    endInPieces(s, b, 16);
    expect(s.writes).toHaveLength(2); // the second write asked for a drain
    expect(s.ended).toBeNull();
    s.drain(1);
    expect(s.writes).toHaveLength(3);
    s.drain(100);
    expect(s.ended).not.toBeNull();
    const all = Buffer.concat([...s.writes, s.ended as Buffer]);
    expect(all).toEqual(b);
    for (const w of [...s.writes, s.ended as Buffer]) expect(w.length).toBeLessThanOrEqual(16);
    expect(s.listenerCount('drain')).toBe(0);
    expect(s.listenerCount('close')).toBe(0);
  });

  test('a response closed while waiting for drain stops writing and lets go of the body', () => {
    const s = new FakeSink(1);
    endInPieces(s, body(100), 16);
    expect(s.writes).toHaveLength(1);
    s.destroyed = true;
    s.emit('close');
    expect(s.listenerCount('drain')).toBe(0);
    s.emit('drain');
    expect(s.writes).toHaveLength(1);
    expect(s.ended).toBeNull();
  });

  test('chunks go out in pieces of up to the piece size, each piece corked into one write, in order', () => {
    const b = body(100);
    const chunks = [b.subarray(0, 5), b.subarray(5, 40), b.subarray(40, 41), b.subarray(41, 100)];
    const s = new FakeSink(1);
    endInPieces(s, chunks, 16);
    expect(s.ended).toBeNull();
    const piecesSoFar = (): number => s.writes.length;
    const before = piecesSoFar();
    s.drain(1);
    expect(piecesSoFar()).toBeGreaterThan(before);
    while (s.ended === null) s.drain(1);
    expect(Buffer.concat([...s.writes, s.ended as Buffer])).toEqual(b);
    expect(s.uncorkedWrites).toBe(0);
    expect(s.corked).toBe(0);
    expect(s.pieces).toEqual([16, 16, 16, 16, 16, 16, 4]);
  });

  test.each([
    ['no chunks', [] as Buffer[]],
    ['small chunks', [body(3), body(4)]],
  ])('a body of %s ends in one corked write', (_name, chunks) => {
    const s = new FakeSink(100);
    endInPieces(s, chunks, 16);
    expect(s.uncorkedWrites).toBe(0);
    expect(s.corked).toBe(0);
    expect(Buffer.concat([...s.writes, ...(s.ended ? [s.ended] : [])])).toEqual(Buffer.concat(chunks));
    expect(s.ended).not.toBeNull();
  });

  const b = body(3 * 1024 * 1024 + 7);
  // A CBOR list's shape: many item-sized chunks, one of them larger than a piece.
  const chunked = [b.subarray(0, 10), ...Array.from({ length: 1500 }, (_, i) => b.subarray(10 + i * 1400, 10 + (i + 1) * 1400)), b.subarray(10 + 1500 * 1400)];
  test.each([
    ['one buffer', b],
    ['chunks', chunked],
  ])('a real HTTP/1.1 response delivers a large body (%s) whole', async (_name, payload) => {
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Length': b.length });
      endInPieces(res, payload);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const got = await new Promise<Buffer>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path: '/' }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (d: Buffer) => parts.push(d));
          res.on('end', () => resolve(Buffer.concat(parts)));
          res.on('error', reject);
        })
          .on('error', reject)
          .end();
      });
      expect(got.equals(b)).toBe(true);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
