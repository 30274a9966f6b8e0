import { CelEnvironment } from './environment';

const env = new CelEnvironment(['object', 'oldObject', 'request', 'namespaceObject', 'params', 'variables'].map((name) => ({ name, unescaped: true })));

function refs(expression: string): string[] {
  const r = env.compile(expression);
  if (r.error !== undefined) throw new Error(r.error);
  return [...r.program.references].sort();
}

describe('CelProgram.references: every variable an expression may read', () => {
  it.each<[string, string[]]>([
    ['object.metadata.name == "x"', ['object']],
    ['true', []],
    ["has(namespaceObject.metadata.labels) && 'a' in namespaceObject.metadata.labels", ['namespaceObject']],
    ['object.spec.items.all(i, i.size() < params.max)', ['i', 'object', 'params']],
    ['[1, 2].exists(x, x == oldObject.count)', ['oldObject', 'x']],
    ['object.?metadata.?labels.orValue({}).size() > 0 || request.operation == "CREATE"', ['object', 'request']],
    ['variables.isAdmin ? "yes" : string(object.metadata.generation)', ['object', 'variables']],
    ['[object, oldObject].map(o, o.metadata.name).size() == 2', ['o', 'object', 'oldObject']],
  ])('%s', (expression, want) => {
    expect(refs(expression)).toEqual(want);
  });
});

describe('CelProgram.paths: the fields each variable is read through', () => {
  const show = (expression: string): Record<string, unknown> => {
    const tree = (t: { all?: true; fields?: ReadonlyMap<string, unknown> }): unknown =>
      t.all ? '*' : Object.fromEntries([...(t.fields ?? [])].map(([k, v]) => [k, tree(v as typeof t)]));
    return Object.fromEntries([...env.compile(expression).program!.paths].map(([n, t]) => [n, tree(t)]));
  };
  it.each<[string, Record<string, unknown>]>([
    ['object.metadata.name == "x"', { object: { metadata: { name: '*' } } }],
    ['has(object.metadata.labels) && object.metadata.name != ""', { object: { metadata: { labels: '*', name: '*' } } }],
    ['object.?spec.?x.orValue(1) == 1', { object: { spec: { x: '*' } } }],
    ["object.metadata.labels['a'] == 'b'", { object: { metadata: { labels: '*' } } }],
    ['object.metadata.name == "x" || object == oldObject', { object: '*', oldObject: '*' }],
    ['object.items.all(i, i.size() < params.max)', { i: '*', object: { items: '*' }, params: { max: '*' } }],
    ['size(object.metadata) > 0', { object: { metadata: '*' } }],
  ])('%s', (expression, want) => {
    expect(show(expression)).toEqual(want);
  });
});
