import { defineObject, s } from '../../api/schema';
import type { JsonValue } from '../jsonValue';
import { FieldSet } from './fieldSet';
import { mergeObjects, removeItems, withNamedParents } from './merge';
import { pathString, pe } from './pathElement';

const Cond = defineObject({ name: 'Cond', fields: { type: s.string(), status: s.string(), reason: s.string() } });
const Ref = defineObject({ name: 'Ref', fields: { name: s.string(), kind: s.string() } });
const Spec = defineObject({
  name: 'Spec',
  fields: {
    replicas: s.int32(),
    tags: s.array(s.string(), { listType: 'set' }),
    args: s.array(s.string(), { listType: 'atomic' }),
    refs: s.array(s.object(() => Ref), { patchStrategy: 'merge', patchMergeKey: 'name' }),
    labels: s.map(s.string()),
    selector: s.map(s.string(), { mapType: 'atomic' }),
    conditions: s.array(s.object(() => Cond), { listType: 'map', listMapKeys: ['type'] }),
    nested: s.object(() => Ref),
  },
});
const Obj = defineObject({ name: 'Obj', fields: { spec: s.object(() => Spec) } });
const f = pe.field;

describe('mergeObjects', () => {
  it.each<[string, JsonValue, JsonValue, JsonValue]>([
    ['scalar replaced', { spec: { replicas: 1 } }, { spec: { replicas: 2 } }, { spec: { replicas: 2 } }],
    ['struct merged member-wise', { spec: { replicas: 1 } }, { spec: { nested: { name: 'n' } } }, { spec: { replicas: 1, nested: { name: 'n' } } }],
    ['granular map merged', { spec: { labels: { a: '1', b: '2' } } }, { spec: { labels: { b: '3' } } }, { spec: { labels: { a: '1', b: '3' } } }],
    ['atomic map replaced', { spec: { selector: { a: '1' } } }, { spec: { selector: { b: '2' } } }, { spec: { selector: { b: '2' } } }],
    ['atomic list replaced', { spec: { args: ['a', 'b'] } }, { spec: { args: ['c'] } }, { spec: { args: ['c'] } }],
    ['set list: union, config elements placed before the shared one', { spec: { tags: ['a', 'b'] } }, { spec: { tags: ['c', 'a'] } }, { spec: { tags: ['c', 'a', 'b'] } }],
    [
      'map list merged by key',
      { spec: { conditions: [{ type: 'A', status: 'T' }, { type: 'B', status: 'F' }] } },
      { spec: { conditions: [{ type: 'B', reason: 'r' }] } },
      { spec: { conditions: [{ type: 'A', status: 'T' }, { type: 'B', status: 'F', reason: 'r' }] } },
    ],
    [
      'patchStrategy=merge list merged on the merge key',
      { spec: { refs: [{ name: 'x', kind: 'K' }] } },
      { spec: { refs: [{ name: 'y' }] } },
      { spec: { refs: [{ name: 'x', kind: 'K' }, { name: 'y' }] } },
    ],
    ['shared elements follow the config order', { spec: { tags: ['a', 'b', 'c'] } }, { spec: { tags: ['c', 'a'] } }, { spec: { tags: ['b', 'c', 'a'] } }],
    ['onto nothing', {}, { spec: { replicas: 3 } }, { spec: { replicas: 3 } }],
  ])('%s', (_n, live, config, want) => {
    expect(mergeObjects(live, config, Obj)).toEqual(want);
  });
});

describe('removeItems', () => {
  it.each<[string, JsonValue, string[][], JsonValue]>([
    ['a scalar', { spec: { replicas: 1, nested: { name: 'n' } } }, [['spec', 'replicas']], { spec: { nested: { name: 'n' } } }],
    ['a map entry', { spec: { labels: { a: '1', b: '2' } } }, [['spec', 'labels', 'a']], { spec: { labels: { b: '2' } } }],
    ['a whole struct', { spec: { nested: { name: 'n' } } }, [['spec', 'nested']], { spec: {} }],
  ])('%s', (_n, obj, paths, want) => {
    expect(removeItems(obj, new FieldSet(paths.map((p) => p.map(f))), Obj)).toEqual(want);
  });
  it('a map-list element and a set element', () => {
    const set = new FieldSet([
      [f('spec'), f('conditions'), pe.key({ type: 'A' })],
      [f('spec'), f('tags'), pe.value('a')],
    ]);
    expect(removeItems({ spec: { conditions: [{ type: 'A' }, { type: 'B' }], tags: ['a', 'b'] } }, set, Obj)).toEqual({
      spec: { conditions: [{ type: 'B' }], tags: ['b'] },
    });
  });
});

describe('withNamedParents', () => {
  it('adds struct fields above members, not map keys or list elements', () => {
    const set = new FieldSet([
      [f('spec'), f('nested'), f('name')],
      [f('spec'), f('labels'), f('a')],
      [f('spec'), f('conditions'), pe.key({ type: 'A' }), f('status')],
    ]);
    expect(withNamedParents(set, Obj).paths().map(pathString)).toEqual([
      '.spec',
      '.spec.conditions',
      '.spec.labels',
      '.spec.nested',
      '.spec.conditions[type="A"].status',
      '.spec.labels.a',
      '.spec.nested.name',
    ]);
  });
});
