// --runtime-config through the real processes: a disabled group and a disabled resource vanish
// from discovery (plain and aggregated), OpenAPI v2/v3, kubectl and routing, while the server
// stays ready and the controller manager stays healthy (skipping what is not served).
import { eventually, startCluster, type TestCluster } from './support/apiserver';
import { fastLeaderElection, type ControllerManagerProcess, startControllerManager } from './support/controllerManager';

const aggregatedAccept = 'application/json;g=apidiscovery.svc.io;v=v2;as=APIGroupDiscoveryList';

describe('--runtime-config=certificates.svc.io/v1=false,rbac.authorization.svc.io/v1/roles=false', () => {
  let c: TestCluster;
  let cm: ControllerManagerProcess;
  beforeAll(async () => {
    c = await startCluster(['--runtime-config=certificates.svc.io/v1=false,rbac.authorization.svc.io/v1/roles=false']);
    cm = await startControllerManager(c, { extraArgs: fastLeaderElection });
  }, 60_000);
  afterAll(async () => {
    await cm?.stop();
    await c?.stop();
  });
  const get = (path: string, headers: Record<string, string> = {}) => c.apiserver.request('GET', path, { headers });

  test('/apis and aggregated discovery no longer list the group; /apis/<group> is 404', async () => {
    const plain = await get('/apis');
    expect(plain.status).toBe(200);
    const names = plain.json<{ groups: { name: string }[] }>().groups.map((g) => g.name);
    expect(names).not.toContain('certificates.svc.io');
    expect(names).toContain('coordination.svc.io');

    const agg = await get('/apis', { Accept: aggregatedAccept });
    expect(agg.status).toBe(200);
    expect(String(agg.headers['content-type'])).toContain('as=APIGroupDiscoveryList');
    const items = agg.json<{ items: { metadata: { name: string }; versions: { resources: { resource: string }[] }[] }[] }>().items;
    expect(items.map((i) => i.metadata.name)).not.toContain('certificates.svc.io');
    const rbac = items.find((i) => i.metadata.name === 'rbac.authorization.svc.io');
    expect(rbac?.versions[0].resources.map((r) => r.resource)).toEqual(expect.arrayContaining(['clusterroles', 'rolebindings']));
    expect(rbac?.versions[0].resources.map((r) => r.resource)).not.toContain('roles');
  });

  test.each([
    '/apis/certificates.svc.io',
    '/apis/certificates.svc.io/v1',
    '/apis/certificates.svc.io/v1/certificatesigningrequests',
    '/apis/certificates.svc.io/v1/certificatesigningrequests/some-csr',
    '/apis/rbac.authorization.svc.io/v1/namespaces/default/roles',
    '/apis/rbac.authorization.svc.io/v1/roles',
  ])('%s answers a 404 NotFound Status', async (path) => {
    const r = await get(path);
    expect(r.status).toBe(404);
    expect(r.json()).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 });
  });

  test('a create on the disabled resource is 404 too', async () => {
    const r = await c.apiserver.request('POST', '/apis/certificates.svc.io/v1/certificatesigningrequests', {
      body: { apiVersion: 'certificates.svc.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'x' } },
    });
    expect(r.status).toBe(404);
    expect(r.json()).toMatchObject({ kind: 'Status', reason: 'NotFound' });
  });

  test('OpenAPI v2 and v3 leave them out', async () => {
    const v2 = await get('/openapi/v2');
    expect(v2.status).toBe(200);
    const paths = Object.keys(v2.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths.filter((p) => p.includes('certificates.svc.io') || /\/roles(\/|$)/.test(p))).toEqual([]);
    expect(paths).toContain('/apis/rbac.authorization.svc.io/v1/clusterroles');

    const v3 = await get('/openapi/v3');
    const gvs = Object.keys(v3.json<{ paths: Record<string, unknown> }>().paths);
    expect(gvs).not.toContain('apis/certificates.svc.io/v1');
    expect(gvs).toContain('apis/rbac.authorization.svc.io/v1');
    expect((await get('/openapi/v3/apis/certificates.svc.io/v1')).status).toBe(404);
    const rbacV3 = Object.keys((await get('/openapi/v3/apis/rbac.authorization.svc.io/v1')).json<{ paths: Record<string, unknown> }>().paths);
    expect(rbacV3.some((p) => /\/roles(\/|$)/.test(p))).toBe(false);
    expect(rbacV3.some((p) => p.endsWith('/clusterroles'))).toBe(true);
  });

  test('kubectl api-resources does not list them', async () => {
    const r = await c.apiserver.kubectl(['api-resources', '--no-headers', '-o', 'name']);
    expect(r.code).toBe(0);
    const names = r.stdout.split('\n').filter(Boolean);
    expect(names).toContain('namespaces');
    expect(names).toContain('clusterroles.rbac.authorization.svc.io');
    expect(names.filter((n) => n.startsWith('certificatesigningrequests') || n.startsWith('roles.'))).toEqual([]);
  });

  test('/readyz and /livez stay green (RBAC bootstrap included)', async () => {
    for (const path of ['/readyz?verbose', '/livez']) {
      const r = await get(path);
      expect(r.status).toBe(200);
    }
    expect((await get('/readyz/poststarthook/rbac/bootstrap-roles')).status).toBe(200);
  });

  test('the controller manager skips the CSR controllers once, runs the rest and stays healthy', async () => {
    await eventually(async () => cm.isLeader(), 20_000, 'the controller manager to lead');
    // Its other controllers run: a new namespace gets its default ServiceAccount.
    const ns = await c.apiserver.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'rc-team' } } });
    expect(ns.status).toBe(201);
    await eventually(async () => (await get('/api/v1/namespaces/rc-team/serviceaccounts/default')).status === 200, 15_000, 'the default ServiceAccount');
    const skipped = await eventually(async () => {
      const lines = cm.logs.split('\n').filter((l) => l.includes('Warning: skipping controller'));
      return lines.length === 3 && lines;
    }, 10_000, 'three skip lines');
    expect(skipped.map((l) => (JSON.parse(l) as { controller: string }).controller).sort()).toEqual(['csrapproving', 'csrcleaner', 'csrsigning']);
    expect(cm.logs).not.toContain('informer list/watch failed');
    expect((await cm.get('/healthz')).status).toBe(200);
    expect(cm.running).toBe(true);
  });
});

describe('--runtime-config=coordination.svc.io/v1=false,rbac.authorization.svc.io/v1=false', () => {
  let c: TestCluster;
  let cm: ControllerManagerProcess;
  beforeAll(async () => {
    c = await startCluster(['--runtime-config=coordination.svc.io/v1=false,rbac.authorization.svc.io/v1=false']);
  }, 60_000);
  afterAll(async () => {
    await cm?.stop();
    await c?.stop();
  });

  test('the apiserver is ready: RBAC policy and bootstrap work from storage without the API', async () => {
    expect((await c.apiserver.request('GET', '/readyz')).status).toBe(200);
    expect((await c.apiserver.request('GET', '/livez')).status).toBe(200);
    expect((await c.apiserver.request('GET', '/apis/rbac.authorization.svc.io/v1/clusterroles')).status).toBe(404);
    // The bootstrap policy still authorizes: anonymous may read /version (system:public-info-viewer).
    expect((await c.apiserver.request('GET', '/version', { anonymous: true })).status).toBe(200);
    expect((await c.apiserver.request('GET', '/api/v1/namespaces', { anonymous: true })).status).toBe(403);
  });

  test('without Leases the controller manager keeps retrying the election, as upstream, and stays healthy', async () => {
    cm = await startControllerManager(c, { extraArgs: fastLeaderElection });
    await eventually(async () => (cm.logs.match(/error reading or writing the lease/g) ?? []).length >= 2, 15_000, 'two failed election rounds');
    expect((await cm.get('/healthz')).status).toBe(200);
    expect(cm.running).toBe(true);
    expect(await cm.isLeader()).toBe(false);
  });
});
