import { defineObject, s } from '../../api/schema';
import type { JsonValue } from '../jsonValue';
import { compareObjects } from './compare';
import { FieldSet } from './fieldSet';
import { fieldSetOf } from './fieldSetOf';
import { decodeFieldsV1, encodeFieldsV1 } from './fieldsV1';
import type { Path, PathElement } from './pathElement';
import { comparePathElements, compareStrings, deserializePathElement, pathString, pe, serializePathElement } from './pathElement';

const Cond = defineObject({ name: 'Cond', fields: { type: s.string(), status: s.string(), reason: s.string() } });
const Port = defineObject({ name: 'Port', fields: { port: s.int32(), protocol: s.string(), name: s.string() } });
const Ref = defineObject({ name: 'Ref', fields: { name: s.string(), kind: s.string() } });
const Spec = defineObject({
  name: 'Spec',
  fields: {
    replicas: s.int32(),
    tags: s.array(s.string(), { listType: 'set' }),
    args: s.array(s.string(), { listType: 'atomic' }),
    untyped: s.array(s.string()),
    ports: s.array(s.object(() => Port), { listType: 'map', listMapKeys: ['port', 'protocol'] }),
    refs: s.array(s.object(() => Ref), { patchStrategy: 'merge', patchMergeKey: 'name' }),
    finalizers: s.array(s.string(), { patchStrategy: 'merge' }),
    labels: s.map(s.string()),
    selector: s.map(s.string(), { mapType: 'atomic' }),
    conditions: s.array(s.object(() => Cond), { listType: 'map', listMapKeys: ['type'] }),
    nested: s.object(() => Ref),
  },
});
const Obj = defineObject({ name: 'Obj', fields: { apiVersion: s.string(), kind: s.string(), spec: s.object(() => Spec) } });

const f = pe.field;
const paths = (set: FieldSet) => set.paths().map(pathString);

describe('compareStrings (Go byte order of UTF-8)', () => {
  const samples = ['', 'a', 'ab', 'b', 'B', 'é', 'z\u00ff', '\ue000', '\uffff', '\u{10000}', '\u{1f600}x', 'a\u{1f600}', 'a\uffff'];
  it.each(samples.flatMap((x) => samples.map((y) => [x, y])))('%j vs %j', (x, y) => {
    expect(compareStrings(x, y)).toBe(Math.sign(Buffer.compare(Buffer.from(x, 'utf8'), Buffer.from(y, 'utf8'))));
  });
});

describe('path elements', () => {
  it.each<[string, ReturnType<typeof pe.field>, string, string]>([
    ['field', f('name'), 'f:name', '.name'],
    ['key sorted by name', pe.key({ type: 'Ready', a: 1 }), 'k:{"a":1,"type":"Ready"}', '[a=1,type="Ready"]'],
    ['value', pe.value('svc.io/x'), 'v:"svc.io/x"', '[="svc.io/x"]'],
    ['value with HTML-escaped chars', pe.value('<a&b>'), 'v:"\\u003ca\\u0026b\\u003e"', '[="<a&b>"]'],
    ['object value keys sorted', pe.value({ b: 1, a: true }), 'v:{"a":true,"b":1}', '[={a=true;b=1}]'],
    ['index', pe.index(3), 'i:3', '[3]'],
  ])('%s', (_n, e, serial, str) => {
    expect(serializePathElement(e)).toBe(serial);
    expect(pathString([e])).toBe(str);
    expect(serializePathElement(deserializePathElement(serial))).toBe(serial);
  });

  it.each(['x:foo', 'k:[1]', 'k:{}', 'i:x', 'v:{bad'])('rejects %s', (s) => {
    expect(() => deserializePathElement(s)).toThrow();
  });

  it('orders fields, keys, values, indexes; values numbers < strings < bools', () => {
    const sorted = [pe.index(0), pe.value(true), pe.value('a'), pe.value(2), pe.key({ a: 'x' }), f('z'), f('a')].sort(comparePathElements);
    expect(sorted.map(serializePathElement)).toEqual(['f:a', 'f:z', 'k:{"a":"x"}', 'v:2', 'v:"a"', 'v:true', 'i:0']);
  });
});

describe('FieldSet', () => {
  const a: Path = [f('spec'), f('a')];
  const b: Path = [f('spec'), f('b')];
  const spec: Path = [f('spec')];
  it.each<[string, (x: FieldSet, y: FieldSet) => FieldSet, string[]]>([
    ['union', (x, y) => x.union(y), ['.spec', '.spec.a', '.spec.b']],
    ['intersection', (x, y) => x.intersection(y), ['.spec.a']],
    ['difference', (x, y) => x.difference(y), ['.spec']],
    ['difference reversed', (x, y) => y.difference(x), ['.spec.b']],
  ])('%s', (_n, op, want) => {
    const x = new FieldSet([spec, a]);
    const y = new FieldSet([a, b]);
    expect(paths(op(x, y))).toEqual(want);
  });
  it('has, isEmpty, leaves, descendants', () => {
    const x = new FieldSet([spec, a]);
    expect(x.has(spec)).toBe(true);
    expect(x.has(b)).toBe(false);
    expect(x.hasDescendants(spec)).toBe(true);
    expect(paths(x.leaves())).toEqual(['.spec.a']);
    expect(new FieldSet().isEmpty()).toBe(true);
    expect(x.difference(x).isEmpty()).toBe(true);
    expect(x.size()).toBe(2);
  });
  // Upstream's RecursiveDifference: a member goes when it or any prefix of it is in the other set.
  it.each<[string, Path[], Path[], string[]]>([
    ['nothing to remove', [spec, a, b], [], ['.spec', '.spec.a', '.spec.b']],
    ['a prefix removes its subtree', [spec, a, b, [f('status')]], [spec], ['.status']],
    ['a member only', [spec, a, b], [a], ['.spec', '.spec.b']],
    ['a non-member path reaching deeper removes only below', [spec, a, [f('spec'), f('a'), f('x')]], [[f('spec'), f('a'), f('x')]], ['.spec', '.spec.a']],
    ['paths absent from the set change nothing', [a], [[f('metadata')]], ['.spec.a']],
  ])('withoutPrefixes: %s', (_n, members, prefixes, want) => {
    const x = new FieldSet(members);
    const out = x.withoutPrefixes(new FieldSet(prefixes));
    expect(paths(out)).toEqual(want);
    const grown = out.copy().insert([f('new')]);
    expect(grown.has([f('new')])).toBe(true);
    expect(x.has([f('new')])).toBe(false);
    expect(out.has([f('new')])).toBe(false);
  });
  it('withoutPrefixes drops members under (or at) a prefix member, keeps the rest; the original is untouched', () => {
    const x = new FieldSet([spec, a, b, [f('status'), f('x')], [f('metadata'), f('labels'), f('k')]]);
    const prefixes = new FieldSet([[f('spec'), f('a')], [f('status')], [f('metadata'), f('annotations')]]);
    const out = x.withoutPrefixes(prefixes);
    expect(paths(out)).toEqual(['.spec', '.metadata.labels.k', '.spec.b']);
    expect(paths(x.withoutPrefixes(new FieldSet()))).toEqual(paths(x));
    out.copy().insert([f('spec'), f('c')]);
    expect(x.has([f('spec'), f('c')])).toBe(false);
    expect(x.size()).toBe(5);
  });
  // Results share subtrees with their operands (no copy per operation), so neither may change
  // afterwards: inserting is refused instead of silently changing another set.
  it.each<[string, Path[], (x: FieldSet, y: FieldSet) => FieldSet]>([
    ['union', [b, [f('status'), f('x')]], (x, y) => x.union(y)],
    ['union with an empty set', [], (x, y) => x.union(y)],
    ['difference', [b, [f('status'), f('x')]], (x, y) => x.difference(y)],
    ['difference with an empty set', [], (x, y) => x.difference(y)],
    ['intersection', [b, [f('status'), f('x')]], (x, y) => x.intersection(y)],
    ['withoutPrefixes', [b, [f('status'), f('x')]], (x, y) => x.withoutPrefixes(y)],
  ])('%s: operands and result refuse inserts; copy() takes them', (_n, other, op) => {
    const x = new FieldSet([spec, a, [f('status'), f('x')]]);
    const y = new FieldSet(other);
    const out = op(x, y);
    for (const s of [x, y, out]) expect(() => s.insert([f('new')])).toThrow(/shares its tree/);
    const before = paths(x);
    const c = out.copy().insert([f('status'), f('x'), f('deep')]);
    expect(c.has([f('status'), f('x'), f('deep')])).toBe(true);
    expect(paths(x)).toEqual(before);
    expect(paths(y)).toEqual(paths(new FieldSet(other)));
  });
  it('shared subtrees: a difference keeps the untouched branch of its operand, equal by value', () => {
    const x = new FieldSet([[f('metadata'), f('labels'), f('a')], [f('spec'), f('b')]]);
    const out = x.difference(new FieldSet([[f('spec'), f('b')]]));
    expect(paths(out)).toEqual(['.metadata.labels.a']);
    expect(paths(x)).toEqual(['.metadata.labels.a', '.spec.b']);
  });
  it.each<[string, string]>([
    ['a', 'b'],
    ['a', 'ab'],
    ['Z', 'a'],
    ['\u00e9', '\u4e2d'],
    ['\uffff', '\u{1f600}'], // UTF-16 puts the surrogate first; UTF-8 bytes (Go) do not
    ['\ue000', '\u{10000}'],
    ['x\uff00', 'x\u{1f600}'],
  ])('compareStrings is UTF-8 byte order: %j < %j', (lo, hi) => {
    const bytes = Math.sign(Buffer.compare(Buffer.from(lo), Buffer.from(hi)));
    expect(bytes).toBe(-1);
    expect(compareStrings(lo, hi)).toBe(-1);
    expect(compareStrings(hi, lo)).toBe(1);
    expect(compareStrings(lo, lo)).toBe(0);
  });
  it('iterates a level\'s members before descending (upstream order)', () => {
    const x = new FieldSet([[f('b'), f('c')], [f('a'), f('z')], [f('c')]]);
    expect(paths(x)).toEqual(['.c', '.a.z', '.b.c']);
  });
  it('orders any number of children, inserted in any order, as comparePathElements does', () => {
    const elements: PathElement[] = [
      ...['m', 'b', 'z', 'a', 'k', 'c', 'x', 'é', 'A'].map((n) => f(n)),
      ...[3, 0, 12, 1].map((i) => pe.index(i)),
      pe.key({ name: 'b' }),
      pe.key({ name: 'a' }),
      pe.value('v'),
      pe.value(1),
    ];
    const expected = [...elements].sort(comparePathElements).map((e) => pathString([e]));
    for (const order of [elements, [...elements].reverse(), [...elements].sort(comparePathElements)]) {
      const set = new FieldSet(order.map((e) => [e]));
      expect(set.paths().map(pathString)).toEqual(expected);
    }
  });
  it('a node that gains children after being a leaf gets them alone (leaves share no state)', () => {
    const leafOnly = new FieldSet([[f('x')]]);
    const grown = new FieldSet([[f('a')], [f('b')]]).copy().insert([f('a'), f('c')]);
    const combined = new FieldSet([[f('d')]]).union(new FieldSet([[f('d'), f('e')]])).union(decodeFieldsV1({ 'f:q': {}, 'f:r': { 'f:s': {} } }));
    expect(paths(grown)).toEqual(['.a', '.b', '.a.c']);
    expect(paths(combined)).toEqual(['.d', '.q', '.d.e', '.r.s']);
    expect(leafOnly.hasDescendants([f('x')])).toBe(false);
    expect(new FieldSet([[f('y')]]).hasDescendants([f('y')])).toBe(false);
    expect(paths(new FieldSet([[f('y')]]))).toEqual(['.y']);
  });
});

describe('FieldsV1', () => {
  const upstreamExamples: JsonValue[] = [
    { 'f:metadata': { 'f:finalizers': { '.': {}, 'v:"svc.io/protect"': {} }, 'f:labels': { '.': {}, 'f:team': {} } }, 'f:secrets': { '.': {}, 'k:{"name":"reg"}': { '.': {}, 'f:name': {} } } },
    { 'f:status': { 'f:conditions': { '.': {}, 'k:{"type":"Approved"}': { '.': {}, 'f:lastTransitionTime': {}, 'f:lastUpdateTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {}, 'f:type': {} } } } },
    { 'f:spec': { 'f:ports': { 'k:{"port":80,"protocol":"TCP"}': { 'f:name': {} } } } },
  ];
  it.each(upstreamExamples.map((e) => [JSON.stringify(e), e]))('round-trips byte for byte: %s', (_s, e) => {
    expect(JSON.stringify(encodeFieldsV1(decodeFieldsV1(e)))).toBe(JSON.stringify(e));
  });
  it('writes keys in element order whatever the insertion order', () => {
    const set = new FieldSet([[f('b')], [pe.key({ name: 'x' })], [f('a'), pe.index(1)], [f('a')]]);
    expect(JSON.stringify(encodeFieldsV1(set))).toBe('{"f:a":{".":{},"i:1":{}},"f:b":{},"k:{\\"name\\":\\"x\\"}":{}}');
  });
  it.each<[string, JsonValue]>([
    ['not an object', 'x'],
    ['bad element', { 'q:x': {} }],
    ['leaf not an object', { 'f:a': 1 }],
  ])('rejects %s', (_n, v) => {
    expect(() => decodeFieldsV1(v)).toThrow();
  });
});

describe('fieldSetOf by schema markers', () => {
  it.each<[string, JsonValue, string[]]>([
    ['scalar', { spec: { replicas: 1 } }, ['.spec.replicas']],
    ['set list: v: elements', { spec: { tags: ['a', 'b'] } }, ['.spec.tags[="a"]', '.spec.tags[="b"]']],
    ['atomic list: one leaf', { spec: { args: ['a', 'b'] } }, ['.spec.args']],
    ['list without type or patch strategy: atomic', { spec: { untyped: ['a'] } }, ['.spec.untyped']],
    ['map list: k: elements with sorted keys', { spec: { ports: [{ protocol: 'TCP', port: 80, name: 'web' }] } }, ['.spec.ports[port=80,protocol="TCP"]', '.spec.ports[port=80,protocol="TCP"].name', '.spec.ports[port=80,protocol="TCP"].port', '.spec.ports[port=80,protocol="TCP"].protocol']],
    ['patchStrategy merge with key: map list', { spec: { refs: [{ name: 'x' }] } }, ['.spec.refs[name="x"]', '.spec.refs[name="x"].name']],
    ['patchStrategy merge without key: set', { spec: { finalizers: ['f'] } }, ['.spec.finalizers[="f"]']],
    ['granular map: entries', { spec: { labels: { a: '1' } } }, ['.spec.labels.a']],
    ['empty granular map: the map itself', { spec: { labels: {} } }, ['.spec.labels']],
    ['atomic map: one leaf', { spec: { selector: { a: '1' } } }, ['.spec.selector']],
    ['null struct field: a leaf', { spec: { nested: null } }, ['.spec.nested']],
    ['struct recursion', { spec: { nested: { name: 'n' } } }, ['.spec.nested.name']],
    ['empty list: nothing', { spec: { tags: [] } }, []],
  ])('%s', (_n, obj, want) => {
    expect(paths(fieldSetOf(obj, Obj))).toEqual(want);
  });
  it('names an undeclared field as upstream does', () => {
    expect(() => fieldSetOf({ spec: { foo: 1 } }, Obj)).toThrow('.spec.foo: field not declared in schema');
  });
  it('rejects a map-list element without its keys', () => {
    expect(() => fieldSetOf({ spec: { conditions: [{ status: 'True' }] } }, Obj)).toThrow('omits key field "type"');
  });
});

describe('compare', () => {
  it.each<[string, JsonValue, JsonValue, { added?: string[]; modified?: string[]; removed?: string[] }]>([
    ['scalar added', {}, { spec: { replicas: 1 } }, { added: ['.spec.replicas'] }],
    ['scalar modified', { spec: { replicas: 1 } }, { spec: { replicas: 2 } }, { modified: ['.spec.replicas'] }],
    ['scalar removed', { spec: { replicas: 1 } }, { spec: {} }, { removed: ['.spec.replicas'] }],
    ['map added: the map and its entries', {}, { spec: { labels: { a: '1' } } }, { added: ['.spec.labels', '.spec.labels.a'] }],
    ['map entry changed', { spec: { labels: { a: '1', b: '2' } } }, { spec: { labels: { a: '3' } } }, { modified: ['.spec.labels.a'], removed: ['.spec.labels.b'] }],
    ['map list element added', { spec: { conditions: [{ type: 'A', status: 'T' }] } }, { spec: { conditions: [{ type: 'A', status: 'T' }, { type: 'B' }] } }, { added: ['.spec.conditions[type="B"]', '.spec.conditions[type="B"].type'] }],
    ['map list element field modified', { spec: { conditions: [{ type: 'A', status: 'T' }] } }, { spec: { conditions: [{ type: 'A', status: 'F' }] } }, { modified: ['.spec.conditions[type="A"].status'] }],
    ['set element removed', { spec: { tags: ['a', 'b'] } }, { spec: { tags: ['b'] } }, { removed: ['.spec.tags[="a"]'] }],
    ['set reorder: no change', { spec: { tags: ['a', 'b'] } }, { spec: { tags: ['b', 'a'] } }, {}],
    ['atomic list changed: one leaf', { spec: { args: ['a'] } }, { spec: { args: ['a', 'b'] } }, { modified: ['.spec.args'] }],
    ['struct field added: not the struct itself', {}, { spec: { nested: { name: 'x' } } }, { added: ['.spec.nested.name'] }],
    ['empty map vs absent: a leaf', {}, { spec: { labels: {} } }, { added: ['.spec.labels'] }],
    ['null vs empty map: modified leaf', { spec: { labels: null } }, { spec: { labels: {} } }, { modified: ['.spec.labels'] }],
  ])('%s', (_n, l, r, want) => {
    const c = compareObjects(l, r, Obj);
    expect({ added: paths(c.added), modified: paths(c.modified), removed: paths(c.removed) }).toEqual({
      added: want.added ?? [],
      modified: want.modified ?? [],
      removed: want.removed ?? [],
    });
  });
});

// Keys of one plain string field are read without a JSON parse and take their own text as their
// spelling: for every such text the element and its spelling must be what the parse gives.
describe('simple key elements', () => {
  const slow = (text: string): { e: ReturnType<typeof pe.key>; spelled: string } => {
    const e = pe.key(JSON.parse(text) as Record<string, JsonValue>);
    return { e, spelled: serializePathElement(e) };
  };
  const ascii = Array.from({ length: 0x5f }, (_, i) => String.fromCharCode(0x20 + i)).filter((c) => c !== '"' && c !== '\\');
  it.each<[string]>([
    ['k:{"name":"sa-1-token"}'],
    ['k:{"containerPort":"80"}'],
    ['k:{"a":""}'],
    ...ascii.map((c): [string] => [`k:{"name":"x${c}y"}`]),
    ...ascii.map((c): [string] => [`k:{"n${c}":"v"}`]),
  ])('%s', (text) => {
    const fast = deserializePathElement(text);
    const want = slow(text.slice(2));
    // The same element; its kept text (made when first serialised) aside.
    const { text: _a, ...got } = fast as Extract<PathElement, { kind: 'key' }>;
    const { text: _b, ...wanted } = want.e as Extract<PathElement, { kind: 'key' }>;
    expect(got).toEqual(wanted);
    expect(serializePathElement(fast)).toBe(`k:${want.spelled.slice(2)}`);
  });
  it('keys needing escapes, several fields or non-strings take the parse', () => {
    for (const text of ['k:{"name":"a<b"}', 'k:{"name":"é"}', 'k:{"a":"1","b":"2"}', 'k:{"port":80}', 'k:{"name":"a\\"b"}']) {
      const e = deserializePathElement(text);
      expect(serializePathElement(e)).toBe(`k:${slow(text.slice(2)).spelled.slice(2)}`);
    }
  });
});
