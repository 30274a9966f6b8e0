import { SortedKeys } from './sortedKeys';

test('keeps byte order, ranges by prefix', () => {
  const s = new SortedKeys();
  for (const k of ['/p/b', '/p/a', '/p/\u{1f600}', '/p/\uffff', '/q/a', '/p/a', '/o']) s.insert(k);
  expect(s.size).toBe(6);
  const keys = Array.from({ length: s.size }, (_, i) => s.at(i));
  expect(keys).toEqual(['/o', '/p/a', '/p/b', '/p/\uffff', '/p/\u{1f600}', '/q/a']);
  const lo = s.lowerBound('/p/');
  expect(lo).toBe(1);
  expect(s.prefixEndIndex('/p/', lo)).toBe(5);
  expect(s.prefixEndIndex('/p/', s.lowerBound('/p/c'))).toBe(5);
  expect(s.lowerBound('/p/c')).toBe(3);
  s.remove('/p/b');
  s.remove('/nope');
  expect(s.size).toBe(5);
  expect(s.prefixEndIndex('/zz/', s.lowerBound('/zz/'))).toBe(5);
});

test.each<[string, string[]]>([
  ['appended in order', ['/a/1', '/a/2', '/a/3', '/b']],
  ['the last key again', ['/a/1', '/a/2', '/a/2']],
  ['in order, then before the last', ['/a/1', '/a/3', '/a/2', '/a/4', '/a/0']],
  ['byte order, not UTF-16 order, decides an append', ['/p/\uffff', '/p/\u{1f600}', '/p/\ufffe']],
])('insert: %s', (_name, inserted) => {
  const s = new SortedKeys();
  for (const k of inserted) s.insert(k);
  const want = [...new Set(inserted)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  expect(Array.from({ length: s.size }, (_, i) => s.at(i))).toEqual(want);
});

// Narrow keys are searched by the native comparison, wide ones by compareKeys; each row checks
// every lowerBound against a byte-order reference, so a wrong path shows as a wrong index.
test.each<[string, string[], string[]]>([
  ['ASCII keys, ASCII probes', ['/r/ns/a', '/r/ns/b', '/r/ns2/a', '/r/other/z'], ['/r/', '/r/ns/', '/r/ns/aa', '/r/ns2', '/r/zz', '']],
  ['ASCII keys, wide probes', ['/p/a', '/p/z'], ['/p/\uffff', '/p/\u{1f600}', '/p/\ud800']],
  ['wide keys, wide probes', ['/p/\uffff', '/p/\u{1f600}', '/p/\ue000', '/p/a'], ['/p/\ufffe', '/p/\u{1f601}', '/p/\u{10000}', '/p/\ue001', '/p/']],
  ['wide keys, ASCII probes', ['/p/\uffff', '/p/\u{1f600}', '/q/a'], ['/p/', '/p/b', '/q/', '/r']],
])('lowerBound in byte order: %s', (_name, keys, probes) => {
  const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
  const sorted = [...keys].sort(byteOrder);
  const inserted = new SortedKeys();
  for (const k of keys) inserted.insert(k);
  const reset = new SortedKeys();
  reset.reset(sorted);
  for (const s of [inserted, reset]) {
    expect(Array.from({ length: s.size }, (_, i) => s.at(i))).toEqual(sorted);
    for (const p of probes) {
      const want = sorted.findIndex((k) => byteOrder(k, p) >= 0);
      expect([p, s.lowerBound(p)]).toEqual([p, want === -1 ? sorted.length : want]);
    }
  }
});
