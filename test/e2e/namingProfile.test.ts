// The k8s naming profile end to end: every product-word identifier the processes put on the wire
// or in storage is upstream's (groups, signers, labels, namespaces, token claims, media type,
// OpenAPI names, metrics, the controller manager's identity), the controller manager follows the
// apiserver's profile from discovery, and a store written with one profile refuses the other.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEtcd } from '../../lib/etcd/testing/etcdServer';
import { ApiServerProcess, eventually, freePort, startCluster, TestCluster } from './support/apiserver';
import { ControllerManagerProcess } from './support/controllerManager';
import { b64, makeCsr } from './support/openssl';

function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('k8s naming profile', () => {
  let c: TestCluster;
  let cm: ControllerManagerProcess;
  beforeAll(async () => {
    c = await startCluster(['--api-naming=k8s']);
    cm = new ControllerManagerProcess(c);
    await cm.start();
  });
  afterAll(async () => {
    await cm?.stop();
    await c?.stop();
  });

  test('system namespaces, their metadata.name label and finalizer are upstream’s', async () => {
    const list = (await c.apiserver.request('GET', '/api/v1/namespaces')).json<{ items: Array<{ metadata: { name: string; labels: Record<string, string> }; spec: { finalizers: string[] } }> }>();
    expect(list.items.map((n) => n.metadata.name).sort()).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    const system = list.items.find((n) => n.metadata.name === 'kube-system')!;
    expect(system.metadata.labels['kubernetes.io/metadata.name']).toBe('kube-system');
    expect(system.spec.finalizers).toEqual(['kubernetes']);
  });

  test('bootstrap RBAC: the controller manager’s role and upstream’s markers', async () => {
    const r = await c.apiserver.request('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/system:kube-controller-manager');
    expect(r.status).toBe(200);
    const role = r.json<{ metadata: { labels: Record<string, string>; annotations: Record<string, string> } }>();
    expect(role.metadata.labels['kubernetes.io/bootstrapping']).toBe('rbac-defaults');
    expect(role.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate']).toBe('true');
    expect((await c.apiserver.request('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/system:certificates.k8s.io:kube-apiserver-client-approver')).status).toBe(200);
  });

  test('the controller manager follows the profile: its Lease, the default ServiceAccount and the signer', async () => {
    await eventually(
      async () => (await c.apiserver.request('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager')).status === 200,
      20_000,
      'the kube-controller-manager Lease in kube-system',
    );
    expect((await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'team' } } })).status).toBe(201);
    await eventually(async () => (await c.apiserver.request('GET', '/api/v1/namespaces/team/serviceaccounts/default')).status === 200, 20_000, 'the default ServiceAccount');

    const body = {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'signed' },
      spec: { request: b64(makeCsr('ecdsa', '/CN=dana').csrPem), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'] },
    };
    expect((await c.apiserver.request('POST', '/apis/certificates.k8s.io/v1/certificatesigningrequests', { body })).status).toBe(201);
    const csr = (await c.apiserver.request('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests/signed')).json<Record<string, unknown>>();
    const approval = { ...csr, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'E2E', message: 'ok' }] } };
    expect((await c.apiserver.request('PUT', '/apis/certificates.k8s.io/v1/certificatesigningrequests/signed/approval', { body: approval })).status).toBe(200);
    await eventually(
      async () => (await c.apiserver.request('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests/signed')).json<{ status?: { certificate?: string } }>().status?.certificate,
      20_000,
      'the certificate',
    );
    expect((await cm.get('/metrics')).body).toMatch(/^kubernetes_csr_signed_total\{/m);
  });

  test('ServiceAccount tokens: upstream’s default issuer and private claim', async () => {
    expect((await c.apiserver.request('POST', '/api/v1/namespaces/default/serviceaccounts', { body: { metadata: { name: 'tok' } } })).status).toBe(201);
    const r = await c.apiserver.request('POST', '/api/v1/namespaces/default/serviceaccounts/tok/token', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
    });
    expect(r.status).toBe(201);
    const claims = jwtPayload(r.json<{ status: { token: string } }>().status.token);
    expect(claims.iss).toBe('https://kubernetes.default.svc.cluster.local');
    expect(claims.aud).toEqual(['https://kubernetes.default.svc.cluster.local']);
    expect(claims['kubernetes.io']).toMatchObject({ namespace: 'default', serviceaccount: { name: 'tok' } });
  });

  test('Protobuf is application/vnd.kubernetes.protobuf; the svc spelling is not offered', async () => {
    const pb = await c.apiserver.request('GET', '/api/v1/namespaces/default', { headers: { Accept: 'application/vnd.kubernetes.protobuf' } });
    expect(pb.status).toBe(200);
    expect(pb.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    expect((await c.apiserver.request('GET', '/api/v1/namespaces/default', { headers: { Accept: 'application/vnd.svc.protobuf' } })).status).toBe(406);
  });

  test('Tables as meta.k8s.io, OpenAPI under io.k8s names, upstream’s feature metric', async () => {
    const table = await c.apiserver.request('GET', '/api/v1/namespaces', { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    expect(table.json()).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    const v2 = (await c.apiserver.request('GET', '/openapi/v2')).json<{ definitions: Record<string, unknown> }>();
    expect(Object.keys(v2.definitions)).toEqual(expect.arrayContaining(['io.k8s.api.core.v1.ConfigMap', 'io.k8s.api.certificates.v1.CertificateSigningRequest', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']));
    expect(Object.keys(v2.definitions).some((d) => d.startsWith('io.svc.'))).toBe(false);
    expect((await c.apiserver.request('GET', '/metrics')).body).toMatch(/^kubernetes_feature_enabled\{/m);
  });

  test('a 304 on aggregated discovery carries no Content-Type, so HTTP caches keep the aggregated type', async () => {
    const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
    const first = await c.apiserver.request('GET', '/api', { headers: { Accept: accept } });
    expect(first.headers['content-type']).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    const again = await c.apiserver.request('GET', '/api', { headers: { Accept: accept, 'If-None-Match': String(first.headers.etag) } });
    expect(again.status).toBe(304);
    expect(again.headers['content-type']).toBeUndefined();
    expect(again.headers.etag).toBe(first.headers.etag);
  });

  test('the svc groups are not served', async () => {
    for (const path of ['/apis/certificates.svc.io/v1', '/apis/rbac.authorization.svc.io/v1/clusterroles']) {
      expect([path, (await c.apiserver.request('GET', path)).status]).toEqual([path, 404]);
    }
  });
});

describe('the profile is recorded with the data', () => {
  test('a server with the other profile on the same etcd refuses to start and says why; the same profile starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-naming-'));
    const etcd = await startEtcd();
    try {
      const first = new ApiServerProcess(dir, await freePort(), etcd.endpoint, ['--api-naming=k8s']);
      await first.start();
      await first.stop();

      const other = new ApiServerProcess(dir, await freePort(), etcd.endpoint, ['--api-naming=svc']);
      const refused = await other.start().then(
        () => 'started',
        (e: Error) => e.message,
      );
      expect(refused).toContain('exited with 1');
      expect(refused).toContain(
        'the data under etcd prefix "/registry" is spelled with --api-naming=k8s, this server was started with --api-naming=svc: start it with --api-naming=k8s',
      );
      await other.stop();

      const again = new ApiServerProcess(dir, await freePort(), etcd.endpoint, ['--api-naming=k8s']);
      await again.start();
      expect((await again.request('GET', '/api/v1/namespaces/kube-system')).status).toBe(200);
      await again.stop();
    } finally {
      await etcd.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an invalid --api-naming is a flag error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-naming-'));
    try {
      const bad = new ApiServerProcess(dir, await freePort(), 'http://127.0.0.1:1', ['--api-naming=kube']);
      const err = await bad.start().then(
        () => 'started',
        (e: Error) => e.message,
      );
      expect(err).toContain('Error: --api-naming: invalid naming profile "kube": must be one of svc, k8s');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
