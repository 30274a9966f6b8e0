// Typed validation as structured-merge-diff's typed/validate.go (v4.4) reports it, on real kinds'
// schemas. The first rows are apply configurations the write-body fuzz found reaching a
// JavaScript TypeError ("Cannot create property 'managedFields' on number '0.5'") before this
// check existed; upstream refuses them here, with these texts.
import { ConfigMapSchema, ServiceAccountSchema } from '../../api';
import { LeaseSchema } from '../../api/coordination';
import type { ObjectSchema } from '../../api/schema';
import { defineObject, s } from '../../api/schema';
import type { JsonValue } from '../jsonValue';
import { typedValidationErrors, typedValidationText } from './validateTyped';

const text = (obj: JsonValue, schema: ObjectSchema, allowDuplicates = false): string => typedValidationText(typedValidationErrors(obj, schema, { allowDuplicates }));

describe('typed validation (structured-merge-diff validate.go)', () => {
  test.each<[string, JsonValue, ObjectSchema, string]>([
    // metadata of the wrong JSON type: %v of the value wrapper
    ['metadata a float', { metadata: 0.5 }, ConfigMapSchema, '.metadata: expected map, got &{0.5}'],
    ['metadata an int', { metadata: -2147483649 }, ConfigMapSchema, '.metadata: expected map, got &{-2147483649}'],
    ['metadata a string', { metadata: '2026-01-10T08:00:00Z' }, ConfigMapSchema, '.metadata: expected map, got &{2026-01-10T08:00:00Z}'],
    ['metadata a bool', { metadata: false }, ConfigMapSchema, '.metadata: expected map, got &{false}'],
    ['metadata a list', { metadata: [{ name: 'x' }] }, ConfigMapSchema, '.metadata: expected map, got &{[map[name:x]]}'],
    // scalars: string (%#v), numeric (%T), boolean (%v)
    ['a string field holding an int', { data: { a: 5 } }, ConfigMapSchema, '.data.a: expected string, got &value.valueUnstructured{Value:5}'],
    [
      'a string field holding a map',
      { metadata: { name: { b: [1, 'x', null] } } },
      ConfigMapSchema,
      '.metadata.name: expected string, got &value.valueUnstructured{Value:map[string]interface {}{"b":[]interface {}{1, "x", interface {}(nil)}}}',
    ],
    ['a numeric field holding a string', { spec: { leaseDurationSeconds: '15' } }, LeaseSchema, '.spec.leaseDurationSeconds: expected numeric (int or float), got string'],
    ['a numeric field holding a list', { spec: { leaseTransitions: [] } }, LeaseSchema, '.spec.leaseTransitions: expected numeric (int or float), got []interface {}'],
    ['a boolean field holding a string', { automountServiceAccountToken: 'yes' }, ServiceAccountSchema, '.automountServiceAccountToken: expected boolean, got &{yes}'],
    // lists and maps of the wrong shape
    ['a list holding a string', { secrets: 'x' }, ServiceAccountSchema, '.secrets: expected list, got &{x}'],
    ['a map holding a list', { data: ['a'] }, ConfigMapSchema, '.data: expected map, got &{[a]}'],
    ['an atomic list item of the wrong type', { imagePullSecrets: [{ name: 'p' }, 5] }, ServiceAccountSchema, '.imagePullSecrets[1]: expected map, got &{5}'],
    // associative lists: items must name themselves
    ['a list-map item that is not a map', { secrets: [{ name: 'a' }, 5] }, ServiceAccountSchema, '.secrets: element 1: associative list with keys may not have non-map elements'],
    ['a null list-map item', { secrets: [null] }, ServiceAccountSchema, '.secrets: element 0: associative list with keys may not have a null element'],
    [
      'a list-map item without its key',
      { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o' }] } },
      ConfigMapSchema,
      '.metadata.ownerReferences: element 0: associative list with keys has an element that omits key field "uid" (and doesn\'t have default value)',
    ],
    ['a repeated list-map key', { secrets: [{ name: 'a' }, { name: 'a', namespace: 'x' }] }, ServiceAccountSchema, '.secrets: duplicate entries for key [name="a"]'],
    ['a set item that is a map', { metadata: { finalizers: [{}] } }, ConfigMapSchema, ".metadata.finalizers: element 0: associative list without keys has an element that's a map type"],
    ['a set item that is a list', { metadata: { finalizers: [['x']] } }, ConfigMapSchema, '.metadata.finalizers: element 0: not supported: associative list with lists as elements'],
    ['a null set item', { metadata: { finalizers: ['a', null] } }, ConfigMapSchema, ".metadata.finalizers: element 1: associative list without keys has an element that's an explicit null"],
    ['a repeated set item', { metadata: { finalizers: ['a', 'a'] } }, ConfigMapSchema, '.metadata.finalizers: duplicate entries for key [="a"]'],
    ['an item of a keyed list, wrong inside', { secrets: [{ name: 'a', uid: 5 }] }, ServiceAccountSchema, '.secrets[name="a"].uid: expected string, got &value.valueUnstructured{Value:5}'],
    // undeclared fields: the first one of a struct ends its walk
    ['an undeclared field', { spec: { foo: 1, bar: 2 } }, LeaseSchema, '.spec.foo: field not declared in schema'],
    [
      'several errors',
      { metadata: { name: 5, labels: { a: true } }, data: 'x' },
      ConfigMapSchema,
      'errors:\n  .metadata.name: expected string, got &value.valueUnstructured{Value:5}\n  .metadata.labels.a: expected string, got &value.valueUnstructured{Value:true}\n  .data: expected map, got &{x}',
    ],
  ])('%s', (_name, obj, schema, want) => {
    expect(text(obj, schema)).toBe(want);
  });

  test.each<[string, JsonValue, ObjectSchema]>([
    ['null is every type\'s empty value', { metadata: null, data: null, binaryData: null, immutable: null }, ConfigMapSchema],
    ['null scalars and lists', { spec: { holderIdentity: null, leaseDurationSeconds: null } }, LeaseSchema],
    ['a key field present with null names the item', { secrets: [{ name: null }] }, ServiceAccountSchema],
    ['a float where an int is declared (numeric)', { spec: { leaseDurationSeconds: 0.5 } }, LeaseSchema],
    ['free-form values are not looked into', { metadata: { managedFields: [{ manager: 'm', fieldsV1: { x: [1, { y: null }] } }] } }, ConfigMapSchema],
  ])('accepted: %s', (_name, obj, schema) => {
    expect(typedValidationErrors(obj, schema)).toEqual([]);
  });

  test('a live object may repeat list-map keys (AllowDuplicates), a configuration may not', () => {
    const sa = { secrets: [{ name: 'a' }, { name: 'a' }] };
    expect(typedValidationErrors(sa, ServiceAccountSchema, { allowDuplicates: true })).toEqual([]);
    expect(text(sa, ServiceAccountSchema)).toBe('.secrets: duplicate entries for key [name="a"]');
  });
});

describe('typed validation of custom-resource schemas', () => {
  const Free = defineObject({ name: 'com.example.v1.W.spec', unstructured: true, preserveUnknownFields: true, fields: { n: s.int64() } });
  const Strict = defineObject({ name: 'com.example.v1.W.status', unstructured: true, fields: { n: s.int64() } });
  const W = defineObject({
    name: 'com.example.v1.W',
    unstructured: true,
    fields: { spec: s.object(() => Free), status: s.object(() => Strict), ratio: s.number(), port: s.intOrString() },
  });

  test.each<[string, JsonValue, string]>([
    ['undeclared fields under preserve-unknown-fields', { spec: { n: 1, x: { y: [1] } } }, ''],
    ['undeclared fields elsewhere', { status: { x: 1 } }, '.status.x: field not declared in schema'],
    ['a number field', { ratio: 0.5 }, ''],
    ['a number field holding a string', { ratio: 'x' }, '.ratio: expected numeric (int or float), got string'],
    ['int-or-string holding either', { port: 'http' }, ''],
    ['int-or-string holding a bool', { port: true }, '.port: expected numeric (int or float) or string, got bool'],
  ])('%s', (_name, obj, want) => {
    const errs = typedValidationErrors(obj, W);
    expect(errs.length ? typedValidationText(errs) : '').toBe(want);
  });
});
