import { WireReader, WireType, WireWriter } from './protobufWire';

describe('WireWriter', () => {
  // Nested messages are written in place; `end` moves the body when its length needs >1 byte.
  it.each([0, 1, 127, 128, 300, 16383, 16384, 70000])('a nested message of %i bytes reads back', (n) => {
    const w = new WireWriter();
    w.varint(1, 7);
    const m = w.begin(2);
    w.bytes(1, new Uint8Array(Math.max(0, n - (n < 130 ? 2 : n < 16386 ? 3 : 4))).fill(0xab));
    w.end(m);
    w.string(3, 'after');
    const r = new WireReader(w.finish());
    expect(r.tag('T')).toEqual({ field: 1, wireType: WireType.varint });
    expect(r.uvarint()).toBe(7n);
    expect(r.tag('T')).toEqual({ field: 2, wireType: WireType.bytes });
    const inner = r.message();
    if (inner.done()) expect(n).toBeLessThan(2);
    else {
      inner.tag('I');
      expect(inner.bytes().every((b) => b === 0xab)).toBe(true);
    }
    expect(r.tag('T')).toEqual({ field: 3, wireType: WireType.bytes });
    expect(Buffer.from(r.bytes()).toString()).toBe('after');
  });

  it.each(['', 'ascii', 'ünïcode ✓', 'x'.repeat(64), 'y'.repeat(65), `${'z'.repeat(63)}é`, '😀'.repeat(40)])('writes %j as UTF-8 with its byte length', (s) => {
    const w = new WireWriter();
    w.string(1, s);
    const want = Buffer.from(s, 'utf8');
    const r = new WireReader(w.finish());
    r.tag('S');
    expect(Buffer.from(r.bytes()).equals(want)).toBe(true);
  });

  it('sign-extends negative varints to ten bytes and keeps values beyond 2^53', () => {
    const w = new WireWriter();
    w.varint(1, -1);
    w.varint(2, 2n ** 60n);
    expect(Buffer.from(w.finish()).toString('hex')).toBe(`08${'ff'.repeat(9)}01` + `10${'80'.repeat(8)}10`);
  });
});
