import type { CustomResourceDefinition } from '../../api/apiextensions';
import { defineObject } from '../../api';
import { customResourceInfo } from './resourceInfo';

const schema = defineObject({ name: 'x', fields: {} });
type Version = NonNullable<NonNullable<CustomResourceDefinition['spec']>['versions']>[number];
const crd = (versions: Version[], deletionTimestamp?: string): CustomResourceDefinition => ({
  metadata: { name: 'things.example.com', ...(deletionTimestamp ? { deletionTimestamp } : {}) },
  spec: { group: 'example.com', scope: 'Cluster', names: { plural: 'things', kind: 'Thing' }, versions },
  status: { acceptedNames: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList', shortNames: ['th'], categories: ['all'] } },
});

describe('customResourceInfo', () => {
  test('the accepted names, scope, storage path and storage version; /status and /scale when enabled', () => {
    const info = customResourceInfo(
      crd([
        { name: 'v1', served: true, storage: true },
        { name: 'v2', served: true, storage: false, subresources: { status: {}, scale: { specReplicasPath: '.spec.r', statusReplicasPath: '.status.r' } } },
      ]),
      'v2',
      schema,
    );
    expect(info).toMatchObject({ group: 'example.com', version: 'v2', kind: 'Thing', listKind: 'ThingList', resource: 'things', singular: 'thing', shortNames: ['th'], categories: ['all'] });
    expect([info.namespaced, info.storagePath, info.storageVersion, info.unstructured]).toEqual([false, 'example.com/things', 'v1', true]);
    expect(info.subresources.map((s) => s.name)).toEqual(['status', 'scale']);
  });

  test('a terminating CRD offers no create, update or patch', () => {
    const info = customResourceInfo(crd([{ name: 'v1', served: true, storage: true }], '2026-01-01T00:00:00Z'), 'v1', schema);
    expect([...info.verbs].sort()).toEqual(['delete', 'deletecollection', 'get', 'list', 'watch']);
  });

  // §4.2: the text given, else the default naming the highest better served version.
  test.each<[string, Version[], string | undefined]>([
    ['not deprecated', [{ name: 'v1beta1', served: true, storage: true }], undefined],
    ['deprecated, nothing better', [{ name: 'v1beta1', served: true, storage: true, deprecated: true }], 'example.com/v1beta1 Thing is deprecated'],
    [
      'deprecated, GA served',
      [
        { name: 'v1beta1', served: true, storage: true, deprecated: true },
        { name: 'v1', served: true, storage: false },
        { name: 'v2', served: true, storage: false },
        { name: 'v3', served: false, storage: false },
        { name: 'v4', served: true, storage: false, deprecated: true },
      ],
      'example.com/v1beta1 Thing is deprecated; use example.com/v2 Thing',
    ],
    ['its own text', [{ name: 'v1beta1', served: true, storage: true, deprecated: true, deprecationWarning: 'go away' }], 'go away'],
    [
      'a better version only if it sorts higher',
      [
        { name: 'v1', served: true, storage: true, deprecated: true },
        { name: 'v2alpha1', served: true, storage: false },
      ],
      'example.com/v1 Thing is deprecated',
    ],
  ])('deprecation warning: %s', (_n, versions, warning) => {
    expect(customResourceInfo(crd(versions), versions[0].name!, schema).deprecationWarning).toBe(warning);
  });
});
