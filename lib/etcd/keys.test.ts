import { checkStartKey, compareKeys, keyAfter, prefixEnd } from './keys';

test('compareKeys is UTF-8 byte order', () => {
  const samples = ['', 'a', 'b', 'ab', 'a\u0000', '\u007f', '\u0080', '\u00e9', '\u07ff', '\u0800', '\ud7ff', '\ue000', '\uffff', '\u{10000}', '\u{1f600}', '\u{10ffff}', 'a\u{1f600}', 'a\uffff'];
  for (const a of samples) {
    for (const b of samples) {
      expect(Math.sign(compareKeys(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
    }
  }
});

test('prefixEnd increments the last byte below 0xff', () => {
  expect([...prefixEnd(Buffer.from('/a/'))]).toEqual([...Buffer.from('/a0')]);
  expect([...prefixEnd(Uint8Array.from([0x61, 0xff, 0xff]))]).toEqual([0x62]);
  expect([...prefixEnd(Uint8Array.from([0xff]))]).toEqual([]);
});

test('keyAfter and checkStartKey', () => {
  expect(compareKeys(keyAfter('/a/x'), '/a/x')).toBeGreaterThan(0);
  expect(compareKeys(keyAfter('/a/x'), '/a/x\u0001')).toBeLessThan(0);
  expect(() => checkStartKey('/a/', '/a/b')).not.toThrow();
  expect(() => checkStartKey('/a/', '/b')).toThrow(RangeError);
});
