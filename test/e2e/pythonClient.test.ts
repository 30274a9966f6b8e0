// The Python client (Debian's python3-kubernetes) against the real processes: its typed APIs in
// the k8s naming profile, the DynamicClient in both profiles, and a watch resumed from a
// list's resourceVersion. Each script runs as a subprocess under the system Python.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCluster, TestCluster } from './support/apiserver';
import { makeCsr } from './support/openssl';
import { failures, runSteps, ScriptProcess } from './support/stockClients';

describe('Python client, k8s naming', () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await startCluster(['--api-naming=k8s']);
  });
  afterAll(async () => {
    await c?.stop();
  });

  test('every typed API call succeeds unmodified', async () => {
    const file = join(c.dir, 'py.csr');
    writeFileSync(file, makeCsr('ecdsa', '/CN=py-user').csrPem);
    const lines = await runSteps('python', 'typed', [c.apiserver.kubeconfig, 'typed', file]);
    expect(failures(lines)).toEqual({});
    expect(lines).toHaveLength(11);
    expect(lines.find((l) => l.step === 'CertificatesV1Api.replace_certificate_signing_request_approval')?.value).toEqual(['Approved']);
  });

  test('DynamicClient with k8s.io groups', async () => {
    const lines = await runSteps('python', 'dynamic', [c.apiserver.kubeconfig, 'dynamic', 'k8s.io']);
    expect(failures(lines)).toEqual({});
    expect(lines.find((l) => l.step === 'list Role')?.value).toEqual(['r']);
  });

  test('a watch resumed from a list resourceVersion sees exactly the later changes', async () => {
    const ns = 'watched';
    expect((await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status).toBe(201);
    const cm = (name: string) => c.apiserver.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { metadata: { name } } });
    expect((await cm('old')).status).toBe(201);
    const w = new ScriptProcess<{ event: string; names?: string[]; events?: string[][] }>('python', 'watch', [c.apiserver.kubeconfig, ns, '2']);
    try {
      const [listed] = await w.waitFor((ls) => ls.some((l) => l.event === 'listed'), 'listed');
      expect(listed.names).toEqual(['old']);
      expect((await cm('new-1')).status).toBe(201);
      expect((await c.apiserver.request('DELETE', `/api/v1/namespaces/${ns}/configmaps/old`)).status).toBe(200);
      w.writeLine('go');
      const lines = await w.waitFor((ls) => ls.some((l) => l.event === 'watched'), 'watched');
      expect(lines.find((l) => l.event === 'watched')?.events).toEqual([
        ['ADDED', 'new-1'],
        ['DELETED', 'old'],
      ]);
    } finally {
      await w.stop();
    }
  });
});

describe('Python client, svc naming', () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await startCluster();
  });
  afterAll(async () => {
    await c?.stop();
  });

  test('DynamicClient with svc.io groups', async () => {
    const lines = await runSteps('python', 'dynamic', [c.apiserver.kubeconfig, 'dynamic', 'svc.io']);
    expect(failures(lines)).toEqual({});
    expect(lines).toHaveLength(7);
  });
});
