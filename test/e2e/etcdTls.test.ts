// --etcd-cafile, --etcd-certfile, --etcd-keyfile: the apiserver talks to an etcd that requires
// TLS client certificates (--client-cert-auth), as kube-apiserver does with the same flags.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiServerProcess, eventually, freePort, repoRoot } from './support/apiserver';

const dir = mkdtempSync(join(tmpdir(), 'svc-etcd-tls-'));
const f = (name: string): string => join(dir, name);
let etcd: ChildProcess;
let endpoint = '';
let apiserver: ApiServerProcess | undefined;

/** A CA, etcd's serving certificate for 127.0.0.1 and a client certificate, by the openssl CLI. */
function makePki(): void {
  const ossl = (...args: string[]): void => void execFileSync('openssl', args, { stdio: 'ignore' });
  ossl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', f('ca.key'), '-out', f('ca.crt'), '-days', '1', '-subj', '/CN=etcd-ca');
  writeFileSync(f('server.ext'), 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n');
  writeFileSync(f('client.ext'), 'extendedKeyUsage=clientAuth\n');
  for (const [name, cn] of [['server', 'etcd'], ['client', 'svc-apiserver-etcd-client']]) {
    ossl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', f(`${name}.key`), '-out', f(`${name}.csr`), '-subj', `/CN=${cn}`);
    ossl('x509', '-req', '-in', f(`${name}.csr`), '-CA', f('ca.crt'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f(`${name}.crt`), '-days', '1', '-extfile', f(`${name}.ext`));
  }
}

function etcdctl(args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('etcdctl', [`--endpoints=${endpoint}`, `--cacert=${f('ca.crt')}`, `--cert=${f('client.crt')}`, `--key=${f('client.key')}`, ...args], (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
}

beforeAll(async () => {
  makePki();
  const [client, peer] = [await freePort(), await freePort()];
  endpoint = `https://127.0.0.1:${client}`;
  etcd = spawn('etcd', [
    `--data-dir=${f('etcd')}`,
    `--listen-client-urls=${endpoint}`,
    `--advertise-client-urls=${endpoint}`,
    `--listen-peer-urls=http://127.0.0.1:${peer}`,
    `--initial-advertise-peer-urls=http://127.0.0.1:${peer}`,
    `--initial-cluster=default=http://127.0.0.1:${peer}`,
    `--cert-file=${f('server.crt')}`,
    `--key-file=${f('server.key')}`,
    `--trusted-ca-file=${f('ca.crt')}`,
    '--client-cert-auth',
  ], { stdio: 'ignore' });
  await eventually(async () => (await etcdctl(['endpoint', 'health']).catch(() => '')).includes('is healthy'), 20_000, 'etcd with TLS healthy');
});

afterAll(async () => {
  await apiserver?.stop();
  etcd?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

test('with the three flags the apiserver becomes ready on an etcd that requires client certificates, and stores there', async () => {
  apiserver = new ApiServerProcess(mkdtempSync(join(dir, 'apiserver-')), await freePort(), endpoint, [
    `--etcd-cafile=${f('ca.crt')}`,
    `--etcd-certfile=${f('client.crt')}`,
    `--etcd-keyfile=${f('client.key')}`,
  ]);
  await apiserver.start();
  expect((await apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'over-tls' } } })).status).toBe(201);
  expect(await etcdctl(['get', '/registry/namespaces/over-tls', '--keys-only'])).toContain('/registry/namespaces/over-tls');
  // The etcd version was read over https too (the log is flushed about once a second).
  const server = apiserver;
  const logged = await eventually(async () => /"msg":"etcd version( unknown)?[^"]*"/.exec(server.logs)?.[0], 10_000, 'the etcd version log line');
  expect(logged).toBe('"msg":"etcd version"');
});

test('--etcd-certfile without --etcd-keyfile is a flag error', async () => {
  const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
    execFile(process.execPath, [join(repoRoot, 'bin/svc-apiserver'), `--etcd-servers=${endpoint}`, `--etcd-certfile=${f('client.crt')}`], (err, _o, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, stderr }),
    ),
  );
  expect(r.code).not.toBe(0);
  expect(r.stderr).toContain('--etcd-certfile and --etcd-keyfile must be given together');
});
