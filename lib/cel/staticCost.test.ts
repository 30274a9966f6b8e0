import { s, defineObject } from '../api/schema';
import { CelEnvironment } from './environment';
import { costErrorMessage, estimateCost } from './staticCost';
import { TypedChecker } from './typing';

const Item = defineObject({ name: 'Item', fields: { name: s.string({ maxLength: 64 }), free: s.string() } });
const Obj = defineObject({
  name: 'Obj',
  fields: {
    name: s.string({ maxLength: 253 }),
    bounded: s.array(s.object(() => Item), { maxItems: 10 }),
    unbounded: s.array(s.object(() => Item)),
    tags: s.array(s.string({ maxLength: 3 }), { maxItems: 5 }),
    labels: s.map(s.string({ maxLength: 63 }), { maxProperties: 16 }),
  },
});
const checker = new TypedChecker([{ name: 'self', schema: Obj }]);
const estimate = (expr: string) => estimateCost(checker, expr, { self: Obj });

describe('static cost estimation', () => {
  it.each<[string, boolean]>([
    ["self.name == 'x'", true],
    ["self.bounded.all(x, x.name.matches('^[a-z]+$'))", true],
    ["self.labels.all(k, self.labels[k].startsWith('a'))", true],
    // unbounded list of unbounded strings: upstream's classic "more than 100x"
    ["self.unbounded.all(x, x.free.matches('^[a-z]+$'))", false],
    ['self.unbounded.all(x, self.unbounded.all(y, x.name == y.name))', false],
  ])('%s within the per-expression limit: %p', (expr, ok) => {
    const e = estimate(expr);
    if ('issue' in e) throw new Error(e.issue);
    expect(e.error === undefined).toBe(ok);
    if (!ok) expect(e.error).toBe(costErrorMessage('estimated rule cost', e.cost, 1_000_000));
  });

  it('is an upper bound of the runtime cost at the schema limits', () => {
    const env = new CelEnvironment([{ name: 'self', schema: s.object(() => Obj) }]);
    const value = { tags: ['abc', 'abd', 'abe', 'abf', 'abg'], bounded: Array.from({ length: 10 }, (_, i) => ({ name: 'n'.repeat(64), free: String(i) })) };
    for (const expr of ["self.tags.all(t, t.startsWith('ab'))", "self.bounded.exists(x, x.name.matches('^n+$'))", "self.tags.map(t, t + 'x').size() > 1"]) {
      const e = estimate(expr);
      if ('issue' in e) throw new Error(e.issue);
      const r = env.compile(expr).program!.evaluate({ self: value });
      expect(r.ok).toBe(true);
      expect(e.cost).toBeGreaterThanOrEqual(r.cost);
    }
  });

  it.each<[number, string]>([
    [1_200_000, '1.200000x'],
    [5_000_000, '5.0x'],
    [200_000_000, 'more than 100x'],
  ])('names the factor as upstream (%d)', (cost, factor) => {
    expect(costErrorMessage('estimated rule cost', cost, 1_000_000)).toBe(
      `estimated rule cost exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    );
  });

  it('reports a type issue instead of a cost', () => {
    expect(estimate('self.nope == 1')).toEqual({ issue: expect.stringContaining("undefined field 'nope'") });
  });
});
