import type { JsonValue } from '../machinery/jsonValue';
import { withoutManagedFields } from './managedFields';

const mf = [{ manager: 'kubectl', operation: 'Apply' }];

describe('withoutManagedFields', () => {
  test.each<[string, JsonValue, JsonValue]>([
    ['object', { metadata: { name: 'a', managedFields: mf }, spec: {} }, { metadata: { name: 'a' }, spec: {} }],
    ['object without managedFields', { metadata: { name: 'a' } }, { metadata: { name: 'a' } }],
    ['object without metadata', { spec: { x: 1 } }, { spec: { x: 1 } }],
    [
      'list items (odd items left alone)',
      { kind: 'List', metadata: {}, items: [{ metadata: { managedFields: mf } }, 'x', null] },
      { kind: 'List', metadata: {}, items: [{ metadata: {} }, 'x', null] },
    ],
    [
      'Table rows',
      { kind: 'Table', rows: [{ cells: [], object: { metadata: { name: 'r', managedFields: mf } } }, { cells: [] }] },
      { kind: 'Table', rows: [{ cells: [], object: { metadata: { name: 'r' } } }, { cells: [] }] },
    ],
    ['rows of a kind other than Table are data', { kind: 'Thing', rows: [{ object: { metadata: { managedFields: mf } } }] }, { kind: 'Thing', rows: [{ object: { metadata: { managedFields: mf } } }] }],
    ['nested objects are not touched', { spec: { template: { metadata: { managedFields: mf } } } }, { spec: { template: { metadata: { managedFields: mf } } } }],
    ['scalar', 'text', 'text'],
    ['array', [{ metadata: { managedFields: mf } }], [{ metadata: { managedFields: mf } }]],
  ])('%s', (_name, input, want) => {
    const before = JSON.stringify(input);
    const out = withoutManagedFields(input);
    expect(out).toEqual(want);
    expect(JSON.stringify(input)).toBe(before);
    if (typeof input === 'object' && input !== null) expect(out).not.toBe(input);
  });
});
