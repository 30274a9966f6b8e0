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
