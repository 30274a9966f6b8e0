import type { Namespace } from '../../api';
import { namespaceConditionTypes as T } from './deletionConditions';
import { AggregateSyncError, NamespacedResourcesDeleter, ResourcesRemainingError } from './resourcesDeleter';
import { apiError, FakeApi, fakeResources as R } from './testing/fakeApi';

const now = Date.UTC(2025, 0, 1, 12, 0, 0);

function deletingNamespace(name: string, extra: Partial<Namespace> = {}): Namespace {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, deletionTimestamp: '2025-01-01T11:59:00Z' },
    spec: { finalizers: ['svc'] },
    status: { phase: 'Terminating' },
    ...extra,
  };
}

function setup(): { api: FakeApi; deleter: NamespacedResourcesDeleter } {
  const api = new FakeApi();
  return { api, deleter: new NamespacedResourcesDeleter({ client: api, now: () => now }) };
}

function seedContent(api: FakeApi, ns: string): void {
  api.seed(R.serviceaccounts, { metadata: { name: 'default', namespace: ns } });
  api.seed(R.serviceaccounts, { metadata: { name: 'builder', namespace: ns } });
  api.seed(R.widgets, { metadata: { name: 'w1', namespace: ns } });
  api.seed(R.gadgets, { metadata: { name: 'g1', namespace: ns } });
  api.seed(R.gadgets, { metadata: { name: 'g2', namespace: ns } });
}

const conditionsOf = (api: FakeApi, name: string): Record<string, string> =>
  Object.fromEntries((api.object<Namespace>(R.namespaces, name)?.status?.conditions ?? []).map((c) => [c.type, `${c.status} ${c.reason}: ${c.message}`]));

describe('NamespacedResourcesDeleter', () => {
  test('empties the namespace (deletecollection where served, else one by one), then finalizes it', async () => {
    const { api, deleter } = setup();
    api.seed(R.namespaces, deletingNamespace('doomed'));
    api.seed(R.namespaces, { metadata: { name: 'kept' }, spec: { finalizers: ['svc'] }, status: { phase: 'Active' } });
    seedContent(api, 'doomed');
    seedContent(api, 'kept');

    await deleter.delete('doomed');

    for (const r of [R.serviceaccounts, R.widgets, R.gadgets]) expect(api.names(r, 'doomed')).toEqual([]);
    expect(api.names(R.serviceaccounts, 'kept')).toEqual(['default', 'builder']);
    expect(api.names(R.gadgets, 'kept')).toEqual(['g1', 'g2']);
    // Finalizing removed the last finalizer, so the server deleted the namespace.
    expect(api.object(R.namespaces, 'doomed')).toBeUndefined();
    expect(api.calls).toEqual([
      'GET /api/v1/namespaces/doomed',
      'GET /api',
      'GET /apis',
      'GET /api/v1',
      'GET /apis/example.svc.io/v1',
      'DELETE /api/v1/namespaces/doomed/serviceaccounts',
      'GET /api/v1/namespaces/doomed/serviceaccounts',
      'DELETE /apis/example.svc.io/v1/namespaces/doomed/widgets',
      'GET /apis/example.svc.io/v1/namespaces/doomed/widgets',
      'GET /apis/example.svc.io/v1/namespaces/doomed/gadgets',
      'DELETE /apis/example.svc.io/v1/namespaces/doomed/gadgets/g1',
      'DELETE /apis/example.svc.io/v1/namespaces/doomed/gadgets/g2',
      'GET /apis/example.svc.io/v1/namespaces/doomed/gadgets',
      'PUT /api/v1/namespaces/doomed/status',
      'PUT /api/v1/namespaces/doomed/finalize',
    ]);
  });

  test('the status written before finalizing carries the five ok conditions', async () => {
    const { api, deleter } = setup();
    api.seed(R.namespaces, deletingNamespace('doomed', { spec: { finalizers: ['svc', 'zz.example/other', 'aa.example/other'] } }));
    await deleter.delete('doomed');
    const ns = api.object<Namespace>(R.namespaces, 'doomed');
    // Other finalizers stay (sorted, as upstream's set), so the namespace survives for their owners.
    expect(ns?.spec?.finalizers).toEqual(['aa.example/other', 'zz.example/other']);
    expect(conditionsOf(api, 'doomed')).toEqual({
      [T.discoveryFailure]: 'False ResourcesDiscovered: All resources successfully discovered',
      [T.groupVersionParsingFailure]: 'False ParsedGroupVersions: All legacy kube types successfully parsed',
      [T.contentFailure]: 'False ContentDeleted: All content successfully deleted, may be waiting on finalization',
      [T.contentRemaining]: 'False ContentRemoved: All content successfully removed',
      [T.finalizersRemaining]: 'False ContentRemoved: All content successfully removed',
    });
  });

  test.each<[string, Namespace | undefined, string[]]>([
    ['namespace gone', undefined, ['GET /api/v1/namespaces/x']],
    ['not being deleted', { metadata: { name: 'x' }, spec: { finalizers: ['svc'] }, status: { phase: 'Active' } }, ['GET /api/v1/namespaces/x']],
    ['already finalized (spec.finalizers empty)', deletingNamespace('x', { spec: { finalizers: [] }, metadata: { name: 'x', deletionTimestamp: '2025-01-01T11:59:00Z', finalizers: ['example.svc.io/keep'] } }), ['GET /api/v1/namespaces/x']],
  ])('nothing to do: %s', async (_n, ns, calls) => {
    const { api, deleter } = setup();
    if (ns) api.seed(R.namespaces, ns);
    await deleter.delete('x');
    expect(api.calls).toEqual(calls);
  });

  test('a deleting namespace still marked Active is set Terminating through /status first', async () => {
    const { api, deleter } = setup();
    api.seed(R.namespaces, deletingNamespace('x', { status: { phase: 'Active' } }));
    await deleter.delete('x');
    expect(api.calls.slice(0, 2)).toEqual(['GET /api/v1/namespaces/x', 'PUT /api/v1/namespaces/x/status']);
    expect(api.object(R.namespaces, 'x')).toBeUndefined();
  });

  test('items held by finalizers: content-remaining conditions, ResourcesRemainingError(15), no finalize', async () => {
    const { api, deleter } = setup();
    api.seed(R.namespaces, deletingNamespace('x'));
    api.seed(R.widgets, { metadata: { name: 'w1', namespace: 'x', finalizers: ['example.svc.io/hold'] } });
    api.seed(R.widgets, { metadata: { name: 'w2', namespace: 'x', finalizers: ['example.svc.io/hold', 'example.svc.io/also'] } });
    api.seed(R.serviceaccounts, { metadata: { name: 'default', namespace: 'x' } });

    const err = await deleter.delete('x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResourcesRemainingError);
    expect((err as ResourcesRemainingError).estimateSeconds).toBe(15);
    expect((err as Error).message).toBe('some content remains in the namespace, estimate 15 seconds before it is removed');
    expect(api.calls).not.toContain('PUT /api/v1/namespaces/x/finalize');
    expect(api.names(R.serviceaccounts, 'x')).toEqual([]);
    expect(conditionsOf(api, 'x')).toMatchObject({
      [T.contentRemaining]: 'True SomeResourcesRemain: Some resources are remaining: widgets.example.svc.io has 2 resource instances',
      [T.finalizersRemaining]: 'True SomeFinalizerRemain: Some finalizers are remaining: example.svc.io/also in 1 resource instances, example.svc.io/hold in 2 resource instances',
    });

    // Once the finalizers are gone, the next pass completes.
    for (const n of ['w1', 'w2']) {
      const w = api.object(R.widgets, n, 'x');
      await api.update(R.widgets, { ...w, metadata: { ...w?.metadata, finalizers: [] } });
    }
    await deleter.delete('x');
    expect(api.object(R.namespaces, 'x')).toBeUndefined();
  });

  test('a group that fails discovery: the rest is deleted, the condition says why, no finalize', async () => {
    const { api, deleter } = setup();
    api.seed(R.namespaces, deletingNamespace('x'));
    seedContent(api, 'x');
    api.intercept = (m, p) => (m === 'GET' && p === '/apis/example.svc.io/v1' ? apiError(503, 'ServiceUnavailable', 'the server is currently unable to handle the request') : undefined);

    await expect(deleter.delete('x')).rejects.toThrow(
      'unable to retrieve the complete list of server APIs: example.svc.io/v1: the server is currently unable to handle the request',
    );
    expect(api.names(R.serviceaccounts, 'x')).toEqual([]);
    expect(api.names(R.widgets, 'x')).toEqual(['w1']);
    expect(conditionsOf(api, 'x')[T.discoveryFailure]).toBe(
      'True DiscoveryFailed: Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: example.svc.io/v1: the server is currently unable to handle the request',
    );
    expect(api.object<Namespace>(R.namespaces, 'x')?.spec?.finalizers).toEqual(['svc']);

    api.intercept = undefined;
    await deleter.delete('x');
    expect(api.object(R.namespaces, 'x')).toBeUndefined();
  });

  test('a refused delete is collected per resource, reported in the condition and thrown', async () => {
    const { api, deleter } = setup();
    api.seed(R.namespaces, deletingNamespace('x'));
    seedContent(api, 'x');
    api.intercept = (m, p) => (m === 'DELETE' && p.includes('/gadgets/g2') ? apiError(403, 'Forbidden', 'gadgets "g2" is forbidden') : undefined);

    const err = await deleter.delete('x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AggregateSyncError);
    expect((err as Error).message).toBe('gadgets "g2" is forbidden');
    expect(api.names(R.gadgets, 'x')).toEqual(['g2']);
    expect(api.names(R.widgets, 'x')).toEqual([]);
    expect(conditionsOf(api, 'x')[T.contentFailure]).toBe('True ContentDeletionFailed: Failed to delete all resource types, 1 remaining: gadgets "g2" is forbidden');
    expect(api.calls).not.toContain('PUT /api/v1/namespaces/x/finalize');
  });

  test('deletecollection answered 405 falls back to one-by-one and is not tried again', async () => {
    const { api, deleter } = setup();
    api.intercept = (m, p) => (m === 'DELETE' && p.endsWith('/widgets') ? apiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource') : undefined);
    for (const ns of ['a', 'b']) {
      api.seed(R.namespaces, deletingNamespace(ns));
      api.seed(R.widgets, { metadata: { name: 'w1', namespace: ns } });
      await deleter.delete(ns);
      expect(api.names(R.widgets, ns)).toEqual([]);
    }
    expect(api.calls.filter((c) => /^DELETE .*\/widgets/.test(c))).toEqual([
      'DELETE /apis/example.svc.io/v1/namespaces/a/widgets',
      'DELETE /apis/example.svc.io/v1/namespaces/a/widgets/w1',
      'DELETE /apis/example.svc.io/v1/namespaces/b/widgets/w1',
    ]);
  });

  test('items that survive deletion without finalizers are an error naming the resource', async () => {
    const { api, deleter } = setup();
    api.seed(R.namespaces, deletingNamespace('x'));
    api.seed(R.gadgets, { metadata: { name: 'g1', namespace: 'x' } });
    // The item delete "succeeds" but the item stays.
    api.intercept = (m, p) => (m === 'DELETE' && p.endsWith('/gadgets/g1') ? apiError(404, 'NotFound', 'gone?') : undefined);
    await expect(deleter.delete('x')).rejects.toThrow('unexpected items still remain in namespace: x for gvr: example.svc.io/v1, Resource=gadgets');
    expect(conditionsOf(api, 'x')).toMatchObject({
      [T.contentRemaining]: 'True SomeResourcesRemain: Some resources are remaining: gadgets.example.svc.io has 1 resource instances',
      [T.finalizersRemaining]: 'False ContentRemoved: All content successfully removed',
    });
  });

  test('a conflict on finalize re-reads and retries; a recreated namespace (new uid) stops it', async () => {
    const { api, deleter } = setup();
    api.seed(R.namespaces, deletingNamespace('x'));
    let conflicts = 1;
    api.intercept = (m, p) => (m === 'PUT' && p.endsWith('/finalize') && conflicts-- > 0 ? apiError(409, 'Conflict', 'the object has been modified') : undefined);
    await deleter.delete('x');
    expect(api.calls.filter((c) => c.endsWith('/finalize') || c === 'GET /api/v1/namespaces/x')).toEqual([
      'GET /api/v1/namespaces/x',
      'PUT /api/v1/namespaces/x/finalize',
      'GET /api/v1/namespaces/x',
      'PUT /api/v1/namespaces/x/finalize',
    ]);
    expect(api.object(R.namespaces, 'x')).toBeUndefined();

    const second = setup();
    second.api.seed(R.namespaces, deletingNamespace('y'));
    second.api.intercept = (m, p) => {
      if (m === 'PUT' && p.endsWith('/finalize')) {
        // Someone deleted and recreated it meanwhile.
        const cur = second.api.object<Namespace>(R.namespaces, 'y');
        second.api.seed(R.namespaces, { ...cur, metadata: { ...cur?.metadata, uid: 'another' } });
        return apiError(409, 'Conflict', 'the object has been modified');
      }
      return undefined;
    };
    await expect(second.deleter.delete('y')).rejects.toThrow('namespace uid has changed across retries');
  });
});
