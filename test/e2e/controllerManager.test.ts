// svc-controller-manager as a process: the serviceaccount and namespace controllers against the
// real apiserver, its /healthz and /metrics, --controllers, and how it refuses bad flags.
import { eventually, startCluster, type TestCluster } from './support/apiserver';
import { type ControllerManagerProcess, metricValue, runControllerManager, startControllerManager } from './support/controllerManager';
import { approve, awaitIssued, createCsr, csrPath, deny, keepsHolding, signers } from './support/csrs';
import { makeCsr } from './support/openssl';
import { kubectlCreate, role, roleBinding, user } from './support/rbac';

let c: TestCluster;
let cm: ControllerManagerProcess;

beforeAll(async () => {
  c = await startCluster();
  cm = await startControllerManager(c);
}, 60_000);
afterAll(async () => {
  await cm?.stop();
  await c?.stop();
});

interface Meta {
  metadata: { name: string; uid: string; deletionTimestamp?: string; finalizers?: string[] };
}
interface NamespaceObject extends Meta {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

const get = (path: string) => c.apiserver.request('GET', path);
const createNamespace = async (name: string): Promise<void> => {
  const r = await c.apiserver.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
  expect(r.status).toBe(201);
};
const names = async (path: string): Promise<string[]> => {
  const r = await get(path);
  expect(r.status).toBe(200);
  return r.json<{ items: Meta[] }>().items.map((i) => i.metadata.name);
};
const leasePath = (ns: string, name = '') => `/apis/coordination.svc.io/v1/namespaces/${ns}/leases${name ? `/${name}` : ''}`;

describe('serviceaccount controller', () => {
  test('a new namespace gets a "default" ServiceAccount, recreated when deleted', async () => {
    await createNamespace('team-a');
    const first = await eventually(async () => {
      const r = await get('/api/v1/namespaces/team-a/serviceaccounts/default');
      return r.status === 200 && r.json<Meta>();
    }, 10_000, 'the default ServiceAccount in team-a');

    expect((await c.apiserver.request('DELETE', '/api/v1/namespaces/team-a/serviceaccounts/default')).status).toBe(200);
    const second = await eventually(async () => {
      const r = await get('/api/v1/namespaces/team-a/serviceaccounts/default');
      return r.status === 200 && r.json<Meta>();
    }, 10_000, 'the default ServiceAccount recreated');
    expect(second.metadata.uid).not.toBe(first.metadata.uid);
  });
});

describe('namespace controller', () => {
  test('deleting a namespace removes its content, reports what remains, and then the namespace', async () => {
    const ns = 'doomed';
    await createNamespace(ns);
    await eventually(async () => (await get(`/api/v1/namespaces/${ns}/serviceaccounts/default`)).status === 200, 10_000, 'the default ServiceAccount');
    await kubectlCreate(c.apiserver, [
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'bot', namespace: ns } },
      role(ns, 'reader', [{ verbs: ['get'], apiGroups: [''], resources: ['serviceaccounts'] }]),
      roleBinding(ns, 'bot-reads', { kind: 'Role', name: 'reader' }, [user('bot')]),
      { apiVersion: 'coordination.svc.io/v1', kind: 'Lease', metadata: { name: 'plain', namespace: ns }, spec: { holderIdentity: 'x' } },
      // Holds the namespace in Terminating until the test removes the finalizer, so the conditions can be seen.
      { apiVersion: 'coordination.svc.io/v1', kind: 'Lease', metadata: { name: 'held', namespace: ns, finalizers: ['example.com/hold'] }, spec: { holderIdentity: 'x' } },
    ]);

    const deleted = Date.now();
    const del = await c.apiserver.request('DELETE', `/api/v1/namespaces/${ns}`);
    expect(del.status).toBe(200);
    expect(del.json<NamespaceObject>()).toMatchObject({ spec: { finalizers: ['svc'] }, status: { phase: 'Terminating' } });

    // Upstream waits 5 s after the deletion before the first pass (HA apiservers must see it).
    const held = await eventually(
      async () => {
        const n = (await get(`/api/v1/namespaces/${ns}`)).json<NamespaceObject>();
        return n.status?.conditions?.some((x) => x.type === 'NamespaceFinalizersRemaining' && x.status === 'True') && n;
      },
      20_000,
      'the namespace to report remaining finalizers',
    );
    expect(held.status?.phase).toBe('Terminating');
    expect(held.status?.conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'NamespaceContentRemaining', status: 'True', reason: 'SomeResourcesRemain', message: 'Some resources are remaining: leases.coordination.svc.io has 1 resource instances' }),
        expect.objectContaining({ type: 'NamespaceFinalizersRemaining', status: 'True', reason: 'SomeFinalizerRemain', message: 'Some finalizers are remaining: example.com/hold in 1 resource instances' }),
        expect.objectContaining({ type: 'NamespaceDeletionContentFailure', status: 'False', reason: 'ContentDeleted' }),
        expect.objectContaining({ type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered' }),
      ]),
    );

    // Everything without a finalizer is gone, and the serviceaccount controller does not bring "default" back.
    const emptied = async (): Promise<boolean> =>
      (await names(`/api/v1/namespaces/${ns}/serviceaccounts`)).length === 0 &&
      (await names(`/apis/rbac.authorization.svc.io/v1/namespaces/${ns}/roles`)).length === 0 &&
      (await names(`/apis/rbac.authorization.svc.io/v1/namespaces/${ns}/rolebindings`)).length === 0 &&
      (await names(leasePath(ns))).join() === 'held';
    await eventually(emptied, 10_000, 'the namespace content (except the held Lease) to be deleted');
    const lease = (await get(leasePath(ns, 'held'))).json<Meta>();
    expect(lease.metadata.deletionTimestamp).toBeDefined();
    await keepsHolding('the namespace stays Terminating and empty while the finalizer is there', async () => {
      const n = (await get(`/api/v1/namespaces/${ns}`)).json<NamespaceObject>();
      return n.status?.phase === 'Terminating' && (await emptied());
    }, 1_000);

    const release = await c.apiserver.request('PATCH', leasePath(ns, 'held'), {
      body: [{ op: 'remove', path: '/metadata/finalizers' }],
      contentType: 'application/json-patch+json',
    });
    expect(release.status).toBe(200);
    const released = Date.now();
    await eventually(async () => (await get(`/api/v1/namespaces/${ns}`)).status === 404, 20_000, 'the namespace to be removed');
    expect((await get(leasePath(ns, 'held'))).status).toBe(404);
    console.info(`namespace DELETE → 404: ${Date.now() - deleted} ms (5 s of it upstream's grace period); finalizer removed → 404: ${Date.now() - released} ms`);
  }, 60_000);
});

describe('/healthz and /metrics', () => {
  test('/healthz lists leader election and every started controller', async () => {
    expect(await cm.get('/healthz')).toEqual({ status: 200, body: 'ok' });
    const verbose = await cm.get('/healthz?verbose');
    expect(verbose.status).toBe(200);
    expect(verbose.body.split('\n')).toEqual(
      expect.arrayContaining(['[+]leaderElection ok', '[+]csrsigning ok', '[+]csrapproving ok', '[+]csrcleaner ok', '[+]serviceaccount ok', '[+]namespace ok', 'healthz check passed']),
    );
    expect(await cm.get('/healthz/leaderElection')).toEqual({ status: 200, body: 'ok' });
    expect((await cm.get('/healthz/no-such-check')).status).toBe(404);
    expect((await cm.get('/no-such-path')).status).toBe(404);
  });

  test('/metrics reports leadership, workqueues, and certificates issued', async () => {
    await createCsr(c.apiserver, 'metrics-probe', { request: makeCsr('ecdsa', '/CN=metrics-probe').csrPem, signerName: signers.client });
    await approve(c.apiserver, 'metrics-probe');
    await awaitIssued(c.apiserver, 'metrics-probe');

    const body = await eventually(async () => {
      const text = (await cm.get('/metrics')).body;
      return metricValue(text, 'svc_csr_signed_total', { signer: signers.client }) === 1 && text;
    }, 5_000, 'svc_csr_signed_total to count the certificate');
    expect(metricValue(body, 'leader_election_master_status', { name: 'svc-controller-manager' })).toBe(1);
    expect(metricValue(body, 'workqueue_adds_total', { name: 'serviceaccount' })).toBeGreaterThan(0);
    expect(metricValue(body, 'workqueue_adds_total', { name: 'namespace' })).toBeGreaterThan(0);
    expect(metricValue(body, 'workqueue_adds_total', { name: 'csrsigning' })).toBeGreaterThan(0);
    expect(metricValue(body, 'workqueue_adds_total', { name: 'csrapproving' })).toBeGreaterThan(0);
    expect(metricValue(body, 'workqueue_depth', { name: 'serviceaccount' })).toBeGreaterThanOrEqual(0);
    expect(metricValue(body, 'svc_csr_signing_duration_seconds_count', { signer: signers.client })).toBe(1);
    expect(body).toMatch(/^# TYPE leader_election_master_status gauge$/m);
    expect(body).toMatch(/^process_cpu_seconds_total /m);
  });
});

describe('--controllers=*,-serviceaccount', () => {
  let partial: ControllerManagerProcess;
  beforeAll(async () => {
    // One controller manager at a time: the first hands its lease back on SIGTERM.
    expect(await cm.stop()).toBe(0);
    partial = await startControllerManager(c, { extraArgs: ['--controllers=*,-serviceaccount'] });
  });
  afterAll(async () => {
    await partial?.stop();
  });

  test('runs every controller but the serviceaccount controller', async () => {
    await createNamespace('no-default-sa');
    // The process leads and its CSR controllers run: the informers have seen the new namespace too.
    await createCsr(c.apiserver, 'partial-probe', { request: makeCsr('ecdsa', '/CN=partial-probe').csrPem, signerName: signers.client });
    await approve(c.apiserver, 'partial-probe');
    await awaitIssued(c.apiserver, 'partial-probe');

    const health = (await partial.get('/healthz?verbose')).body;
    expect(health).toContain('[+]namespace ok');
    expect(health).not.toContain('serviceaccount');
    expect(metricValue((await partial.get('/metrics')).body, 'workqueue_adds_total', { name: 'serviceaccount' })).toBeUndefined();
    await keepsHolding('no default ServiceAccount in the new namespace', async () => (await names('/api/v1/namespaces/no-default-sa/serviceaccounts')).length === 0);
  });
});

describe('command line', () => {
  test('csrcleaner with --csr-cleaner-* deadlines: pending and denied CSRs go, approved ones stay', async () => {
    const request = (cn: string) => makeCsr('ecdsa', `/CN=${cn}`).csrPem;
    // A signer nobody runs, so nothing but the cleaner acts on them.
    await createCsr(c.apiserver, 'clean-pending', { request: request('clean-pending'), signerName: 'example.com/custom' });
    await createCsr(c.apiserver, 'clean-denied', { request: request('clean-denied'), signerName: 'example.com/custom' });
    await deny(c.apiserver, 'clean-denied');
    await createCsr(c.apiserver, 'clean-approved', { request: request('clean-approved'), signerName: 'example.com/custom' });
    await approve(c.apiserver, 'clean-approved');
    const started = Date.now();
    const cleaner = await startControllerManager(c, {
      extraArgs: ['--leader-elect=false', '--controllers=csrcleaner', '--csr-cleaner-polling-interval=500ms', '--csr-cleaner-pending-expiration=3s', '--csr-cleaner-denied-expiration=2s'],
    });
    try {
      const gone = async (name: string): Promise<boolean> => (await get(`${csrPath}/${name}`)).status === 404;
      await eventually(async () => (await gone('clean-pending')) && (await gone('clean-denied')), 15_000, 'the pending and denied CSRs to be cleaned');
      console.info(`csrcleaner: pending (3 s) and denied (2 s) CSRs deleted ${Date.now() - started} ms after the process started`);
      await keepsHolding('the approved CSR (1 h deadline) stays', async () => !(await gone('clean-approved')), 1_500);
      await eventually(async () => cleaner.logs.includes('"csr":"clean-pending","reason":"pending-past-deadline"'), 5_000, 'the cleaner to log the deletion and its reason');
    } finally {
      expect(await cleaner.stop()).toBe(0);
    }
  }, 40_000);

  test('--secure-port=0 serves nothing and still runs the controllers', async () => {
    // Checked through its log: the controllers start while the other process of this file is stopped.
    const quiet = await startControllerManager(c, { serve: false, extraArgs: ['--leader-elect=false', '--controllers=serviceaccount'] });
    try {
      await createNamespace('quiet');
      await eventually(async () => (await get('/api/v1/namespaces/quiet/serviceaccounts/default')).status === 200, 10_000, 'a default ServiceAccount from the unserved process');
      await eventually(async () => quiet.logs.includes('"msg":"Started controller"'), 5_000, 'the start log');
      expect(quiet.logs).not.toContain('serving securely');
    } finally {
      expect(await quiet.stop()).toBe(0);
    }
  });

  test('--controllers=-serviceaccount alone enables nothing (no "*": upstream IsControllerEnabled)', async () => {
    const none = await startControllerManager(c, { extraArgs: ['--leader-elect=false', '--controllers=-serviceaccount'] });
    try {
      expect((await none.get('/healthz?verbose')).body).toBe('[+]ping ok\nhealthz check passed\n');
      await eventually(async () => none.logs.includes('"controllers":[]'), 5_000, 'the start log naming no controllers');
    } finally {
      expect(await none.stop()).toBe(0);
    }
  });

  test.each([
    ['an unknown flag', ['--kubeconfig=x', '--no-such-flag'], 'Error: unknown flag: --no-such-flag\n'],
    ['an unknown controller', ['--kubeconfig=x', '--controllers=*,bogus'], 'Error: "bogus" is not in the list of known controllers\n'],
    ['no kubeconfig', [], 'Error: --kubeconfig is required'],
    ['a lease shorter than the renew deadline', ['--kubeconfig=x', '--leader-elect-lease-duration=2s', '--leader-elect-renew-deadline=3s'], 'Error: --leader-elect-lease-duration must be greater than --leader-elect-renew-deadline\n'],
    ['a missing kubeconfig file', ['--kubeconfig=/nonexistent/kubeconfig', '--secure-port=0'], "Error: ENOENT: no such file or directory, open '/nonexistent/kubeconfig'\n"],
  ])('%s → exit 1 with a message', async (_what, args, message) => {
    const r = await runControllerManager(args);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });
});
