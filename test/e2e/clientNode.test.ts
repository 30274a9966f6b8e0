// @kubernetes/client-node against the real processes, as a CI suite drives it: the typed APIs in
// the k8s naming profile, KubernetesObjectApi in both profiles, and an informer that outlives an
// apiserver restart and resumes its watch without listing again.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCluster, TestCluster } from './support/apiserver';
import { makeCsr } from './support/openssl';
import { failures, runSteps, ScriptProcess } from './support/stockClients';

function csrFile(dir: string): string {
  const file = join(dir, 'client.csr');
  writeFileSync(file, makeCsr('ecdsa', '/CN=ci-user').csrPem);
  return file;
}

describe('client-node, k8s naming', () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await startCluster(['--api-naming=k8s']);
  });
  afterAll(async () => {
    await c?.stop();
  });

  test('every typed API call succeeds unmodified', async () => {
    const lines = await runSteps('node', 'typed', [c.apiserver.kubeconfig, 'typed', csrFile(c.dir)]);
    expect(failures(lines)).toEqual({});
    expect(lines.map((l) => [l.step, l.value])).toEqual(
      expect.arrayContaining([
        ['CertificatesV1Api.createCertificateSigningRequest', 'kubernetes.io/kube-apiserver-client'],
        ['CertificatesV1Api.replaceCertificateSigningRequestApproval', ['Approved']],
        ['CoordinationV1Api.replaceNamespacedLease', 'b'],
        ['AuthorizationV1Api.createSelfSubjectAccessReview', true],
        ['AuthorizationV1Api.createSubjectAccessReview', true],
        ['AuthenticationV1Api.createSelfSubjectReview', 'admin'],
        ['CoreV1Api.createNamespacedServiceAccountToken', 3],
      ]),
    );
    expect(lines).toHaveLength(18);
  });

  test('KubernetesObjectApi with k8s.io apiVersions', async () => {
    const lines = await runSteps('node', 'objectApi', [c.apiserver.kubeconfig, 'generic', 'k8s.io', csrFile(c.dir)]);
    expect(failures(lines)).toEqual({});
    expect(lines).toHaveLength(8);
  });

  test('an informer survives an apiserver restart and resumes its watch without listing again', async () => {
    const ns = 'informed';
    expect((await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status).toBe(201);
    const informer = new ScriptProcess<{ event: string; name?: string; lists?: number }>('node', 'informer', [c.apiserver.kubeconfig, ns]);
    try {
      await informer.waitFor((ls) => ls.some((l) => l.event === 'started'), 'informer started');
      const cm = (name: string) => c.apiserver.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { metadata: { name } } });
      expect((await cm('before')).status).toBe(201);
      await informer.waitFor((ls) => ls.some((l) => l.event === 'add' && l.name === 'before'), 'add before');

      await c.apiserver.stop();
      await c.apiserver.start();
      expect((await cm('after')).status).toBe(201);
      const lines = await informer.waitFor((ls) => ls.some((l) => l.event === 'add' && l.name === 'after'), 'add after the restart');

      expect(lines.filter((l) => l.event === 'list')).toHaveLength(1);
      expect(lines.filter((l) => l.event === 'add').map((l) => l.name)).toEqual(['before', 'after']);
      // It did reconnect: a connect after the first one.
      expect(lines.filter((l) => l.event === 'connect').length).toBeGreaterThanOrEqual(2);
    } finally {
      await informer.stop();
    }
  });
});

describe('client-node, svc naming', () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await startCluster();
  });
  afterAll(async () => {
    await c?.stop();
  });

  test('KubernetesObjectApi with svc.io apiVersions', async () => {
    const lines = await runSteps('node', 'objectApi', [c.apiserver.kubeconfig, 'generic', 'svc.io', csrFile(c.dir)]);
    expect(failures(lines)).toEqual({});
    expect(lines.find((l) => l.step === 'read CertificateSigningRequest')?.value).toBe('svc.io/svc-apiserver-client');
  });

  test('typed APIs: the core group works; the renamed groups are not served under upstream names (404)', async () => {
    const lines = await runSteps('node', 'typed', [c.apiserver.kubeconfig, 'typed', csrFile(c.dir)]);
    const failed = failures(lines);
    for (const l of lines) {
      if (l.step.startsWith('CoreV1Api.')) expect([l.step, l.ok]).toEqual([l.step, true]);
      else expect([l.step, failed[l.step]]).toEqual([l.step, expect.stringMatching(/^404 /)]);
    }
  });
});
