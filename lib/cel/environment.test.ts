import { s, defineObject } from '../api/schema';
import { CelEnvironment } from './environment';
import { CostBudget, costLimitExceededMessage } from './cost';

const Meta = defineObject({ name: 'Meta', fields: { name: s.string(), generation: s.int64(), labels: s.map(s.string()) } });
const Obj = defineObject({
  name: 'Obj',
  fields: { metadata: s.object(() => Meta), spec: s.object(() => Spec) },
});
const Spec = defineObject({ name: 'Spec', fields: { usages: s.array(s.string()), namespace: s.string(), 'x-y': s.string(), replicas: s.int32() } });

const env = new CelEnvironment([{ name: 'object', schema: s.object(() => Obj) }, { name: 'params' }, { name: 'items' }]);
const object = { metadata: { name: 'team-a-sa', generation: 2, labels: { 'svc.io/x': 'y' } }, spec: { usages: ['client auth', 'digital signature'], namespace: 'ns', 'x-y': 'z', replicas: 3 } };
const params = { data: { prefix: 'team-a' }, n: 5 };

function run(expr: string, activation: Record<string, unknown> = { object, params }) {
  const c = env.compile(expr);
  if (c.error !== undefined) throw new Error(c.error);
  return c.program.evaluate(activation);
}

describe('CelEnvironment', () => {
  it.each<[string, unknown]>([
    ['object.metadata.name.startsWith(params.data.prefix)', true],
    ["object.spec.usages.all(u, u in ['client auth','digital signature'])", true],
    ['size(object.metadata.labels) < 10', true],
    ["object.metadata.name.matches('^[a-z]+-[a-z]-[a-z]+$')", true],
    ['object.metadata.generation + 1', 3n],
    ['object.spec.replicas * 2', 6n],
    ['params.n + 1', 6n],
    // escaping (spec §4.10.2): reserved words and dashes; map keys are not escaped
    ['object.spec.__namespace__', 'ns'],
    ['object.spec.x__dash__y', 'z'],
    ["object.metadata.labels['svc.io/x']", 'y'],
    // has() on dynamic values (spec §4.10.4)
    ['has(object.metadata.name) && !has(object.metadata.uid)', true],
    ['has(params.data.prefix) && !has(params.data.other)', true],
    // optional types
    ["object.metadata.?uid.orValue('none')", 'none'],
  ])('%s', (expr, want) => {
    expect(run(expr)).toEqual({ ok: true, value: want, cost: expect.any(Number) });
  });

  it('rejects a compile error with the library message', () => {
    expect(env.compile('object.metadata.name.startsWith(').error).toMatch(/./);
    expect(env.compile('unknownVar == 1').error).toMatch(/unknownVar/);
  });

  it('returns an evaluation error as a value', () => {
    const r = run('object.metadata.nope == 1');
    expect(r.ok).toBe(false);
  });

  it('errors on int64 overflow', () => {
    expect(run('9223372036854775807 + object.metadata.generation')).toMatchObject({ ok: false, message: expect.stringMatching(/overflow/) });
  });
});

describe('cost', () => {
  const items = Array.from({ length: 1000 }, (_, i) => i);
  it('counts comparisons, selections and list literals', () => {
    expect(run('1 == 1').cost).toBe(1);
    expect(run('object.metadata.name == "x"').cost).toBe(4); // object, .metadata, .name, ==
    expect(run('[1, 2] == [1, 2]').cost).toBe(81);
  });
  // Upstream's runtime figures (cel-go runtimecost.go): comprehensions, macros, optionals, and the
  // sized builtins, which cost their traversal and nothing more (a call is not also a unit).
  it.each<[string, number]>([
    ['[1, 2, 3].all(x, x > 0)', 47],
    ['[1, 2, 3].exists(x, x == 3)', 47],
    ['[1, 2, 3].map(x, x * 2).filter(y, y > 2).size()', 142],
    ["has(object.metadata.labels) && 'a' in object.metadata.labels", 6],
    ["object.metadata.name.startsWith('sa-') || object.metadata.name.startsWith('bench-')", 4],
    ["{'a': 1}.all(k, k == 'a')", 33],
    ['[1, 2].exists_one(x, x == 1)', 46],
    ['object.?spec.?x.orValue(3) + 1', 5],
    ["'abc'.contains('b') && 'abc'.endsWith('c')", 2],
  ])('cost of %s is %d', (expression, cost) => {
    expect(run(expression, { object: { metadata: { name: 'sa-1', labels: { a: 'b' } }, spec: {} } }).cost).toBe(cost);
  });
  it('charges a regex by input and regex length', () => {
    // upstream's ceil(0.1·(1 + len(input)))·ceil(0.25·len(regex))
    expect(run("'ab'.matches('a')").cost).toBe(1);
    expect(run(`'${'a'.repeat(1000)}'.matches('${'a'.repeat(40)}')`).cost).toBe(101 * 10);
  });
  it('stops a runaway comprehension with upstream message', () => {
    // 10^9 iterations without the limit: minutes of event-loop time.
    const r = run('items.all(a, items.all(b, items.all(c, a + b + c >= 0)))', { items });
    expect(r).toMatchObject({ ok: false, costExceeded: true, message: costLimitExceededMessage });
    expect(r.cost).toBeLessThanOrEqual(1_000_000 + 100);
  });
  it('takes each evaluation from the request budget', () => {
    const c = env.compile('items.all(a, a >= 0)');
    if (c.error !== undefined) throw new Error(c.error);
    const one = c.program.evaluate({ items }).cost;
    const budget = new CostBudget(Math.floor(one * 1.5));
    expect(c.program.evaluate({ items }, { budget }).ok).toBe(true);
    expect(budget.remaining).toBe(Math.floor(one * 1.5) - one);
    expect(c.program.evaluate({ items }, { budget })).toMatchObject({ ok: false, message: costLimitExceededMessage });
  });
  it('honours a smaller per-call limit', () => {
    const c = env.compile('items.map(x, x * 2).size()');
    if (c.error !== undefined) throw new Error(c.error);
    expect(c.program.evaluate({ items }, { limit: 100 })).toMatchObject({ ok: false, costExceeded: true });
    expect(c.program.evaluate({ items }).ok).toBe(true);
  });
});
