import { certificatesigningrequests, configmaps } from '../api';
import { isApiError } from '../machinery/errors';
import { asPartialObjectMetadata, internalGoType, type PartialTarget } from './partialObjectMetadata';

const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'n', labels: { x: 'y' } }, data: { k: 'v' } };
const list = { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '7', continue: 'c', remainingItemCount: 3 }, items: [cm] };
const single: PartialTarget = { kind: 'PartialObjectMetadata', group: 'meta.k8s.io', version: 'v1' };
const many: PartialTarget = { kind: 'PartialObjectMetadataList', group: 'meta.svc.io', version: 'v1beta1' };

function notAcceptable(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (isApiError(e) && e.code === 406) return e.status.message ?? '';
    throw e;
  }
  throw new Error('no error');
}

describe('asPartialObjectMetadata (handlers/response.go)', () => {
  test('an object becomes its metadata under the asked group and version', () => {
    expect(asPartialObjectMetadata(cm, single, configmaps)).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: cm.metadata });
  });

  test('an object without metadata still carries "metadata": {} (a struct in Go)', () => {
    expect(asPartialObjectMetadata({ apiVersion: 'v1', kind: 'ConfigMap' }, single, configmaps)).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: {} });
  });

  test('a list keeps resourceVersion, continue and remainingItemCount; its items are typed', () => {
    expect(asPartialObjectMetadata(list, many, configmaps)).toEqual({
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.svc.io/v1beta1',
      metadata: { resourceVersion: '7', continue: 'c', remainingItemCount: 3 },
      items: [{ kind: 'PartialObjectMetadata', apiVersion: 'meta.svc.io/v1beta1', metadata: cm.metadata }],
    });
  });

  test('an empty list has "items": null (appended to a nil slice upstream)', () => {
    expect(asPartialObjectMetadata({ ...list, metadata: {}, items: [] }, many, configmaps)).toEqual({ kind: 'PartialObjectMetadataList', apiVersion: 'meta.svc.io/v1beta1', metadata: {}, items: null });
  });

  test('a Status passes unchanged', () => {
    const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' as const };
    expect(asPartialObjectMetadata(status, single, configmaps)).toBe(status);
  });

  test.each([
    [single, list, 'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)'],
    [many, cm, 'you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)'],
  ])('the wrong form is a 406: %p', (target, value, message) => {
    expect(notAcceptable(() => asPartialObjectMetadata(value, target as PartialTarget, configmaps))).toBe(message);
  });

  test.each([
    [configmaps, 'ConfigMap', '*core.ConfigMap'],
    [certificatesigningrequests, 'CertificateSigningRequestList', '*certificates.CertificateSigningRequestList'],
  ])('internal Go type names: %#', (info, kind, want) => {
    expect(internalGoType(info, kind)).toBe(want);
  });
});
