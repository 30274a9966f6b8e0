// The audit log of a real server (--audit-log-path, --audit-policy-file): what each level records,
// stages, identities, authorization annotations, the None rule, size-based rotation; and the
// request deadline (--request-timeout, ?timeout=).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, repoRoot, startCluster, TestCluster } from './support/apiserver';
import { auditBackups, auditEventsOf, readAuditLog, type AuditEventLine } from './support/auditLog';
import { b64, makeCsr } from './support/openssl';
import { awaitAccess, clusterGrant, kubectlCreate, user } from './support/rbac';
import { requestWithStalledBody } from './support/stalledRequest';
import { makeUserCert, type ClientCert } from './support/users';

const policy = `apiVersion: audit.svc.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  nonResourceURLs: ['/healthz*']
- level: Metadata
  resources: [{group: '', resources: [serviceaccounts]}]
- level: RequestResponse
  resources: [{group: certificates.svc.io, resources: [certificatesigningrequests]}]
- level: Request
  resources: [{group: '', resources: [namespaces]}]
`;

const ns = 'audited';
const saApi = `/api/v1/namespaces/${ns}/serviceaccounts`;
const microTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
const adminUser = { username: 'admin', groups: ['system:masters', 'system:authenticated'] };
const userAgent = 'e2e-audit/1.0';
const requestTimeoutMs = 2000;

let c: TestCluster;
let logDir: string;
let logPath: string;
let alice: ClientCert;
let bob: ClientCert;

beforeAll(async () => {
  logDir = mkdtempSync(join(tmpdir(), 'svc-audit-'));
  logPath = join(logDir, 'audit.log');
  writeFileSync(join(logDir, 'policy.yaml'), policy);
  c = await startCluster([
    `--audit-log-path=${logPath}`,
    `--audit-policy-file=${join(logDir, 'policy.yaml')}`,
    '--audit-log-maxsize=1',
    '--audit-log-maxbackup=2',
    `--request-timeout=${requestTimeoutMs / 1000}s`,
  ]);
  alice = makeUserCert(c.apiserver, 'alice');
  bob = makeUserCert(c.apiserver, 'bob');
  await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
  await kubectlCreate(c.apiserver, clusterGrant('sa-reader', [{ verbs: ['list'], apiGroups: [''], resources: ['serviceaccounts'] }], [user('bob')]));
  await awaitAccess(c.apiserver, [{ user: 'bob', verb: 'list', resource: 'serviceaccounts', namespace: ns }]);
}, 60_000);
afterAll(async () => {
  await c?.stop();
  rmSync(logDir, { recursive: true, force: true });
});

/** Sends a request and returns its response and the ResponseComplete event carrying its Audit-Id. */
async function audited(method: string, path: string, opts: Parameters<TestCluster['apiserver']['request']>[2] = {}): Promise<{ status: number; auditID: string; events: AuditEventLine[]; event: AuditEventLine }> {
  const r = await c.apiserver.request(method, path, { ...opts, headers: { 'User-Agent': userAgent, ...opts.headers } });
  const auditID = String(r.headers['audit-id'] ?? '');
  expect(auditID).toMatch(/^[0-9a-f-]{36}$|^e2e-/);
  const events = await auditEventsOf(logPath, auditID);
  const event = events.find((e) => e.stage === 'ResponseComplete') as AuditEventLine;
  return { status: r.status, auditID, events, event };
}

describe('audit events', () => {
  test('Metadata (serviceaccounts): identity, request and response facts, no bodies', async () => {
    const { status, auditID, events, event } = await audited('POST', saApi, { body: { metadata: { name: 'meta' } } });
    expect(status).toBe(201);
    expect(events.map((e) => e.stage)).toEqual(['ResponseComplete']);
    expect(event).toEqual({
      kind: 'Event',
      apiVersion: 'audit.svc.io/v1',
      level: 'Metadata',
      auditID,
      stage: 'ResponseComplete',
      requestURI: saApi,
      verb: 'create',
      user: { ...adminUser, extra: { 'authentication.svc.io/credential-id': [expect.stringMatching(/^X509SHA256=[0-9a-f]{64}$/)] } },
      sourceIPs: ['127.0.0.1'],
      userAgent,
      objectRef: { resource: 'serviceaccounts', namespace: ns, name: 'meta', apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 201 },
      requestReceivedTimestamp: expect.stringMatching(microTime),
      stageTimestamp: expect.stringMatching(microTime),
      annotations: { 'authorization.svc.io/decision': 'allow', 'authorization.svc.io/reason': '' },
    });
    expect(event.stageTimestamp >= event.requestReceivedTimestamp).toBe(true);
  });

  test('RequestResponse (certificatesigningrequests): both bodies', async () => {
    const csr = makeCsr('ecdsa', '/CN=audited');
    const body = {
      apiVersion: 'certificates.svc.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'audited-csr' },
      spec: { request: b64(csr.csrPem), signerName: 'svc.io/svc-apiserver-client', usages: ['digital signature', 'client auth'] },
    };
    const { status, event } = await audited('POST', '/apis/certificates.svc.io/v1/certificatesigningrequests', { body });
    expect(status).toBe(201);
    expect(event.level).toBe('RequestResponse');
    expect(event.objectRef).toEqual({ resource: 'certificatesigningrequests', name: 'audited-csr', apiGroup: 'certificates.svc.io', apiVersion: 'v1' });
    expect(event.requestObject).toEqual(body);
    expect(event.responseObject).toMatchObject({ kind: 'CertificateSigningRequest', metadata: { name: 'audited-csr', uid: expect.any(String) }, spec: { username: 'admin' } });
  });

  test('Request (namespaces): the request body only', async () => {
    const body = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'audited-ns', labels: { team: 'e2e' } } };
    const { status, event } = await audited('POST', '/api/v1/namespaces', { body });
    expect(status).toBe(201);
    expect(event.level).toBe('Request');
    expect(event.requestObject).toEqual(body);
    expect(event.responseObject).toBeUndefined();
    expect(event.responseStatus).toEqual({ metadata: {}, code: 201 });
  });

  test('a read at Metadata level: verb get, objectRef with name', async () => {
    const { event } = await audited('GET', `${saApi}/meta`);
    expect(event).toMatchObject({ verb: 'get', objectRef: { resource: 'serviceaccounts', namespace: ns, name: 'meta', apiVersion: 'v1' }, responseStatus: { code: 200 } });
    expect(event.responseObject).toBeUndefined();
  });

  test('a watch has a ResponseStarted stage', async () => {
    const { events } = await audited('GET', `${saApi}?watch=true&timeoutSeconds=1`);
    expect(events.map((e) => e.stage)).toEqual(['ResponseStarted', 'ResponseComplete']);
    expect(events.every((e) => e.verb === 'watch')).toBe(true);
  });

  test('a forbidden request: decision forbid and the failure status', async () => {
    const { status, event } = await audited('GET', saApi, { cert: alice });
    expect(status).toBe(403);
    expect(event.user).toMatchObject({ username: 'alice', groups: ['system:authenticated'] });
    expect(event.annotations).toEqual({ 'authorization.svc.io/decision': 'forbid', 'authorization.svc.io/reason': '' });
    expect(event.responseStatus).toEqual({
      metadata: {},
      status: 'Failure',
      message: `serviceaccounts is forbidden: User "alice" cannot list resource "serviceaccounts" in API group "" in the namespace "${ns}"`,
      reason: 'Forbidden',
      details: { kind: 'serviceaccounts' },
      code: 403,
    });
  });

  test('an RBAC allow records the reason', async () => {
    const { status, event } = await audited('GET', saApi, { cert: bob });
    expect(status).toBe(200);
    expect(event.annotations).toEqual({
      'authorization.svc.io/decision': 'allow',
      'authorization.svc.io/reason': 'RBAC: allowed by ClusterRoleBinding "sa-reader" of ClusterRole "sa-reader" to User "bob"',
    });
  });

  test('a client-chosen Audit-ID is kept', async () => {
    const { auditID, event } = await audited('GET', `${saApi}/meta`, { headers: { 'Audit-ID': 'e2e-chosen-id' } });
    expect(auditID).toBe('e2e-chosen-id');
    expect(event.auditID).toBe('e2e-chosen-id');
  });

  test('the None rule and unmatched requests log nothing', async () => {
    for (const path of ['/healthz', '/healthz/ping', '/version']) {
      expect((await c.apiserver.request('GET', path)).status).toBe(200);
    }
    // The log is written in order: once a later request is in it, the earlier ones would be too.
    await audited('GET', `${saApi}/meta`);
    const uris = readAuditLog(logPath).map((e) => e.requestURI);
    expect(uris.filter((u) => u.startsWith('/healthz') || u === '/version')).toEqual([]);
  });
});

describe('request deadline', () => {
  const nsBody = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'never' } };
  const timeoutStatus = {
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
    reason: 'Timeout',
    code: 504,
  };

  test('?timeout=bogus → 400', async () => {
    const r = await c.apiserver.request('GET', '/api/v1/namespaces/default?timeout=bogus');
    expect(r.status).toBe(400);
    expect(r.json()).toMatchObject({ reason: 'BadRequest', message: 'invalid timeout specified in the request URL - time: invalid duration "bogus"' });
  });

  // ?timeout=1ns on a quorum read is not used: the server arms a 1 ms timer and a local etcd read
  // often beats it (measured: ~40% answered 200). A body that never finishes is deterministic.
  test('?timeout=300ms cuts a request whose body stalls', async () => {
    const r = await requestWithStalledBody(c.apiserver, 'POST', '/api/v1/namespaces?timeout=300ms', nsBody);
    expect(r.status).toBe(504);
    expect(JSON.parse(r.body)).toMatchObject(timeoutStatus);
    expect(r.elapsedMs).toBeGreaterThanOrEqual(290);
    expect(r.elapsedMs).toBeLessThan(requestTimeoutMs);
  });

  test('without ?timeout, --request-timeout applies (and a longer ?timeout does not extend it)', async () => {
    const r = await requestWithStalledBody(c.apiserver, 'POST', '/api/v1/namespaces?timeout=1m', nsBody);
    expect(r.status).toBe(504);
    expect(r.elapsedMs).toBeGreaterThanOrEqual(requestTimeoutMs - 10);
    expect(r.elapsedMs).toBeLessThan(requestTimeoutMs + 3000);
    expect((await c.apiserver.request('GET', '/api/v1/namespaces/never')).status).toBe(404);
  });

  test('--help shows the default --request-timeout as a Go duration (pflag: "(default 1m0s)")', async () => {
    const help = await new Promise<string>((res) => {
      execFile(process.execPath, [join(repoRoot, 'bin/svc-apiserver'), '--help'], (_err, stdout) => res(stdout));
    });
    const section = help.slice(help.indexOf('--request-timeout'), help.indexOf('\n      --', help.indexOf('--request-timeout')));
    expect(section).toContain('(default 1m0s)');
  });
});

describe('rotation', () => {
  test('--audit-log-maxsize=1 --audit-log-maxbackup=2: at most two backups, the oldest events gone', async () => {
    // Request-level namespace creates (dry run) with a ~200 KiB annotation: ~4 MiB of events.
    const big = 'x'.repeat(200 * 1024);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await c.apiserver.request('POST', '/api/v1/namespaces?dryRun=All', { body: { metadata: { name: `rot-${i}`, annotations: { big } } } });
      expect(r.status).toBe(201);
      ids.push(String(r.headers['audit-id']));
    }
    await auditEventsOf(logPath, ids[ids.length - 1]);
    const files = await eventually(async () => {
      const b = auditBackups(logDir);
      return b.length === 2 ? b : undefined;
    });
    const all = [...files, logPath];
    for (const f of all) expect(statSync(f).size).toBeLessThanOrEqual(1024 * 1024);
    const kept = new Set(all.flatMap((f) => readAuditLog(f).map((e) => e.auditID)));
    expect(kept.has(ids[ids.length - 1])).toBe(true);
    expect(kept.has(ids[0])).toBe(false);
    // still exactly two after everything was written
    expect(auditBackups(logDir)).toHaveLength(2);
  });
});
