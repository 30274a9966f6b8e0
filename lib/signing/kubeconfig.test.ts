import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { TLSSocket } from 'node:tls';
// The client's reader reads back what is written here (a test may cross the import direction).
import { loadKubeconfig } from '../client/kubeconfig';
import { buildKubeconfig, writeKubeconfig } from './kubeconfig';
import { ensureCertDir } from './pki';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'kubeconfig-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const hasKubectl = ((): boolean => {
  try {
    execFileSync('kubectl', ['version', '--client']);
    return true;
  } catch {
    return false;
  }
})();

describe('writeKubeconfig, read back by the client', () => {
  test('round trip with embedded data, mode 0600', async () => {
    const p = await ensureCertDir(path.join(dir, 'pki'));
    const file = path.join(dir, 'admin.kubeconfig');
    await writeKubeconfig(file, { server: 'https://127.0.0.1:6443', caFile: p.caCertFile, clientCertFile: p.adminCertFile, clientKeyFile: p.adminKeyFile });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^apiVersion: v1\nkind: Config\n/);
    expect(text).toMatch(/\n {4}certificate-authority-data: [A-Za-z0-9+/=]+\n/);
    expect(text).toMatch(/current-context: admin@svc-apiserver\n/);
    const c = await loadKubeconfig(file);
    expect(c).toMatchObject({ contextName: 'admin@svc-apiserver', clusterName: 'svc-apiserver', userName: 'admin', server: 'https://127.0.0.1:6443', insecureSkipTLSVerify: false });
    expect(c.ca?.toString()).toBe(readFileSync(p.caCertFile, 'utf8'));
    expect(c.cert?.toString()).toBe(readFileSync(p.adminCertFile, 'utf8'));
    expect(c.key?.toString()).toBe(readFileSync(p.adminKeyFile, 'utf8'));
    expect(c.token).toBeUndefined();
  });

  test('token user, custom names, namespace', async () => {
    const text = await buildKubeconfig({ server: 'https://h:1', caData: 'PEM', token: 'abc.def', user: 'bob', cluster: 'c1', context: 'ctx', namespace: 'ns1' });
    const file = path.join(dir, 'k');
    writeFileSync(file, text);
    expect(await loadKubeconfig(file)).toEqual({ contextName: 'ctx', clusterName: 'c1', userName: 'bob', namespace: 'ns1', server: 'https://h:1', insecureSkipTLSVerify: false, ca: Buffer.from('PEM'), token: 'abc.def' });
  });

  test('reads file references relative to the kubeconfig, token files, other contexts', async () => {
    writeFileSync(path.join(dir, 'ca.pem'), 'CA');
    writeFileSync(path.join(dir, 'tok'), 'secret-token\n');
    const file = path.join(dir, 'config');
    writeFileSync(
      file,
      `apiVersion: v1
kind: Config
current-context: a
contexts:
- name: a
  context: {cluster: one, user: u1}
- name: b
  context: {cluster: two, user: u2}
clusters:
- name: one
  cluster: {server: "https://one", certificate-authority: ca.pem}
- name: two
  cluster: {server: "https://two", insecure-skip-tls-verify: true}
users:
- name: u1
  user: {tokenFile: tok}
- name: u2
  user: {token: t2}
`,
    );
    expect(await loadKubeconfig(file)).toMatchObject({ server: 'https://one', ca: Buffer.from('CA'), token: 'secret-token' });
    expect(await loadKubeconfig(file, { context: 'b' })).toMatchObject({ server: 'https://two', insecureSkipTLSVerify: true, token: 't2' });
  });

  test.each<[string, Parameters<typeof buildKubeconfig>[0], RegExp]>([
    ['file and data', { server: 's', caFile: 'x', caData: 'y' }, /either the CA file or its data/],
    ['cert without key', { server: 's', certData: 'x' }, /needs its key/],
  ])('write errors: %s', async (_n, opts, msg) => {
    await expect(buildKubeconfig(opts)).rejects.toThrow(msg);
  });

  (hasKubectl ? test : test.skip)('stock kubectl reads it and authenticates with the client certificate', async () => {
    const p = await ensureCertDir(path.join(dir, 'pki'));
    const server = https.createServer(
      { ca: readFileSync(p.caCertFile), cert: readFileSync(p.tlsCertFile), key: readFileSync(p.tlsKeyFile), requestCert: true, rejectUnauthorized: false },
      (req, res) => {
        const s = req.socket as TLSSocket;
        res.setHeader('Content-Type', 'text/plain');
        res.end(s.authorized ? `ok ${s.getPeerCertificate().subject.CN}` : 'anonymous');
      },
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const file = path.join(dir, 'admin.kubeconfig');
      for (const host of ['127.0.0.1', 'localhost']) {
        await writeKubeconfig(file, { server: `https://${host}:${port}`, caFile: p.caCertFile, clientCertFile: p.adminCertFile, clientKeyFile: p.adminKeyFile });
        const out = await new Promise<string>((resolve, reject) =>
          execFile('kubectl', ['--kubeconfig', file, 'get', '--raw', '/healthz'], (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout))),
        );
        expect(out).toBe('ok admin');
      }
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
