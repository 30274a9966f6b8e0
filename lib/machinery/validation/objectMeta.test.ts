import type { ObjectMeta } from '../../api/meta';
import { renderFieldError } from '../fieldErrors';
import { nameIsDNSLabel, nameIsDNSSubdomain, validatePathSegmentName } from './names';
import { ObjectMetaCreateRules, validateObjectMeta, validateObjectMetaUpdate } from './objectMeta';

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const labelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const qualifiedNamePart =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const labelValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const sa: ObjectMetaCreateRules = { namespaced: true, nameFn: nameIsDNSSubdomain };
const ns: ObjectMetaCreateRules = { namespaced: false, nameFn: nameIsDNSLabel };
const csr: ObjectMetaCreateRules = { namespaced: false, nameFn: validatePathSegmentName };

describe('validateObjectMeta (create)', () => {
  test.each<[string, ObjectMeta | undefined, ObjectMetaCreateRules, string[]]>([
    ['valid namespaced', { name: 'a', namespace: 'team-a' }, sa, []],
    ['valid cluster-scoped', { name: 'a' }, ns, []],
    ['no metadata', undefined, ns, ['metadata.name: Required value: name or generateName is required']],
    ['missing name', { namespace: 'n' }, sa, ['metadata.name: Required value: name or generateName is required']],
    ['bad subdomain name', { name: 'A_b', namespace: 'n' }, sa, [`metadata.name: Invalid value: "A_b": ${subdomainMsg}`]],
    ['namespace name too long', { name: 'a'.repeat(64) }, ns, [`metadata.name: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`]],
    ['path segment name', { name: 'a%b' }, csr, [`metadata.name: Invalid value: "a%b": may not contain '%'`]],
    ['bad generateName', { name: 'x', generateName: 'Bad_', namespace: 'n' }, sa, [`metadata.generateName: Invalid value: "Bad_": ${subdomainMsg}`]],
    ['generateName with trailing dash is fine', { name: 'pre-x1', generateName: 'pre-', namespace: 'n' }, sa, []],
    ['namespace required', { name: 'a' }, sa, ['metadata.namespace: Required value']],
    ['namespace forbidden', { name: 'a', namespace: 'n' }, ns, ['metadata.namespace: Forbidden: not allowed on this type']],
    ['bad namespace', { name: 'a', namespace: 'Team' }, sa, [`metadata.namespace: Invalid value: "Team": ${labelMsg}`]],
    ['negative generation', { name: 'a', generation: -1 }, ns, ['metadata.generation: Invalid value: -1: must be greater than or equal to 0']],
    [
      'labels',
      { name: 'a', labels: { '-k': 'v', ok: 'b c' } },
      ns,
      [`metadata.labels: Invalid value: "-k": ${qualifiedNamePart}`, `metadata.labels: Invalid value: "b c": ${labelValueMsg}`],
    ],
    ['annotation keys are case-insensitive', { name: 'a', annotations: { 'Example.COM/Foo': 'x' } }, ns, []],
    ['bad annotation key', { name: 'a', annotations: { 'a b': 'x' } }, ns, [`metadata.annotations: Invalid value: "a b": ${qualifiedNamePart}`]],
    ['annotations exactly at the limit', { name: 'a', annotations: { k: 'v'.repeat(262143) } }, ns, []],
    ['annotations over the limit', { name: 'a', annotations: { k: 'v'.repeat(262144) } }, ns, ['metadata.annotations: Too long: may not be more than 262144 bytes']],
    [
      'empty owner reference',
      { name: 'a', ownerReferences: [{}] },
      ns,
      [
        'metadata.ownerReferences[0].apiVersion: Required value: must not be empty',
        'metadata.ownerReferences[0].kind: Required value: must not be empty',
        'metadata.ownerReferences[0].name: Required value: must not be empty',
        'metadata.ownerReferences[0].uid: Required value: must not be empty',
      ],
    ],
    [
      'bad owner apiVersion',
      { name: 'a', ownerReferences: [{ apiVersion: 'a/b/c', kind: 'K', name: 'n', uid: 'u' }] },
      ns,
      ['metadata.ownerReferences[0].apiVersion: Invalid value: "a/b/c": must be <group>/<version> or <version>'],
    ],
    [
      'Event owner',
      { name: 'a', ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'n', uid: 'u' }] },
      ns,
      ['metadata.ownerReferences[0]: Invalid value: {"apiVersion":"v1","kind":"Event","name":"n","uid":"u"}: /v1, Kind=Event is disallowed from being an owner'],
    ],
    [
      'two controllers',
      {
        name: 'a',
        ownerReferences: [
          { apiVersion: 'v1', kind: 'K', name: 'x', uid: '1', controller: true },
          { apiVersion: 'v1', kind: 'K', name: 'y', uid: '2', controller: true },
        ],
      },
      ns,
      [
        'metadata.ownerReferences: Invalid value: [{"apiVersion":"v1","kind":"K","name":"x","uid":"1","controller":true},{"apiVersion":"v1","kind":"K","name":"y","uid":"2","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for K/x and K/y',
      ],
    ],
    ['standard and qualified finalizers', { name: 'a', finalizers: ['svc', 'orphan', 'example.com/x'] }, ns, []],
    [
      'orphan and foregroundDeletion',
      { name: 'a', finalizers: ['orphan', 'foregroundDeletion'] },
      ns,
      ['metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set'],
    ],
    [
      'bad finalizer',
      { name: 'a', finalizers: ['a b'] },
      ns,
      [
        `metadata.finalizers: Invalid value: "a b": ${qualifiedNamePart}`,
        'metadata.finalizers[0]: Invalid value: "a b": name is neither a standard finalizer name nor is it fully qualified',
      ],
    ],
    ['unqualified finalizer', { name: 'a', finalizers: ['x', 'kubernetes'] }, ns, [
      'metadata.finalizers[0]: Invalid value: "x": name is neither a standard finalizer name nor is it fully qualified',
      'metadata.finalizers[1]: Invalid value: "kubernetes": name is neither a standard finalizer name nor is it fully qualified',
    ]],
    ['core finalizer rule can be switched off', { name: 'a', finalizers: ['x'] }, { ...ns, standardFinalizers: false }, []],
    [
      'managedFields',
      {
        name: 'a',
        managedFields: [
          { manager: 'm', operation: 'Update', fieldsType: 'FieldsV1' },
          { manager: 'a\u0007', operation: 'Foo', fieldsType: 'FieldsV2' },
          { manager: 'x'.repeat(129), subresource: 's'.repeat(257) },
        ],
      },
      ns,
      [
        'metadata.managedFields[1].operation: Unsupported value: "Foo": supported values: "Apply", "Update"',
        'metadata.managedFields[1].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
        'metadata.managedFields[1].manager: Invalid value: "a\\a": invalid character U+0007 (at position 1)',
        'metadata.managedFields[2].operation: Required value: must not be empty',
        'metadata.managedFields[2].manager: Too long: may not be more than 128 bytes',
        'metadata.managedFields[2].subresource: Too long: may not be more than 256 bytes',
      ],
    ],
  ])('%s', (_name, meta, rules, want) => {
    expect(validateObjectMeta(meta, rules).map(renderFieldError)).toEqual(want);
  });
});

const stored: ObjectMeta = {
  name: 'a',
  namespace: 'n',
  uid: 'u1',
  resourceVersion: '10',
  generation: 2,
  creationTimestamp: '2026-01-10T08:00:00Z',
  finalizers: ['example.com/a'],
};

describe('validateObjectMetaUpdate', () => {
  test.each<[string, ObjectMeta, ObjectMeta, string[]]>([
    ['unchanged', { ...stored }, stored, []],
    ['labels may change', { ...stored, labels: { a: 'b' } }, stored, []],
    ['same instant, other spelling', { ...stored, creationTimestamp: '2026-01-10T08:00:00.000+00:00' }, stored, []],
    ['missing resourceVersion is the store\'s business by default', { ...stored, resourceVersion: undefined }, stored, []],
    ['generation decremented', { ...stored, generation: 1 }, stored, ['metadata.generation: Invalid value: 1: must not be decremented']],
    ['generation dropped', { ...stored, generation: undefined }, stored, ['metadata.generation: Invalid value: 0: must not be decremented']],
    ['name', { ...stored, name: 'b' }, stored, ['metadata.name: Invalid value: "b": field is immutable']],
    ['namespace', { ...stored, namespace: 'm' }, stored, ['metadata.namespace: Invalid value: "m": field is immutable']],
    ['uid', { ...stored, uid: 'u2' }, stored, ['metadata.uid: Invalid value: "u2": field is immutable']],
    ['creationTimestamp', { ...stored, creationTimestamp: '2026-01-10T09:00:00Z' }, stored,
      ['metadata.creationTimestamp: Invalid value: "2026-01-10T09:00:00Z": field is immutable']],
    ['deletionTimestamp set', { ...stored, deletionTimestamp: '2026-01-11T00:00:00Z' }, stored,
      ['metadata.deletionTimestamp: Invalid value: "2026-01-11T00:00:00Z": field is immutable']],
    ['deletionTimestamp cleared', { ...stored }, { ...stored, deletionTimestamp: '2026-01-11T00:00:00Z' },
      ['metadata.deletionTimestamp: Invalid value: null: field is immutable']],
    ['deletionGracePeriodSeconds', { ...stored, deletionGracePeriodSeconds: 0 }, { ...stored, deletionGracePeriodSeconds: 30 },
      ['metadata.deletionGracePeriodSeconds: Invalid value: 0: field is immutable']],
    [
      'new finalizers while deleting',
      { ...stored, deletionTimestamp: 'T', finalizers: ['example.com/c', 'example.com/a', 'example.com/b'] },
      { ...stored, deletionTimestamp: 'T' },
      ['metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/b", "example.com/c"}'],
    ],
    ['removing finalizers while deleting', { ...stored, deletionTimestamp: 'T', finalizers: [] }, { ...stored, deletionTimestamp: 'T' }, []],
    ['bad label', { ...stored, labels: { k: '-' } }, stored, [`metadata.labels: Invalid value: "-": ${labelValueMsg}`]],
    ['unqualified finalizer', { ...stored, finalizers: ['x'] }, stored,
      ['metadata.finalizers[0]: Invalid value: "x": name is neither a standard finalizer name nor is it fully qualified']],
    ['orphan+foreground is not checked on update', { ...stored, finalizers: ['orphan', 'foregroundDeletion'] }, stored, []],
  ])('%s', (_name, next, old, want) => {
    expect(validateObjectMetaUpdate(next, old).map(renderFieldError)).toEqual(want);
  });

  test('requireResourceVersion reports an empty resourceVersion', () => {
    expect(validateObjectMetaUpdate({ ...stored, resourceVersion: '' }, stored, { requireResourceVersion: true }).map(renderFieldError)).toEqual([
      'metadata.resourceVersion: Invalid value: "": must be specified for an update',
    ]);
  });
});
