// The etcd leader lost under a running apiserver (issue 28 item 7): a 3-member etcd cluster with
// the leader first of --etcd-servers (so the watch cache's stream is on it too), a client creating
// ConfigMaps one after another, and the leader SIGSTOPped (its connections stay open and silent,
// as after `docker kill`). No acknowledged create may be lost, creates go on through the other
// members, and every 5xx request line names its cause. The longest gap between acknowledged
// creates is printed for the record, not asserted (no timed assertions).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEtcdCluster, type ClusterMember, type EtcdCluster } from '../../lib/etcd/testing/etcdCluster';
import { ApiServerProcess, freePort } from './support/apiserver';

jest.setTimeout(120_000);

interface LogLine {
  msg: string;
  level: number;
  code?: number;
  cause?: string;
  [k: string]: unknown;
}

describe('the etcd leader, first of --etcd-servers, stopped under a writer', () => {
  let cluster: EtcdCluster;
  let leader: ClusterMember;
  let apiserver: ApiServerProcess;
  let dir: string;
  beforeAll(async () => {
    cluster = await startEtcdCluster();
    leader = await cluster.leader();
    const endpoints = [leader, ...cluster.members.filter((m) => m !== leader)].map((m) => m.endpoint);
    dir = mkdtempSync(join(tmpdir(), 'svc-e2e-'));
    apiserver = new ApiServerProcess(dir, await freePort(), endpoints.join(','));
    await apiserver.start();
  });
  afterAll(async () => {
    await apiserver?.stop();
    await cluster?.stop(); // SIGCONTs the stopped member first
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('no acknowledged create lost, creates resume, every 5xx line names its cause', async () => {
    const acked: string[] = [];
    const failures: string[] = [];
    let longestGapMs = 0;
    let last = Date.now();
    let stoppedAt = -1;
    for (let i = 0; i < 1000; i++) {
      if (i === 20) {
        leader.process.kill('SIGSTOP');
        stoppedAt = acked.length;
      }
      if (stoppedAt >= 0 && acked.length >= stoppedAt + 30) break;
      const name = `cm-${String(i).padStart(4, '0')}`;
      const r = await apiserver.request('POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { i: String(i) } } });
      if (r.status === 201) {
        acked.push(name);
        const now = Date.now();
        longestGapMs = Math.max(longestGapMs, now - last);
        last = now;
      } else {
        failures.push(`${name}: ${r.status}`);
      }
    }
    const lines = apiserver.logs
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as LogLine);
    const failed = lines.filter((l) => l.msg === 'request' && (l.code ?? 0) >= 500);
    console.info(
      `apiserver, leader SIGSTOPped: longest gap between acknowledged creates ${longestGapMs} ms; ${acked.length} acknowledged; ` +
        `failed: ${failures.join(', ') || 'none'}; 5xx causes: ${failed.map((l) => `${l.code} ${l.cause}`).join(' | ') || 'none'}; ` +
        `warnings: ${lines.filter((l) => l.level === 40).map((l) => l.msg).join(' | ')}`,
    );
    expect(acked.length).toBeGreaterThanOrEqual(stoppedAt + 30);
    for (const l of failed) expect(l.cause).not.toBe('not recorded');
    const list = await apiserver.request('GET', '/api/v1/namespaces/default/configmaps');
    expect(list.status).toBe(200);
    const names = new Set(list.json<{ items: Array<{ metadata: { name: string } }> }>().items.map((c) => c.metadata.name));
    expect(acked.filter((n) => !names.has(n))).toEqual([]);
  });
});
