import { deepCopy } from './deepCopy';

describe('deepCopy', () => {
  test.each<[string, unknown]>([
    ['null', null],
    ['string', 'x'],
    ['number', 1.5],
    ['object', { b: 1, a: { c: [1, { d: null }] } }],
    ['array', [1, [2, [3]], { x: 'y' }]],
    ['undefined member', { a: undefined, b: 1 }],
    ['__proto__ member', JSON.parse('{"__proto__":{"polluted":true},"a":1}')],
    ['bytes', { b: Uint8Array.from([1, 2]) }],
  ])('%s: equal, and no shared containers', (_name, v) => {
    const c = deepCopy(v);
    expect(c).toEqual(v);
    if (v && typeof v === 'object') expect(c).not.toBe(v);
  });

  test('keeps key order', () => {
    expect(Object.keys(deepCopy({ z: 1, a: { y: 1 }, m: 2 }))).toEqual(['z', 'a', 'm']);
  });

  test('mutating the copy leaves the original alone', () => {
    const v = { a: { list: [1, 2] }, bytes: Uint8Array.from([1]) };
    const c = deepCopy(v);
    c.a.list.push(3);
    c.bytes[0] = 9;
    expect(v).toEqual({ a: { list: [1, 2] }, bytes: Uint8Array.from([1]) });
  });

  test('does not pollute prototypes', () => {
    const c = deepCopy(JSON.parse('{"__proto__":{"polluted":true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(c)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('copes with 10000 levels of nesting', () => {
    let v: unknown[] = [];
    for (let i = 0; i < 10000; i++) v = [v];
    let c = deepCopy(v);
    let depth = 0;
    while (c.length) {
      c = c[0] as unknown[];
      depth++;
    }
    expect(depth).toBe(10000);
  });
});
