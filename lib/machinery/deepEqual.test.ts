import { deepEqual } from './deepEqual';

describe('deepEqual (JSON-value semantics)', () => {
  test.each<[string, unknown, unknown, boolean]>([
    ['same scalar', 1, 1, true],
    ['different scalars', 1, '1', false],
    ['null vs undefined', null, undefined, false],
    ['key order ignored', { a: 1, b: 2 }, { b: 2, a: 1 }, true],
    ['undefined member = absent', { a: 1, b: undefined }, { a: 1 }, true],
    ['null member ≠ absent', { a: null }, {}, false],
    ['array order matters', [1, 2], [2, 1], false],
    ['nested', { a: [{ b: 'c' }] }, { a: [{ b: 'c' }] }, true],
    ['nested difference', { a: [{ b: 'c' }] }, { a: [{ b: 'd' }] }, false],
    ['array vs object', [], {}, false],
    ['extra key', { a: 1 }, { a: 1, b: 2 }, false],
    ['bytes', Uint8Array.from([1, 2]), Uint8Array.from([1, 2]), true],
    ['bytes differ', Uint8Array.from([1, 2]), Uint8Array.from([1, 3]), false],
    ['NaN', NaN, NaN, true],
  ])('%s', (_name, a, b, want) => {
    expect(deepEqual(a, b)).toBe(want);
    expect(deepEqual(b, a)).toBe(want);
  });

  test('copes with 10000 levels of nesting', () => {
    let a: unknown[] = [];
    let b: unknown[] = [1];
    for (let i = 0; i < 10000; i++) {
      a = [a];
      b = [b];
    }
    expect(deepEqual(a, a)).toBe(true);
    expect(deepEqual(a, b)).toBe(false);
  });
});
