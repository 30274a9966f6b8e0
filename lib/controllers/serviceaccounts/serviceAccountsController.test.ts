import type { Namespace, ServiceAccount } from '../../api';
import { FakeClock } from '../../client';
import { NamespaceController } from '../namespaces/namespaceController';
import { apiError, FakeApi, fakeResources as R } from '../namespaces/testing/fakeApi';
import { ServiceAccountsController } from './serviceAccountsController';

const ns = (name: string, phase: 'Active' | 'Terminating' = 'Active'): Namespace => ({
  metadata: { name, ...(phase === 'Terminating' ? { deletionTimestamp: '2025-01-01T00:00:00Z' } : {}) },
  spec: { finalizers: ['svc'] },
  status: { phase },
});

function start(api: FakeApi, clock = new FakeClock(0), names?: string[]) {
  const errors: string[] = [];
  const controller = new ServiceAccountsController({
    client: api,
    namespaces: api.informer<Namespace>(R.namespaces),
    serviceAccounts: api.informer<ServiceAccount>(R.serviceaccounts),
    serviceAccountNames: names,
    clock,
    log: { debug: () => undefined, info: () => undefined, error: (m) => errors.push(m) },
  });
  const ac = new AbortController();
  const running = controller.run(ac.signal);
  return { clock, controller, errors, stop: async () => (ac.abort(), running) };
}

const creates = (api: FakeApi): string[] => api.calls.filter((c) => c.startsWith('POST'));

describe('ServiceAccountsController', () => {
  test('creates "default" in every active namespace that lacks it, and nowhere else', async () => {
    const api = new FakeApi();
    api.seed(R.namespaces, ns('a'));
    api.seed(R.namespaces, ns('b'));
    api.seed(R.namespaces, ns('going', 'Terminating'));
    api.seed(R.serviceaccounts, { metadata: { name: 'default', namespace: 'b' } });
    const t = start(api);
    await t.clock.advance(0);
    expect(creates(api)).toEqual(['POST /api/v1/namespaces/a/serviceaccounts']);
    expect(api.object<ServiceAccount>(R.serviceaccounts, 'default', 'a')).toMatchObject({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'a' } });
    expect(api.names(R.serviceaccounts, 'going')).toEqual([]);
    await t.stop();
  });

  test('a new namespace gets its account; a deleted account is recreated', async () => {
    const api = new FakeApi();
    const t = start(api);
    await api.create(R.namespaces, ns('fresh'));
    await t.clock.advance(0);
    expect(api.names(R.serviceaccounts, 'fresh')).toEqual(['default']);
    await api.delete(R.serviceaccounts, 'default', { namespace: 'fresh' });
    await t.clock.advance(0);
    expect(api.names(R.serviceaccounts, 'fresh')).toEqual(['default']);
    expect(creates(api).filter((c) => c.includes('serviceaccounts'))).toHaveLength(2);
    await t.stop();
  });

  test.each<[string, () => Error, number]>([
    ['AlreadyExists is success', () => apiError(409, 'AlreadyExists', 'serviceaccounts "default" already exists'), 0],
    [
      'a terminating namespace refusing the create is not an error',
      () => apiError(403, 'Forbidden', 'unable to create new content', [{ reason: 'NamespaceTerminating', message: 'namespace a is being terminated' }]),
      0,
    ],
    ['anything else is retried with backoff', () => apiError(500, 'InternalError', 'etcd is down'), 1],
  ])('%s', async (_n, err, errorsLogged) => {
    const api = new FakeApi();
    api.seed(R.namespaces, ns('a'));
    let failures = 1;
    api.intercept = (m) => (m === 'POST' && failures-- > 0 ? err() : undefined);
    const t = start(api);
    await t.clock.advance(0);
    expect(t.errors).toEqual(errorsLogged ? ['a failed with : etcd is down'] : []);
    // A retried key is tried again after the rate limiter's first step (5 ms) and then succeeds.
    await t.clock.advance(5);
    expect(creates(api)).toHaveLength(1 + errorsLogged);
    expect(api.names(R.serviceaccounts, 'a')).toEqual(errorsLogged ? ['default'] : []);
    await t.stop();
  });

  test('several names: every missing one is created, failures are joined', async () => {
    const api = new FakeApi();
    api.seed(R.namespaces, ns('a'));
    api.intercept = (m, _p, body) => (m === 'POST' ? apiError(500, 'InternalError', `no ${(body as ServiceAccount).metadata?.name}`) : undefined);
    const t = start(api, new FakeClock(0), ['default', 'builder']);
    await t.clock.advance(0);
    expect(t.errors).toEqual(['a failed with : [no default, no builder]']);
    api.intercept = undefined;
    await t.clock.advance(5);
    expect(api.names(R.serviceaccounts, 'a').sort()).toEqual(['builder', 'default']);
    await t.stop();
  });

  test('with the namespace controller: deleting a namespace removes its accounts and they are not recreated', async () => {
    const clock = new FakeClock(0);
    const api = new FakeApi();
    api.seed(R.namespaces, ns('team'));
    const sa = start(api, clock);
    const nsController = new NamespaceController({ client: api, namespaces: api.informer<Namespace>(R.namespaces), clock, resyncPeriodMs: 0 });
    const ac = new AbortController();
    const running = nsController.run(ac.signal);
    await clock.advance(0);
    expect(api.names(R.serviceaccounts, 'team')).toEqual(['default']);

    // What the server does on DELETE of a namespace: mark it, keep it until finalized.
    const cur = api.object<Namespace>(R.namespaces, 'team');
    api.seed(R.namespaces, { ...cur, metadata: { ...cur?.metadata, deletionTimestamp: '2025-01-01T00:00:01Z' }, status: { phase: 'Terminating' } });
    await clock.advance(5000);
    expect(api.object(R.namespaces, 'team')).toBeUndefined();
    expect(api.names(R.serviceaccounts, 'team')).toEqual([]);
    expect(creates(api)).toEqual(['POST /api/v1/namespaces/team/serviceaccounts']);
    ac.abort();
    await running;
    await sa.stop();
  });
});
