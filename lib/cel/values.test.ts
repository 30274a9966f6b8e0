import { s, defineObject } from '../api/schema';
import { CelActivation, CelEnvironment } from './environment';
import { toCelValue } from './values';

const Item = defineObject({ name: 'Item', fields: { name: s.string(), count: s.int32() } });
const Obj = defineObject({
  name: 'Obj',
  fields: { name: s.string(), labels: s.map(s.string()), items: s.array(s.object(() => Item)), tags: s.array(s.string(), { listType: 'set' }) },
});

describe('toCelValue', () => {
  it('hands over parts that need no change (copy on write)', () => {
    const labels = { a: 'b' };
    const v = { name: 'x', labels, deep: { list: ['a', 'b'] } };
    const c = toCelValue(v, undefined, false) as typeof v;
    expect(c).toBe(v);
    const withNumber = { name: 'x', labels, n: 3 };
    const d = toCelValue(withNumber, undefined, false) as Record<string, unknown>;
    expect(d).not.toBe(withNumber);
    expect(d).toEqual({ name: 'x', labels, n: 3n });
    expect(d.labels).toBe(labels);
    expect(withNumber.n).toBe(3);
  });
  it('copies a typed list before tagging it and escapes names', () => {
    const tags = ['a', 'b'];
    const c = toCelValue({ tags, items: [{ name: 'i', count: 1 }] }, s.object(() => Obj)) as { tags: string[]; items: unknown[] };
    expect(c.tags).not.toBe(tags);
    expect(c.tags).toEqual(tags);
    expect(Object.getOwnPropertySymbols(tags)).toEqual([]);
    expect(c.items).toEqual([{ name: 'i', count: 1n }]);
    expect(toCelValue({ 'x-y': 1, namespace: 'n', 'a b': 2 })).toEqual({ x__dash__y: 1n, __namespace__: 'n' });
  });
});

describe('CelActivation', () => {
  const env = new CelEnvironment([{ name: 'object', unescaped: true }, { name: 'params', unescaped: true }, { name: 'variables', unescaped: true }]);
  it('converts once and evaluates many programs; with() adds JSON or CEL values', () => {
    const a = CelActivation.of({ object: { metadata: { namespace: 'ns', generation: 2 } } }, { escape: false });
    const p = env.compile('object.metadata.generation + 1 == 3 && object.metadata.namespace == "ns"').program!;
    expect(p.evaluate(a)).toMatchObject({ ok: true, value: true });
    const b = a.with('params', { n: 1 }, { escape: false }).with('variables', { v: 5n }, { celValue: true });
    expect(env.compile('params.n + variables.v').program!.evaluate(b)).toMatchObject({ ok: true, value: 6n });
  });

  it('with() leaves the activation it extends as it was (one base serves many policies)', () => {
    const a = CelActivation.of({ object: { n: 1 }, params: null }, { escape: false });
    const b = a.with('params', { n: 2 }, { escape: false });
    const c = b.with('params', { n: 3 }, { escape: false });
    const sum = env.compile('object.n + (params == null ? 0 : params.n)').program!;
    expect([a, b, c].map((x) => sum.evaluate(x))).toMatchObject([{ value: 1n }, { value: 3n }, { value: 4n }]);
  });
});
