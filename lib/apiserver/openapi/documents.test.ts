import { certificatesigningrequests } from '../../api/certificates/certificateSigningRequest';
import { namespaces } from '../../api/core/namespace';
import { serviceaccounts } from '../../api/core/serviceaccount';
import { buildOpenAPIV3, buildSwaggerV2 } from './documents';
import { toValidOperationId } from './routes';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test-only access into documents
const resources = [namespaces, serviceaccounts, certificatesigningrequests];
const v2 = buildSwaggerV2(resources, { deleteReturnsObject: (r) => r.resource === 'serviceaccounts' }) as Json;
const v3 = buildOpenAPIV3(resources);
const csrDoc = v3.get('apis/certificates.svc.io/v1') as Json;
const coreDoc = v3.get('api/v1') as Json;

describe('operations (v2)', () => {
  const cases: Array<[string, string, string, string, string]> = [
    // path, method, operationId, action, kind
    ['/api/v1/namespaces', 'get', 'listCoreV1Namespace', 'list', 'Namespace'],
    ['/api/v1/namespaces', 'post', 'createCoreV1Namespace', 'post', 'Namespace'],
    ['/api/v1/namespaces/{name}', 'get', 'readCoreV1Namespace', 'get', 'Namespace'],
    ['/api/v1/namespaces/{name}', 'delete', 'deleteCoreV1Namespace', 'delete', 'Namespace'],
    ['/api/v1/namespaces/{name}/finalize', 'put', 'replaceCoreV1NamespaceFinalize', 'put', 'Namespace'],
    ['/api/v1/namespaces/{name}/status', 'patch', 'patchCoreV1NamespaceStatus', 'patch', 'Namespace'],
    ['/api/v1/namespaces/{namespace}/serviceaccounts', 'get', 'listCoreV1NamespacedServiceAccount', 'list', 'ServiceAccount'],
    ['/api/v1/namespaces/{namespace}/serviceaccounts', 'delete', 'deleteCoreV1CollectionNamespacedServiceAccount', 'deletecollection', 'ServiceAccount'],
    ['/api/v1/namespaces/{namespace}/serviceaccounts/{name}', 'patch', 'patchCoreV1NamespacedServiceAccount', 'patch', 'ServiceAccount'],
    ['/api/v1/serviceaccounts', 'get', 'listCoreV1ServiceAccountForAllNamespaces', 'list', 'ServiceAccount'],
    ['/apis/certificates.svc.io/v1/certificatesigningrequests/{name}/approval', 'put', 'replaceCertificatesV1CertificateSigningRequestApproval', 'put', 'CertificateSigningRequest'],
    ['/apis/certificates.svc.io/v1/certificatesigningrequests', 'delete', 'deleteCertificatesV1CollectionCertificateSigningRequest', 'deletecollection', 'CertificateSigningRequest'],
  ];
  it.each(cases)('%s %s', (path, method, opId, action, kind) => {
    const op = v2.paths[path][method];
    expect(op.operationId).toBe(opId);
    expect(op['x-kubernetes-action']).toBe(action);
    expect(op['x-kubernetes-group-version-kind'].kind).toBe(kind);
    expect(op.responses['401']).toEqual({ description: 'Unauthorized' });
  });

  it('has no operation for an unserved verb', () => {
    expect(v2.paths['/api/v1/namespaces'].delete).toBeUndefined(); // namespaces have no deletecollection
    expect(v2.paths['/api/v1/namespaces/{name}/finalize'].get).toBeUndefined();
  });

  it.each([
    ['post', '/apis/certificates.svc.io/v1/certificatesigningrequests', ['body', 'dryRun', 'fieldManager', 'fieldValidation']],
    ['patch', '/apis/certificates.svc.io/v1/certificatesigningrequests/{name}', ['body', 'dryRun', 'fieldManager', 'fieldValidation', 'force']],
    ['get', '/apis/certificates.svc.io/v1/certificatesigningrequests', ['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch']],
  ])('%s %s parameters', (method, path, names) => {
    expect(v2.paths[path][method].parameters.map((p: Json) => p.name)).toEqual(names);
    expect(v2.paths[path].parameters.map((p: Json) => p.name)).toEqual(path.endsWith('{name}') ? ['name', 'pretty'] : ['pretty']);
  });

  it('documents bodies, responses and media types', () => {
    const patch = v2.paths['/apis/certificates.svc.io/v1/certificatesigningrequests/{name}'].patch;
    expect(patch.parameters[0]).toEqual({ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/io.svc.apimachinery.pkg.apis.meta.v1.Patch' } });
    expect(patch.consumes).toContain('application/apply-patch+yaml');
    const list = v2.paths['/api/v1/namespaces'].get;
    expect(list.produces).toContain('application/json;stream=watch');
    expect(list.responses['200'].schema.$ref).toBe('#/definitions/io.svc.api.core.v1.NamespaceList');
    expect(v2.paths['/api/v1/namespaces/{namespace}/serviceaccounts/{name}'].delete.responses['200'].schema.$ref).toBe(
      '#/definitions/io.svc.api.core.v1.ServiceAccount',
    );
    expect(v2.paths['/api/v1/namespaces/{name}'].delete.responses['200'].schema.$ref).toBe('#/definitions/io.svc.apimachinery.pkg.apis.meta.v1.Status');
    expect(v2.paths['/api/v1/namespaces/{namespace}/serviceaccounts/{name}'].parameters.map((p: Json) => [p.name, p.in, p.required])).toEqual([
      ['name', 'path', true],
      ['namespace', 'path', true],
      ['pretty', 'query', undefined],
    ]);
  });
});

describe('definitions', () => {
  it.each([
    ['io.svc.api.certificates.v1.CertificateSigningRequest', [{ group: 'certificates.svc.io', kind: 'CertificateSigningRequest', version: 'v1' }]],
    ['io.svc.api.certificates.v1.CertificateSigningRequestList', [{ group: 'certificates.svc.io', kind: 'CertificateSigningRequestList', version: 'v1' }]],
    ['io.svc.api.core.v1.Namespace', [{ group: '', kind: 'Namespace', version: 'v1' }]],
    ['io.svc.apimachinery.pkg.apis.meta.v1.Status', [{ group: '', kind: 'Status', version: 'v1' }]],
    [
      'io.svc.apimachinery.pkg.apis.meta.v1.DeleteOptions',
      [
        { group: '', kind: 'DeleteOptions', version: 'v1' },
        { group: 'certificates.svc.io', kind: 'DeleteOptions', version: 'v1' },
      ],
    ],
    ['io.svc.apimachinery.pkg.apis.meta.v1.ObjectMeta', undefined],
  ])('%s group-version-kinds', (name, gvks) => {
    expect(v2.definitions[name]['x-kubernetes-group-version-kind']).toEqual(gvks);
  });

  it.each([
    ['io.svc.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'ownerReferences', { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['uid'], 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'uid' }],
    ['io.svc.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'finalizers', { 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge' }],
    ['io.svc.api.certificates.v1.CertificateSigningRequestSpec', 'usages', { 'x-kubernetes-list-type': 'atomic' }],
    ['io.svc.api.certificates.v1.CertificateSigningRequestSpec', 'request', { type: 'string', format: 'byte' }],
    ['io.svc.api.certificates.v1.CertificateSigningRequestSpec', 'expirationSeconds', { type: 'integer', format: 'int32' }],
    ['io.svc.api.certificates.v1.CertificateSigningRequestSpec', 'extra', { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }],
    ['io.svc.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'creationTimestamp', { type: 'string', format: 'date-time' }],
  ])('%s.%s', (def, field, expected) => {
    expect(v2.definitions[def].properties[field]).toMatchObject(expected);
  });

  it('lists required fields in declaration order and enum values', () => {
    expect(v2.definitions['io.svc.api.certificates.v1.CertificateSigningRequestSpec'].required).toEqual(['request', 'signerName']);
    expect(v2.definitions['io.svc.api.core.v1.NamespaceStatus'].properties.phase.enum).toEqual(['Active', 'Terminating']);
  });

  it('v2 keeps $ref beside a description; v3 wraps it in allOf', () => {
    expect(v2.definitions['io.svc.api.core.v1.Namespace'].properties.spec).toEqual({
      $ref: '#/definitions/io.svc.api.core.v1.NamespaceSpec',
      description: 'Spec defines the behavior of the Namespace.',
    });
    expect(coreDoc.components.schemas['io.svc.api.core.v1.Namespace'].properties.spec).toEqual({
      allOf: [{ $ref: '#/components/schemas/io.svc.api.core.v1.NamespaceSpec' }],
      description: 'Spec defines the behavior of the Namespace.',
    });
  });
});

describe('v3 documents', () => {
  it('has one document per group-version, each with only its own paths', () => {
    expect([...v3.keys()]).toEqual(['api/v1', 'apis/certificates.svc.io/v1']);
    expect(Object.keys(csrDoc.paths).every((p) => p.startsWith('/apis/certificates.svc.io/v1/'))).toBe(true);
    expect(Object.keys(coreDoc.paths).every((p) => p.startsWith('/api/v1/'))).toBe(true);
    expect(csrDoc.openapi).toBe('3.0.0');
    expect(csrDoc.components.schemas['io.svc.api.core.v1.Namespace']).toBeUndefined();
  });

  it('puts query parameters inline with a schema, request bodies per media type', () => {
    const patch = csrDoc.paths['/apis/certificates.svc.io/v1/certificatesigningrequests/{name}/status'].patch;
    expect(patch.parameters.find((p: Json) => p.name === 'fieldValidation')).toMatchObject({ in: 'query', schema: { type: 'string', uniqueItems: true } });
    expect(Object.keys(patch.requestBody.content)).toEqual([
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
    ]);
    expect(patch.requestBody.required).toBe(true);
    expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: 'certificates.svc.io', kind: 'CertificateSigningRequest', version: 'v1' });
    const del = csrDoc.paths['/apis/certificates.svc.io/v1/certificatesigningrequests/{name}'].delete;
    expect(del.requestBody.required).toBeUndefined();
  });
});

describe('toValidOperationId', () => {
  it.each([
    ['certificates', true, 'Certificates'],
    ['rbac.authorization', true, 'RbacAuthorization'],
    ['rbac.authorization', false, 'rbacAuthorization'],
    ['v1beta1', true, 'V1beta1'],
    ['namespacedServiceAccount', true, 'NamespacedServiceAccount'],
  ])('%s (%s) → %s', (s, cap, out) => expect(toValidOperationId(s, cap)).toBe(out));
});

// Upstream's installer lists the serializers the server has: CBOR only with CBORServingAndStorage.
describe('media types with and without CBOR', () => {
  const ops = (doc: Json) => (doc.paths as Json)['/api/v1/namespaces/{namespace}/serviceaccounts'] as Json;
  const named = (doc: Json) => (doc.paths as Json)['/api/v1/namespaces/{namespace}/serviceaccounts/{name}'] as Json;
  it.each<[string, boolean, string[], string[], string[]]>([
    [
      'gate off',
      false,
      ['application/json', 'application/yaml', 'application/vnd.svc.protobuf', 'application/json;stream=watch', 'application/vnd.svc.protobuf;stream=watch'],
      ['application/json', 'application/yaml', 'application/vnd.svc.protobuf'],
      ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'],
    ],
    [
      'gate on',
      true,
      ['application/json', 'application/yaml', 'application/vnd.svc.protobuf', 'application/cbor', 'application/json;stream=watch', 'application/vnd.svc.protobuf;stream=watch', 'application/cbor-seq'],
      ['application/json', 'application/yaml', 'application/vnd.svc.protobuf', 'application/cbor'],
      ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml', 'application/apply-patch+cbor'],
    ],
  ])('%s', (_n, cbor, list, get, patch) => {
    const doc = buildSwaggerV2(resources, { cbor }) as Json;
    expect((ops(doc).get as Json).produces).toEqual(list);
    expect((named(doc).get as Json).produces).toEqual(get);
    expect((named(doc).patch as Json).consumes).toEqual(patch);
  });
});
