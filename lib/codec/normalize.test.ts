import { CertificateSigningRequestSchema } from '../api/certificates/certificateSigningRequest';
import { NamespaceSchema } from '../api/core/namespace';
import { ServiceAccountSchema } from '../api/core/serviceaccount';
import { StatusSchema } from '../api/meta';
import type { ObjectSchema } from '../api/schema';
import { emissionOrder, normalize } from './normalize';

const json = (o: object, s: ObjectSchema): string => JSON.stringify(normalize(o, s));

describe('normalize', () => {
  it.each<[string, object, ObjectSchema, string]>([
    [
      'CSR: kind first, struct fields always present, empties dropped',
      { apiVersion: 'certificates.svc.io/v1', kind: 'CertificateSigningRequest', spec: { signerName: 'a/b', request: 'UEVN', usages: [], username: '' }, metadata: { name: 'x', labels: {}, uid: '' }, extra: 1 },
      CertificateSigningRequestSchema,
      '{"kind":"CertificateSigningRequest","apiVersion":"certificates.svc.io/v1","metadata":{"name":"x"},"spec":{"request":"UEVN","signerName":"a/b"},"status":{}}',
    ],
    [
      'required fields emitted as zero values',
      { spec: {} },
      CertificateSigningRequestSchema,
      '{"metadata":{},"spec":{"request":null,"signerName":""},"status":{}}',
    ],
    [
      'false and 0 on optional scalars survive (pointers upstream)',
      { automountServiceAccountToken: false, metadata: { name: 's', generation: 0, deletionGracePeriodSeconds: 0 } },
      ServiceAccountSchema,
      '{"metadata":{"name":"s","deletionGracePeriodSeconds":0},"automountServiceAccountToken":false}',
    ],
    [
      'map keys sorted, list items keep order, unknown nested fields dropped',
      { metadata: { labels: { b: '1', a: '2', B: '3' }, finalizers: ['z', 'a'], ownerReferences: [{ uid: 'u', kind: 'K', x: 1 }] }, status: { phase: 'Active' } },
      NamespaceSchema,
      '{"metadata":{"labels":{"B":"3","a":"2","b":"1"},"ownerReferences":[{"apiVersion":"","kind":"K","name":"","uid":"u"}],"finalizers":["z","a"]},"spec":{},"status":{"phase":"Active"}}',
    ],
    [
      'times canonical, bytes base64',
      { metadata: { creationTimestamp: '2024-01-10T09:00:00.123+01:00' }, spec: { request: Buffer.from('PEM'), signerName: 's' } },
      CertificateSigningRequestSchema,
      '{"metadata":{"creationTimestamp":"2024-01-10T08:00:00Z"},"spec":{"request":"UEVN","signerName":"s"},"status":{}}',
    ],
    [
      'Status: metadata always, code 0 dropped',
      { kind: 'Status', apiVersion: 'v1', status: 'Success', code: 0, details: { retryAfterSeconds: 0 } },
      StatusSchema,
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{}}',
    ],
    [
      'null list items and map values stay null',
      { spec: { request: 'UEVN', signerName: 's', extra: { k: null, a: ['x'] } } },
      CertificateSigningRequestSchema,
      '{"metadata":{},"spec":{"request":"UEVN","signerName":"s","extra":{"a":["x"],"k":null}},"status":{}}',
    ],
  ])('%s', (_n, input, schema, out) => expect(json(input, schema)).toBe(out));

  it('does not mutate its input', () => {
    const input = { metadata: { labels: { b: '1', a: '2' } } };
    normalize(input, NamespaceSchema);
    expect(Object.keys(input.metadata.labels)).toEqual(['b', 'a']);
  });

  it.each<[ObjectSchema, string[]]>([
    [NamespaceSchema, ['kind', 'apiVersion', 'metadata', 'spec', 'status']],
    [StatusSchema, ['kind', 'apiVersion', 'metadata', 'status', 'message', 'reason', 'details', 'code']],
  ])('emission order of %#', (schema, order) => expect(emissionOrder(schema)).toEqual(order));
});
