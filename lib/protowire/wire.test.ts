import { ProtobufError, ProtoReader, WireType } from './reader';
import { ProtoWriter } from './writer';

describe('ProtoWriter', () => {
  // Nested messages are written in place; `end` moves the body when its length needs >1 byte.
  it.each([0, 1, 127, 128, 300, 16383, 16384, 70000])('a nested message of %i bytes reads back', (n) => {
    const w = new ProtoWriter();
    w.varint(1, 7);
    const m = w.begin(2);
    w.bytes(1, new Uint8Array(Math.max(0, n - (n < 130 ? 2 : n < 16386 ? 3 : 4))).fill(0xab));
    w.end(m);
    w.string(3, 'after');
    const r = new ProtoReader(w.finish());
    expect(r.key('T')).toEqual({ field: 1, wireType: WireType.varint });
    expect(r.uvarint()).toBe(7n);
    expect(r.key('T')).toEqual({ field: 2, wireType: WireType.bytes });
    const inner = r.nested();
    if (inner.done) expect(n).toBeLessThan(2);
    else {
      inner.key('I');
      expect(inner.bytes().every((b) => b === 0xab)).toBe(true);
    }
    expect(r.key('T')).toEqual({ field: 3, wireType: WireType.bytes });
    expect(Buffer.from(r.bytes()).toString()).toBe('after');
  });

  it.each(['', 'ascii', 'ünïcode ✓', 'x'.repeat(64), 'y'.repeat(65), `${'z'.repeat(63)}é`, '😀'.repeat(40)])('writes %j as UTF-8 with its byte length', (s) => {
    const w = new ProtoWriter();
    w.string(1, s);
    const want = Buffer.from(s, 'utf8');
    const r = new ProtoReader(w.finish());
    r.key('S');
    expect(Buffer.from(r.bytes()).equals(want)).toBe(true);
  });

  it('sign-extends negative varints to ten bytes and keeps values beyond 2^53', () => {
    const w = new ProtoWriter();
    w.varint(1, -1);
    w.varint(2, 2n ** 60n);
    expect(Buffer.from(w.finish()).toString('hex')).toBe(`08${'ff'.repeat(9)}01` + `10${'80'.repeat(8)}10`);
  });
});

describe('ProtoReader', () => {
  it('skips a length-delimited field past its length varint and its payload', () => {
    const w = new ProtoWriter();
    w.bytes(1, new Uint8Array(300).fill(1));
    w.varint(2, 5);
    const r = new ProtoReader(w.finish());
    r.skipFrom(0);
    expect(r.key('T')).toEqual({ field: 2, wireType: WireType.varint });
  });

  it('reads a key longer than 4 bytes as the short form does', () => {
    const w = new ProtoWriter();
    w.varint(2 ** 25 + 3, 1);
    w.varint(7, 1);
    const r = new ProtoReader(w.finish());
    expect(r.key('T')).toEqual({ field: 2 ** 25 + 3, wireType: WireType.varint });
    r.uvarint();
    expect(r.key('T')).toEqual({ field: 7, wireType: WireType.varint });
  });

  it.each([
    ['field 0', '00', 'proto: T: illegal tag 0 (wire type 0)'],
    ['an end group key', '0c', 'proto: T: wiretype end group for non-group'],
    ['a key cut short', '80', 'unexpected EOF'],
    ['a varint past 10 bytes', `08${'ff'.repeat(10)}01`, 'proto: integer overflow'],
  ])('refuses %s with upstream error text', (_name, hex, text) => {
    const r = new ProtoReader(Buffer.from(hex, 'hex'));
    expect(() => {
      r.key('T');
      r.uvarint();
    }).toThrow(new ProtobufError(text));
  });

  it.each([
    ['a length past the end', '0a05616263', 'unexpected EOF'],
    ['a negative length', `0a${'ff'.repeat(9)}01`, 'proto: negative length found during unmarshaling'],
  ])('refuses %s with upstream error text', (_name, hex, text) => {
    const r = new ProtoReader(Buffer.from(hex, 'hex'));
    r.key('T');
    expect(() => r.bytes()).toThrow(new ProtobufError(text));
  });
});

describe('ProtoWriter memory', () => {
  it('copy() and an unpooled finish() do not share memory with other buffers', () => {
    const w = new ProtoWriter();
    w.string(1, 'x');
    const copy = w.copy(0);
    const done = w.finish();
    expect(copy.buffer).not.toBe(done.buffer);
    expect(copy.buffer.byteLength).toBe(copy.length);
    expect(done.buffer.byteLength).toBe(256);
  });
});
