import { CelEnvironment } from './environment';

const env = new CelEnvironment([{ name: 'object', unescaped: true }]);
const s = 'a'.repeat(1000);
const object = { s, t: `${s}b`, l: Array.from({ length: 1000 }, () => 'x'), n: 5 };

function cost(expr: string): number {
  const c = env.compile(expr);
  if (c.error !== undefined) throw new Error(c.error);
  const r = c.program.evaluate({ object }, { limit: 1e9 });
  if (!r.ok) throw new Error(r.message);
  return r.cost;
}

describe('size-dependent costs (cel-go runtimecost.go, library/cost.go)', () => {
  // Each `object.x` is 2 (the identifier and the selection); the call costs what upstream charges.
  it.each<[string, number]>([
    ["'abc' + 'def'", 1], // ceil(0.1·6)
    ['object.s + object.s', 4 + 200], // ceil(0.1·(1000+1000))
    ["b'ab' + b'cd'", 1],
    ['object.s == object.t', 4 + 100], // ceil(0.1·min(1000, 1001))
    ['object.s < object.t', 4 + 100],
    ['object.n == 5', 2 + 1],
    ["'x' in object.l", 2 + 1000], // the list's size
    ["object.s.startsWith('a')", 2 + 100],
    ["object.s.endsWith('a')", 2 + 100],
    ["object.s.contains('ab')", 2 + 100 * 1],
    ['object.s.lowerAscii()', 2 + 100],
    ['object.s.upperAscii()', 2 + 100],
    ['object.s.trim()', 2 + 100],
    ['object.s.substring(1)', 2 + 100],
    ["object.s.indexOf('z')", 2 + 100],
    ["object.s.split(',')", 2 + 200],
    ["object.l.join(',')", 2 + 400], // twice the traversal of the 1,999 characters built
    ['bytes(object.s)', 2 + 100],
    ['string(bytes(object.s))', 2 + 100 + 100],
    // Ours: cel-js copies lists, so concatenation costs one per element (upstream's is O(1)).
    ['object.l + object.l', 4 + 2000],
    ['[1, 2] + [3]', 40 + 40 + 3],
  ])('%s costs %d', (expr, want) => {
    expect(cost(expr)).toBe(want);
  });

  it('charges inside macros too', () => {
    // Per element: x twice (2), + (ceil(0.2) = 1), the step's push (1), the loop (1); then size() and >.
    expect(cost('object.l.map(x, x + x).size() > 0')).toBe(cost('object.l.map(x, x).size() > 0') + 2 * 1000);
  });
});
