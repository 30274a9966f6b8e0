// The commands deploy/docker-compose.yml runs, run here as generated: only what a container
// network provides (host names, the PKI volume's path, ports) is replaced by local values. Proves
// svc-certs writes a PKI the replicas can share read-only, etcd-1's generated command serves TLS
// with client certificates from that PKI and its compose healthcheck (etcdctl with the
// healthcheck-client pair) passes, the replicas reach it with the apiserver-etcd-client pair, the
// image's probe passes, Prometheus's client certificate may read /metrics, a token minted by one
// replica verifies on another, and a controller manager starts from the kubeconfig svc-certs wrote.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { load } from 'js-yaml';
import { renderCompose } from '../../deploy/render/compose';
import { probeScript } from '../../deploy/render/probe';
import { apiserverMembers, topology, type Topology } from '../../deploy/topology';
import { findEtcdBinary } from '../../lib/etcd/testing/etcdServer';
import { ApiServerProcess, eventually, freePort, repoRoot, reservedPort } from './support/apiserver';

interface Service {
  command: string[];
  healthcheck?: { test: string[] };
}

const etcdBinary = findEtcdBinary();
/** etcdctl beside etcd (Debian's etcd-client, unpacked there by scripts/install-etcd.sh). */
const etcdctl = join(dirname(realpathSync(etcdBinary)), 'etcdctl');

const dir = mkdtempSync(join(tmpdir(), 'svc-deploy-'));
const pkiDir = join(dir, 'pki');
// The topology as the generator reads it, with the PKI volume at a local path.
const local: Topology = { ...topology, pkiDir };
const services = (load(renderCompose(local)) as { services: Record<string, Service> }).services;

/** The generated command with some flags' values replaced (a flag missing from it is an error). */
function withFlags(command: string[], values: Record<string, string>): string[] {
  const out = [...command];
  for (const [flag, value] of Object.entries(values)) {
    const i = out.findIndex((a) => a.startsWith(`--${flag}=`));
    if (i < 0) throw new Error(`the generated command has no --${flag}: ${command.join(' ')}`);
    out[i] = `--${flag}=${value}`;
  }
  return out;
}

const children: ChildProcess[] = [];
function run(command: string[]): ChildProcess {
  const [program, ...args] = command;
  const child = spawn(process.execPath, [join(repoRoot, 'bin', program), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  Object.defineProperty(child, 'output', { get: () => output });
  children.push(child);
  return child;
}
const outputOf = (c: ChildProcess): string => (c as ChildProcess & { output: string }).output;

/** The compose healthcheck's command (CMD node -e <probe> <url>) against a local URL: its exit code. */
function probe(service: Service, url: string): Promise<number> {
  const test = service.healthcheck?.test ?? [];
  expect(test.slice(0, 4)).toEqual(['CMD', 'node', '-e', probeScript]);
  return new Promise((resolve) => execFile(process.execPath, ['-e', test[3], url], (err) => resolve(err ? Number(err.code ?? 1) : 0)));
}

function snapshot(d: string): Record<string, number> {
  return Object.fromEntries(readdirSync(d).map((f) => [f, statSync(join(d, f)).mtimeMs]));
}

let etcd: ChildProcess | undefined;
let etcdOutput = '';
let etcdEndpoint = '';
const replicas: ApiServerProcess[] = [];
let pkiBefore: Record<string, number>;

/** The compose etcd healthcheck (CMD etcdctl --endpoints=https://127.0.0.1:2379 <TLS flags> endpoint health) against the local member. */
function etcdHealthcheck(): Promise<number> {
  const [, ...args] = withFlags(services[topology.etcd.members[0]].healthcheck?.test.slice(1) ?? [], { endpoints: etcdEndpoint });
  return new Promise((resolve) => execFile(etcdctl, args, (err) => resolve(err ? Number(err.code ?? 1) : 0)));
}

beforeAll(async () => {
  // Held until each replica starts: the PKI init and etcd take seconds, and a port merely found
  // free was once taken meanwhile (EADDRINUSE).
  const reserved = await Promise.all(apiserverMembers(topology).map(() => reservedPort()));
  const ports = reserved.map((r) => r.port);
  // The PKI writer, pointed at the first replica instead of the load balancer.
  // pki-init is `sh -c <script> pki-init <svc-certs flags>`: the script runs svc-certs with those
  // flags, then copies each component's share (deploy/render/compose.ts); here svc-certs alone.
  const [shell, , script, , ...certsFlags] = services[topology.pkiInit.name].command;
  expect([shell, script.includes('svc-certs "$$@"')]).toEqual(['sh', true]);
  const init = run(withFlags(['svc-certs', ...certsFlags], { 'control-plane-endpoint': `127.0.0.1:${ports[0]}` }));
  const code = await new Promise<number | null>((r) => init.once('exit', r));
  if (code !== 0) throw new Error(`svc-certs exited with ${code}:\n${outputOf(init)}`);
  pkiBefore = snapshot(pkiDir);

  // etcd-1 as generated, as a single-member cluster on 127.0.0.1 (its certificates carry
  // 127.0.0.1, as kubeadm's do).
  const member = topology.etcd.members[0];
  const [client, peer, metrics] = [await freePort(), await freePort(), await freePort()];
  etcdEndpoint = `https://127.0.0.1:${client}`;
  const [, ...etcdArgs] = withFlags(services[member].command, {
    'data-dir': join(dir, 'etcd'),
    'listen-client-urls': etcdEndpoint,
    'advertise-client-urls': etcdEndpoint,
    'listen-peer-urls': `https://127.0.0.1:${peer}`,
    'initial-advertise-peer-urls': `https://127.0.0.1:${peer}`,
    'listen-metrics-urls': `http://127.0.0.1:${metrics}`,
    'initial-cluster': `${member}=https://127.0.0.1:${peer}`,
  });
  const e = spawn(etcdBinary, etcdArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
  etcd = e;
  e.stdout?.on('data', (d: Buffer) => (etcdOutput += d.toString()));
  e.stderr?.on('data', (d: Buffer) => (etcdOutput += d.toString()));
  await eventually(async () => {
    if (e.exitCode !== null) throw new Error(`etcd exited with ${e.exitCode}:\n${etcdOutput.slice(-3000)}`);
    return (await etcdHealthcheck()) === 0;
  }, 30_000, "etcd-1's compose healthcheck");

  apiserverMembers(topology).forEach((m, i) => {
    const [, ...args] = withFlags(services[topology.apiserver.service].command, { 'etcd-servers': etcdEndpoint, 'bind-address': '127.0.0.1', 'secure-port': String(ports[i]) });
    // ApiServerProcess adds --etcd-servers, --bind-address, --secure-port and the TLS files itself.
    const rest = args.filter((a) => !/^--(etcd-servers|bind-address|secure-port|tls-cert-file|tls-private-key-file|client-ca-file)=/.test(a));
    replicas.push(new ApiServerProcess(mkdtempSync(join(dir, `${m}-`)), ports[i], etcdEndpoint, rest, pkiDir));
  });
  await Promise.all(replicas.map(async (r, i) => {
    await reserved[i].release();
    await r.start();
  }));
});

afterAll(async () => {
  await Promise.all(
    children.filter((c) => c.exitCode === null && c.signalCode === null).map((c) => new Promise((r) => {
      c.once('exit', r);
      c.kill('SIGTERM');
    })),
  );
  await Promise.all(replicas.map((r) => r.stop()));
  etcd?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

test('the replicas serve from the shared PKI without writing to it', () => {
  expect(snapshot(pkiDir)).toEqual(pkiBefore);
});

test('etcd refuses a client without a certificate from the etcd CA (the cluster CA\'s admin pair included)', async () => {
  const get = (extra: string[]): Promise<number> =>
    new Promise((resolve) => execFile(etcdctl, [`--endpoints=${etcdEndpoint}`, `--cacert=${join(pkiDir, 'etcd/ca.crt')}`, '--dial-timeout=3s', '--command-timeout=3s', ...extra, 'get', '/registry/', '--prefix', '--keys-only', '--limit=1'], (err) => resolve(err ? 1 : 0)));
  expect(await get([])).toBe(1);
  expect(await get([`--cert=${join(pkiDir, 'admin.crt')}`, `--key=${join(pkiDir, 'admin.key')}`])).toBe(1);
  // The replicas' own pair works (they stored the bootstrap objects through it).
  expect(await get([`--cert=${join(pkiDir, 'apiserver-etcd-client.crt')}`, `--key=${join(pkiDir, 'apiserver-etcd-client.key')}`])).toBe(0);
});

test("the image's healthcheck passes on every replica's /livez", async () => {
  for (const [i, m] of apiserverMembers(topology).entries()) {
    expect(await probe(services[topology.apiserver.service], `https://127.0.0.1:${replicas[i].port}/livez`)).toBe(0);
  }
});

test("Prometheus's client certificate (system:monitoring) reads /metrics on every replica", async () => {
  const cert = { cert: readFileSync(join(pkiDir, 'monitoring.crt'), 'utf8'), key: readFileSync(join(pkiDir, 'monitoring.key'), 'utf8') };
  for (const r of replicas) {
    const res = await r.request('GET', '/metrics', { cert });
    expect(res.status).toBe(200);
    expect(res.body).toContain('apiserver_request_total');
    // The same identity may not read the API.
    expect((await r.request('GET', '/api/v1/namespaces', { cert })).status).toBe(403);
  }
});

test('a ServiceAccount token minted by one replica is accepted by the others (one signing key)', async () => {
  const [a, ...others] = replicas;
  await a.request('POST', '/api/v1/namespaces/default/serviceaccounts', { body: { metadata: { name: 'deploy-bot' } } });
  const minted = await a.request('POST', '/api/v1/namespaces/default/serviceaccounts/deploy-bot/token', {
    body: { apiVersion: 'authentication.svc.io/v1', kind: 'TokenRequest', spec: {} },
  });
  expect(minted.status).toBe(201);
  const token = minted.json<{ status: { token: string } }>().status.token;
  for (const r of others) {
    const who = await r.request('POST', '/apis/authentication.svc.io/v1/selfsubjectreviews', {
      anonymous: true,
      headers: { Authorization: `Bearer ${token}` },
      body: { apiVersion: 'authentication.svc.io/v1', kind: 'SelfSubjectReview' },
    });
    expect(who.status).toBe(201);
    expect(who.json<{ status: { userInfo: { username: string } } }>().status.userInfo.username).toBe('system:serviceaccount:default:deploy-bot');
  }
});

test('a controller manager starts from the generated command and kubeconfig, and its healthcheck passes', async () => {
  const m = topology.controllerManager.members[0];
  const port = await freePort();
  const cm = run(withFlags(services[m].command, { 'bind-address': '127.0.0.1', 'secure-port': String(port) }));
  await eventually(async () => {
    if (cm.exitCode !== null) throw new Error(`controller manager exited with ${cm.exitCode}:\n${outputOf(cm)}`);
    return (await probe(services[m], `https://127.0.0.1:${port}/healthz`)) === 0;
  }, 30_000, 'controller manager /healthz');
  // It led: the Lease exists, written with the controller manager's own credentials.
  const lease = await eventually(async () => {
    const r = await replicas[1].request('GET', '/apis/coordination.svc.io/v1/namespaces/svc-system/leases/svc-controller-manager');
    return r.status === 200 ? r.json<{ spec: { holderIdentity: string } }>() : undefined;
  }, 30_000, 'leader lease');
  expect(lease.spec.holderIdentity).toBeTruthy();
});
