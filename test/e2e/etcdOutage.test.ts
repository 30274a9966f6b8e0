// An etcd outage with a real etcd stopped and started (issue 27 item 6). Clients get what
// kube-apiserver 1.32 answers: the request waits for etcd until its deadline (--request-timeout,
// short here), then the timeout filter's 504 Timeout without Retry-After, so kubectl shows it
// once instead of retrying for two minutes. The log says why: the outage once at warn when it
// begins (which endpoint, since when, the error), once when it ends, and a cause on every 5xx
// request line. /readyz?verbose names the etcd check's reason for the monitoring identity. And a
// server started while etcd is down writes its kubeconfig at once, says what it waits for, and
// becomes ready when etcd comes up.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEtcd } from '../../lib/etcd/testing/etcdServer';
import { ApiServerProcess, eventually, freePort, startCluster, type TestCluster } from './support/apiserver';
import { makeUserCert, type ClientCert } from './support/users';

jest.setTimeout(120_000);

interface LogLine {
  level: number;
  msg: string;
  code?: number;
  cause?: string;
  verb?: string;
  resource?: string;
  path?: string;
  [k: string]: unknown;
}
const warn = 40;

function logLines(s: ApiServerProcess): LogLine[] {
  return s.logs
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogLine);
}
const outageLines = (s: ApiServerProcess): LogLine[] => logLines(s).filter((l) => l.msg.startsWith('etcd unreachable since '));
const recoveryLines = (s: ApiServerProcess): LogLine[] => logLines(s).filter((l) => l.msg.startsWith('etcd reachable again'));
const requestLines = (s: ApiServerProcess): LogLine[] => logLines(s).filter((l) => l.msg === 'request');

const timeoutStatus = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
  reason: 'Timeout',
  details: {},
  code: 504,
};

describe('etcd stopped and started under a running server', () => {
  let c: TestCluster;
  let monitoring: ClientCert;
  beforeAll(async () => {
    c = await startCluster(['--request-timeout=2s']);
    // The deployment's monitoring identity (svc-certs' monitoring.crt: O=system:monitoring).
    monitoring = makeUserCert(c.apiserver, 'prometheus', ['system:monitoring']);
  });
  afterAll(async () => {
    await c?.stop();
  });

  test('clients get the timeout Status once, the log names the outage once and every 5xx cause, /readyz?verbose names it for the monitoring identity', async () => {
    expect((await c.apiserver.request('GET', '/readyz')).status).toBe(200);
    expect(outageLines(c.apiserver)).toEqual([]);
    await c.etcd.kill();

    // The outage is logged once, at warn: which endpoint, since when, the error.
    const [outage] = await eventually(async () => {
      const lines = outageLines(c.apiserver);
      return lines.length > 0 ? lines : null;
    }, 20_000, 'the outage to be logged');
    expect(outage.level).toBe(warn);
    expect(outage.endpoints).toEqual([{ url: c.etcd.endpoint, error: `connect ECONNREFUSED ${c.etcd.endpoint.replace('http://', '')}` }]);
    expect(typeof outage.since).toBe('string');
    expect(outage.msg).toContain(`${c.etcd.endpoint}: connect ECONNREFUSED`);

    // Reads and writes: upstream's 504 at the request deadline, no Retry-After.
    const read = await c.apiserver.request('GET', '/api/v1/namespaces/default');
    expect({ status: read.status, body: read.json() }).toEqual({ status: 504, body: timeoutStatus });
    expect(read.headers['retry-after']).toBeUndefined();
    const write = await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'during-outage' } } });
    expect(write.status).toBe(504);
    expect(write.json()).toEqual(timeoutStatus);

    // kubectl shows the Status and does not retry: one request reached the server.
    const before = requestLines(c.apiserver).filter((l) => l.resource === 'namespaces' && l.verb === 'list').length;
    const kubectl = await c.apiserver.kubectl(['get', 'namespaces']);
    expect(kubectl.code).not.toBe(0);
    expect(kubectl.stderr).toContain('Error from server (Timeout): Timeout: request did not complete within requested timeout - context deadline exceeded');
    const lists = await eventually(async () => {
      const l = requestLines(c.apiserver).filter((r) => r.resource === 'namespaces' && r.verb === 'list');
      return l.length > before ? l.slice(before) : null;
    }, 10_000, "kubectl's request in the log");
    expect(lists.map((l) => l.code)).toEqual([504]);

    // /readyz?verbose: the reason for the monitoring identity, withheld from the anonymous.
    const mine = await c.apiserver.request('GET', '/readyz?verbose', { cert: monitoring });
    expect(mine.status).toBe(500);
    expect(mine.body).toMatch(/^\[-\]etcd failed: error getting data from etcd: etcd unreachable since \S+ \(\d+\.\d s\): http:\/\/127\.0\.0\.1:\d+: connect ECONNREFUSED 127\.0\.0\.1:\d+$/m);
    expect(mine.body).toContain(`${c.etcd.endpoint}: connect ECONNREFUSED`);
    expect(mine.body).toContain('[-]etcd-readiness failed: error getting data from etcd: etcd unreachable since ');
    expect(mine.body.endsWith('readyz check failed\n')).toBe(true);
    const livez = await c.apiserver.request('GET', '/livez?verbose', { cert: monitoring });
    expect(livez.body).toContain('[-]etcd failed: error getting data from etcd: etcd unreachable since ');
    const anonymous = await c.apiserver.request('GET', '/readyz?verbose', { anonymous: true });
    expect(anonymous.status).toBe(500);
    expect(anonymous.body).toContain('[-]etcd failed: reason withheld\n');
    expect(anonymous.body).not.toContain('ECONNREFUSED');
    // A probe (no ?verbose) gets upstream's bytes whoever it is.
    expect((await c.apiserver.request('GET', '/readyz', { cert: monitoring })).body).toContain('[-]etcd failed: reason withheld\n');
    const single = await c.apiserver.request('GET', '/readyz/etcd', { cert: monitoring });
    expect(single.status).toBe(500);
    expect(single.body).toMatch(/^internal server error: error getting data from etcd: etcd unreachable since .*connect ECONNREFUSED/);

    // Every 5xx request line carries its cause.
    const failed = await eventually(async () => {
      const lines = requestLines(c.apiserver).filter((l) => (l.code ?? 0) >= 500);
      return lines.some((l) => l.path === '/readyz/etcd') ? lines : null;
    }, 10_000, 'the failed requests in the log');
    for (const l of failed) expect(l.cause).toEqual(expect.any(String));
    const timedOut = failed.filter((l) => l.code === 504);
    expect(timedOut.length).toBeGreaterThanOrEqual(3);
    for (const l of timedOut) expect(l.cause).toMatch(/^the handler had not finished after 2000 ms; etcd unreachable since .*connect ECONNREFUSED/);
    // (The first failed /readyz lines are the start's, while the post-start hooks ran.)
    expect(failed.filter((l) => l.path === '/readyz').at(-1)?.cause).toMatch(/^readyz check failed: etcd: error getting data from etcd: etcd unreachable since /);

    // etcd back: ready again, the recovery logged once, the outage still logged only once.
    await c.etcd.restart();
    await eventually(async () => (await c.apiserver.request('GET', '/readyz')).status === 200, 30_000, '/readyz to pass again');
    const [recovery] = await eventually(async () => {
      const lines = recoveryLines(c.apiserver);
      return lines.length > 0 ? lines : null;
    }, 10_000, 'the recovery to be logged');
    expect(recovery).toMatchObject({ endpoint: c.etcd.endpoint, since: outage.since, downMs: expect.any(Number) });
    // (A consistent read may wait up to 3 s for the watch cache to catch up, longer than this
    // server's 2 s deadline, while its watch resumes.)
    await eventually(async () => (await c.apiserver.request('GET', '/api/v1/namespaces/default')).status === 200, 20_000, 'reads to be served again');
    expect(outageLines(c.apiserver)).toHaveLength(1);
    expect(recoveryLines(c.apiserver)).toHaveLength(1);
  });
});

describe('a server started while etcd is down', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const f of cleanup.reverse()) await f();
  });

  test('writes its kubeconfig at once, says what it waits for, and becomes ready when etcd comes up', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-etcd-late-'));
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    const ports: [number, number] = [await freePort(), await freePort()];
    const s = new ApiServerProcess(dir, await freePort(), `http://127.0.0.1:${ports[0]}`, []);
    cleanup.push(() => s.stop());
    await s.start({ path: '/livez' });

    // Serving, not ready, and the kubeconfig already names this server (not localhost:8080).
    expect(existsSync(s.kubeconfig)).toBe(true);
    expect(readFileSync(s.kubeconfig, 'utf8')).toContain(`server: ${s.url}`);
    expect((await s.request('GET', '/readyz')).status).toBe(500);
    const version = await s.kubectl(['get', '--raw', '/version']);
    expect(version.code).toBe(0);
    await eventually(async () => logLines(s).some((l) => l.msg.startsWith('waiting for the post-start hooks (storage/api-naming, ')), 10_000, 'the waiting line');
    const [outage] = await eventually(async () => {
      const lines = outageLines(s);
      return lines.length > 0 ? lines : null;
    }, 20_000, 'the outage to be logged');
    expect(outage.level).toBe(warn);
    expect(outage.msg).toContain(`http://127.0.0.1:${ports[0]}: connect ECONNREFUSED`);
    expect(outage.msg).toContain('the server is not ready until etcd answers (the post-start hooks wait for it)');

    const etcd = await startEtcd({ ports: async () => ports });
    cleanup.push(() => etcd.stop());
    await eventually(async () => (await s.request('GET', '/readyz')).status === 200, 30_000, '/readyz once etcd is up');
    await eventually(async () => logLines(s).some((l) => l.msg === 'post-start hooks finished: ready'), 10_000, 'the ready line');
    expect(recoveryLines(s)).toHaveLength(1);
    expect(outageLines(s)).toHaveLength(1);
  });
});
