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

/** A reproducible stream of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

// Chunk sizes from the smallest (every insert splits) to the default, against a plain sorted
// array in byte order, through inserts, re-inserts, removes of held and missing keys, and a reset.
test.each<[string, number | undefined, number]>([
  ['chunks of 2', 2, 1],
  ['chunks of 3', 3, 2],
  ['chunks of 8', 8, 3],
  ['default chunks', undefined, 4],
])('agrees with a sorted array: %s', (_name, chunkMax, seed) => {
  const rnd = seeded(seed);
  const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
  const names = ['a', 'b', 'ab', 'z', '\uffff', '\u{1f600}', '\ue000', 'ns1', 'ns2'];
  const keyOf = (): string => `/r/${names[Math.floor(rnd() * names.length)]}/${Math.floor(rnd() * 400)}`;
  const s = new SortedKeys(chunkMax);
  let model: string[] = [];
  const check = (): void => {
    expect(s.size).toBe(model.length);
    expect(Array.from({ length: s.size }, (_, i) => s.at(i))).toEqual(model);
    for (let k = 0; k < 20; k++) {
      const probe = k % 4 === 0 ? `/r/${names[k % names.length]}/` : keyOf();
      const want = model.findIndex((m) => byteOrder(m, probe) >= 0);
      const lo = s.lowerBound(probe);
      expect([probe, lo]).toEqual([probe, want === -1 ? model.length : want]);
      const prefix = `/r/${names[k % names.length]}/`;
      const from = s.lowerBound(prefix);
      let end = from;
      while (end < model.length && model[end].startsWith(prefix)) end++;
      expect([prefix, s.prefixEndIndex(prefix, from)]).toEqual([prefix, end]);
    }
  };
  for (let step = 0; step < 1500; step++) {
    const key = keyOf();
    if (rnd() < 0.3) {
      s.remove(key);
      model = model.filter((m) => m !== key);
    } else {
      s.insert(key);
      if (!model.includes(key)) model = [...model, key].sort(byteOrder);
    }
    if (step % 150 === 0) check();
  }
  check();
  model = model.filter((_, i) => i % 3 !== 0);
  s.reset([...model]);
  check();
  for (let step = 0; step < 300; step++) {
    const key = keyOf();
    s.insert(key);
    if (!model.includes(key)) model = [...model, key].sort(byteOrder);
  }
  check();
  s.reset([]);
  model = [];
  check();
});

test('sequential reads after inserts and removes see the new positions', () => {
  const s = new SortedKeys(4);
  for (let i = 0; i < 40; i++) s.insert(`/k/${String(i).padStart(2, '0')}`);
  expect(s.at(10)).toBe('/k/10');
  s.insert('/k/05a');
  s.remove('/k/00');
  expect(s.at(5)).toBe('/k/05a');
  expect(s.at(10)).toBe('/k/10');
  expect(s.at(39)).toBe('/k/39');
  expect(s.at(40)).toBeUndefined();
});
