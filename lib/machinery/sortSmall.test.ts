import { sortSmall } from './sortSmall';

describe('sortSmall', () => {
  const byNumber = (x: number, y: number): number => x - y;
  it.each<[string, number[]]>([
    ['empty', []],
    ['one', [1]],
    ['sorted', [1, 2, 3, 4]],
    ['reversed', [5, 4, 3, 2, 1]],
    ['duplicates', [3, 1, 3, 2, 1]],
    ['16 (last insertion-sorted length)', Array.from({ length: 16 }, (_, i) => (i * 7) % 16)],
    ['17 (the builtin)', Array.from({ length: 17 }, (_, i) => (i * 5) % 17)],
    ['100 (the builtin)', Array.from({ length: 100 }, (_, i) => (i * 37) % 100)],
  ])('%s: sorts in place as Array.prototype.sort does', (_name, input) => {
    const a = [...input];
    expect(sortSmall(a, byNumber)).toBe(a);
    expect(a).toEqual([...input].sort(byNumber));
  });
  it('is stable', () => {
    const a = [{ k: 1, i: 0 }, { k: 0, i: 1 }, { k: 1, i: 2 }, { k: 0, i: 3 }];
    expect(sortSmall(a, (x, y) => x.k - y.k).map((x) => x.i)).toEqual([1, 3, 0, 2]);
  });
});
