// svc-apiserver/testing: startTestServer runs real apiservers in this process (a worker thread
// each), several at once with different profiles and no shared state, memory or etcd storage;
// stop() leaves no port, thread, timer or file. And the CLI's --ephemeral.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as https from 'node:https';
import { join } from 'node:path';
import { startTestServer, TestServer } from '../../cmd/testServer';
import { startEtcd } from '../../lib/etcd/testing/etcdServer';
import { eventually, repoRoot } from './support/apiserver';
import { runSteps } from './support/stockClients';
import { makeCsr } from './support/openssl';
import { writeFileSync } from 'node:fs';

function call(s: TestServer, method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = https.request(
      `${s.url}${path}`,
      { method, ca: s.ca, ...s.adminCert, agent: false, headers: payload ? { 'Content-Type': 'application/json' } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown> }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function connectable(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = https.request(url, { method: 'GET', rejectUnauthorized: false, agent: false }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

/** The process's active handles (sockets, servers, timers, threads' ports), counted by kind; in-flight fs requests are not handles. */
function activeResources(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) if (!r.startsWith('FSReq')) out[r] = (out[r] ?? 0) + 1;
  return out;
}

describe('startTestServer', () => {
  test('two servers with different profiles run side by side without sharing data', async () => {
    const [svc, k8s] = await Promise.all([startTestServer(), startTestServer({ naming: 'k8s' })]);
    try {
      expect((await call(svc, 'GET', '/apis/certificates.svc.io/v1')).status).toBe(200);
      expect((await call(svc, 'GET', '/apis/certificates.k8s.io/v1')).status).toBe(404);
      expect((await call(k8s, 'GET', '/apis/certificates.k8s.io/v1')).status).toBe(200);
      expect((await call(k8s, 'GET', '/api/v1/namespaces/kube-system')).status).toBe(200);
      expect((await call(svc, 'GET', '/api/v1/namespaces/svc-system')).status).toBe(200);

      expect((await call(svc, 'POST', '/api/v1/namespaces', { metadata: { name: 'only-here' } })).status).toBe(201);
      expect((await call(k8s, 'GET', '/api/v1/namespaces/only-here')).status).toBe(404);
      // RBAC is the real authorizer: the admin certificate is system:masters, anonymous is not.
      expect(k8s.kubeconfig).toMatchObject({ kind: 'Config', clusters: [{ cluster: { server: k8s.url } }] });
    } finally {
      await Promise.all([svc.stop(), k8s.stop()]);
    }
  });

  test('stock client-node typed APIs work against a k8s-profile test server', async () => {
    const s = await startTestServer({ naming: 'k8s' });
    try {
      const csr = join(s.kubeconfigPath, '..', 'ci.csr');
      writeFileSync(csr, makeCsr('ecdsa', '/CN=ci').csrPem);
      const lines = await runSteps('node', 'typed', [s.kubeconfigPath, 'suite', csr]);
      expect(lines.filter((l) => !l.ok)).toEqual([]);
    } finally {
      await s.stop();
    }
  });

  test('stop() releases the port, the thread, every timer and the temporary directory', async () => {
    const before = activeResources();
    const s = await startTestServer();
    // A watch open at stop time must not keep anything alive either.
    const watch = https.request(`${s.url}/api/v1/namespaces?watch=1`, { ca: s.ca, ...s.adminCert, agent: false });
    watch.on('error', () => undefined);
    watch.on('response', (r) => r.resume());
    watch.end();
    expect(await connectable(s.url)).toBe(true);
    const dir = join(s.kubeconfigPath, '..');
    expect(existsSync(dir)).toBe(true);

    await s.stop();
    watch.destroy();
    expect(await connectable(s.url)).toBe(false);
    expect(existsSync(dir)).toBe(false);
    await eventually(async () => JSON.stringify(activeResources()) === JSON.stringify(before), 5_000, `active resources back to ${JSON.stringify(before)}`).catch(() => {
      throw new Error(`left behind: ${JSON.stringify(activeResources())} (before ${JSON.stringify(before)})`);
    });
  });

  test('etcd storage: each server under a prefix of its own on the same etcd', async () => {
    const etcd = await startEtcd();
    try {
      const [a, b] = await Promise.all([startTestServer({ storage: 'etcd', etcd: { endpoints: [etcd.endpoint] } }), startTestServer({ storage: 'etcd', etcd: { endpoints: [etcd.endpoint] } })]);
      try {
        expect((await call(a, 'POST', '/api/v1/namespaces', { metadata: { name: 'in-a' } })).status).toBe(201);
        expect((await call(b, 'GET', '/api/v1/namespaces/in-a')).status).toBe(404);
      } finally {
        await Promise.all([a.stop(), b.stop()]);
      }
    } finally {
      await etcd.stop();
    }
  });

  test('featureGates and runtimeConfig reach the server; a bad one fails the start and leaves nothing', async () => {
    const s = await startTestServer({ naming: 'k8s', runtimeConfig: { 'authentication.k8s.io/v1beta1': true } });
    try {
      expect((await call(s, 'POST', '/apis/authentication.k8s.io/v1beta1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'SelfSubjectReview' })).json).toMatchObject({
        status: { userInfo: { username: 'admin' } },
      });
    } finally {
      await s.stop();
    }
    const before = activeResources();
    await expect(startTestServer({ featureGates: { NoSuchGate: true } })).rejects.toThrow(/NoSuchGate/);
    await eventually(async () => JSON.stringify(activeResources()) === JSON.stringify(before), 5_000, 'no thread left after a failed start');
  });
});

describe('svc-apiserver --ephemeral', () => {
  test('serves from memory, prints the kubeconfig path and removes its directory on exit', async () => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin/svc-apiserver'), '--ephemeral', '--api-naming=k8s', '--secure-port=0', '--bind-address=127.0.0.1'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const kubeconfig = await eventually(async () => /KUBECONFIG=(\S+)/.exec(stderr)?.[1], 20_000, 'the kubeconfig path on stderr');
      expect(existsSync(kubeconfig)).toBe(true);
      const url = /ready at (https:\/\/\S+);/.exec(stderr)![1];
      expect(await connectable(`${url}/readyz`)).toBe(true);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(existsSync(join(kubeconfig, '..'))).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
