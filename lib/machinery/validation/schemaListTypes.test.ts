import type { FieldSchema } from '../../api/schema';
import { defineObject, s } from '../../api/schema';
import { renderFieldError } from '../fieldErrors';
import { validateSchemaListTypes } from './schemaListTypes';

const Item = defineObject({ name: 'w.spec.x[]', unstructured: true, fields: { name: s.string(), zone: s.string(), v: s.int64() } });
const item = s.object(() => Item);

const errors = (x: FieldSchema, value: unknown): string[] => {
  const Spec = defineObject({ name: 'w.spec', unstructured: true, fields: { x } });
  const W = defineObject({ name: 'w', unstructured: true, fields: { spec: s.object(() => Spec) } });
  return validateSchemaListTypes(W, { spec: { x: value } }).map(renderFieldError);
};

describe('validateSchemaListTypes', () => {
  it.each<[string, FieldSchema, unknown, string[]]>([
    ['a set without duplicates', s.array(s.string(), { listType: 'set' }), ['a', 'b'], []],
    ['a set reports the second appearance only', s.array(s.string(), { listType: 'set' }), ['a', 'b', 'a', 'a'], ['spec.x[2]: Duplicate value: "a"']],
    ['a set of objects compares them as JSON', s.array(item, { listType: 'set' }), [{ name: 'a', v: 1 }, { v: 1, name: 'a' }], ['spec.x[1]: Duplicate value: {"name":"a","v":1}']],
    ['an atomic list may repeat', s.array(s.string()), ['a', 'a'], []],
    ['a map list on one key', s.array(item, { listType: 'map', listMapKeys: ['name'] }), [{ name: 'a', v: 1 }, { name: 'b' }, { name: 'a', v: 2 }], ['spec.x[2]: Duplicate value: {"name":"a"}']],
    ['items without the key are one key', s.array(item, { listType: 'map', listMapKeys: ['name'] }), [{ v: 1 }, null], ['spec.x[1]: Duplicate value: {}']],
    [
      'a map list on two keys',
      s.array(item, { listType: 'map', listMapKeys: ['name', 'zone'] }),
      [{ name: 'a', zone: 'z1' }, { name: 'a', zone: 'z2' }, { zone: 'z1', name: 'a' }],
      ['spec.x[2]: Duplicate value: {"name":"a","zone":"z1"}'],
    ],
    ['map-list items must be objects', s.array(item, { listType: 'map', listMapKeys: ['name'] }), [{ name: 'a' }, 'b'], ['spec.x[1]: Invalid value: "b": must be an object for an array of list-type map']],
    ['lists inside map values', s.map(s.array(s.int64(), { listType: 'set' })), { k: [1, 1] }, ['spec.x[k][1]: Duplicate value: 1']],
    ['lists inside list items', s.array(s.array(s.int64(), { listType: 'set' })), [[1], [2, 2]], ['spec.x[1][1]: Duplicate value: 2']],
  ])('%s', (_name, x, value, want) => {
    expect(errors(x, value)).toEqual(want);
  });
});
