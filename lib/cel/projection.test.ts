// Converting only the fields expressions select (CelActivation.of with `paths`) must give every
// expression exactly what the full conversion gives it: values, errors and has()/optional results.
import { defineObject, s } from '../api/schema';
import { CelActivation, CelEnvironment } from './environment';
import { mergeFieldTrees } from './references';
import { objectField } from './schemaField';

const Meta = defineObject({ name: 'Meta', fields: { name: s.string(), generation: s.int64(), labels: s.map(s.string()), finalizers: s.array(s.string(), { listType: 'set' }) } });
const Port = defineObject({ name: 'Port', fields: { name: s.string(), port: s.int32() } });
const Obj = defineObject({
  name: 'Obj',
  fields: { metadata: s.object(() => Meta), spec: s.any(), ports: s.array(s.object(() => Port), { listType: 'map', listMapKeys: ['name'] }), count: s.int32() },
});
const schemas = { object: objectField(Obj), oldObject: objectField(Obj) };

const object = {
  metadata: { name: 'web', generation: 3, labels: { app: 'web', tier: 'gold' }, finalizers: ['b', 'a'], managedFields: [{ manager: 'x', fieldsV1: { 'f:metadata': {} } }] },
  spec: { replicas: 2, nested: { deep: [1, 2, { k: 'v' }] }, text: 'hello' },
  ports: [
    { name: 'http', port: 80 },
    { name: 'https', port: 443 },
  ],
  count: 7,
};
const oldObject = { ...object, metadata: { ...object.metadata, finalizers: ['a', 'b'], labels: { app: 'web' } }, ports: [...object.ports].reverse() };

const env = new CelEnvironment(['object', 'oldObject', 'request', 'params'].map((name) => ({ name, unescaped: true })));

describe('CelActivation.of with paths: the same results as converting everything', () => {
  it.each<[string]>([
    ['object.metadata.name'],
    ['object.metadata.generation + 1'],
    ['object.count * 2'],
    ["object.metadata.labels.app + '/' + object.metadata.labels['tier']"],
    ["'tier' in object.metadata.labels && !('x' in object.metadata.labels)"],
    ['has(object.metadata.labels) && has(object.metadata.labels.app) && !has(object.metadata.annotations)'],
    ['has(object.spec.nested.deep)'],
    ['has(object.status)'],
    ['object.status.phase'],
    ['object.metadata.nope.deeper'],
    ['object.spec.text.size'],
    ["object.?status.?phase.orValue('none')"],
    ['object.?spec.?replicas.orValue(0) + 1'],
    ['object.spec.nested.deep[2].k'],
    ['object.spec.nested.deep.size() == 3'],
    ['object.metadata.finalizers == oldObject.metadata.finalizers'],
    ['object.ports == oldObject.ports'],
    ['object.ports.all(p, p.port > 0) && object.ports.exists(p, p.name == "https")'],
    ['object.ports.map(p, p.port).sum()'],
    ['object.metadata == oldObject.metadata'],
    ['object == oldObject'],
    ['size(object) == 4'],
    ["[{'a': 1}].all(object, object.a == 1) && object.metadata.name == 'web'"],
    ['object.metadata.managedFields[0].manager'],
    ['oldObject.metadata.labels.tier'],
    ['object.metadata.labels.size() > oldObject.metadata.labels.size()'],
  ])('%s', (expression) => {
    const c = env.compile(expression);
    if (c.error !== undefined) throw new Error(c.error);
    const full = CelActivation.of({ object, oldObject, request: null }, { escape: false, schemas });
    const projected = CelActivation.of({ object, oldObject, request: null }, { escape: false, schemas, paths: c.program.paths });
    expect(c.program.evaluate(projected)).toEqual(c.program.evaluate(full));
  });

  it('merged paths of several programs serve each of them', () => {
    const programs = ['object.metadata.name', 'object.metadata.labels.app', 'has(object.spec.text)', 'object.ports.size()'].map((e) => env.compile(e).program!);
    const paths = new Map<string, ReturnType<typeof mergeFieldTrees>>();
    for (const p of programs) for (const [n, t] of p.paths) paths.set(n, paths.has(n) ? mergeFieldTrees(paths.get(n)!, t) : t);
    const full = CelActivation.of({ object, oldObject }, { escape: false, schemas });
    const projected = CelActivation.of({ object, oldObject }, { escape: false, schemas, paths });
    for (const p of programs) expect(p.evaluate(projected)).toEqual(p.evaluate(full));
  });

  it('a variable no expression reads is not converted at all', () => {
    const p = env.compile('object.metadata.name').program!;
    const a = CelActivation.of({ object, oldObject }, { escape: false, schemas, paths: p.paths });
    expect(a.values.oldObject).toBeUndefined();
    expect(a.values.object).toEqual({ metadata: { name: 'web' } });
  });
});
