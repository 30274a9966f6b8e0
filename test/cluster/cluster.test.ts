// The compose topology as local hosts (deploy/cluster, `make cluster`), each member in its own
// network namespace: the admin kubeconfig reaches the load balancer, then faults across hosts,
// then an etcd backup restored into a fresh member. Figures are printed for the report.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { which } from '../../deploy/cluster/options';
import type { LocalCluster } from '../../deploy/cluster/runner';
import { etcdctlTlsFlags } from '../../deploy/render/commands';
import { apiserverMembers, etcdClientUrl, pkiFiles, topology } from '../../deploy/topology';
import { freePort } from '../../lib/etcd/testing/etcdServer';
import { configMapsPath, csrCount, runFaults, watcherCount, writes, certificatesOf, type FaultRun } from './faults';
import { exportedNames } from '../../deploy/monitoring/metricNames';
import { query, queriedNames, rulesFile, targets } from './prometheus';
import { ClusterClient, getText, until } from './support/client';
import { startTwin } from './support/twin';

let c: LocalCluster;
let client: ClusterClient;
const lines: string[] = [];
const log = (line: string): void => {
  lines.push(line);
  process.stdout.write(`[cluster] ${line}\n`);
};
const pki = (): string => join(c.plan.root, 'pki');

beforeAll(async () => {
  c = await startTwin(log);
  client = new ClusterClient(pki(), `https://${c.address(topology.loadBalancer.name)}:${topology.loadBalancer.port}`);
}, 240_000);

afterAll(async () => {
  client?.agent.destroy();
  await c?.down(3_000);
}, 60_000);

test('the admin kubeconfig points at the load balancer, which answers through the bridge', async () => {
  const kubeconfig = readFileSync(c.plan.kubeconfig.to, 'utf8');
  expect(kubeconfig).toContain(`server: ${client.base}`);
  const r = await client.request('GET', '/readyz');
  expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: 'ok' });
});

describe('Prometheus scraping the cluster', () => {
  const prom = (): string => `http://${c.address(topology.prometheus.name)}:${topology.prometheus.port}`;
  const instances = (members: string[], port: number): string[] => members.map((m) => `${c.address(m)}:${port}`).sort();
  const byInstance = async (q: string): Promise<string[]> => (await query(prom(), q)).map((s) => s.metric.instance).sort();

  test('reports every target up: 3 apiservers, 2 controller managers, 3 etcd members', async () => {
    const list = await until('every target up', async () => {
      const t = await targets(prom());
      return t.length === 8 && t.every((x) => x.health === 'up') ? t : undefined;
    }, 90_000, 500);
    log('Prometheus targets:');
    for (const t of list) log(`  ${t.labels.job.padEnd(18)} ${t.labels.instance.padEnd(22)} ${t.health}`);
    const jobs = list.map((t) => `${t.labels.job} ${t.labels.instance}`).sort();
    expect(jobs).toEqual(
      [
        ...instances(apiserverMembers(topology), topology.apiserver.securePort).map((i) => `apiserver ${i}`),
        ...instances(topology.controllerManager.members, topology.controllerManager.securePort).map((i) => `controller-manager ${i}`),
        ...instances(topology.etcd.members, topology.etcd.metricsPort).map((i) => `etcd ${i}`),
      ].sort(),
    );
  }, 120_000);

  test('apiserver_request_total comes from all 3 replicas', async () => {
    const q = 'sum by (instance) (apiserver_request_total)';
    const result = await query(prom(), q);
    log(`query ${q}:`);
    for (const s of result) log(`  ${JSON.stringify(s.metric)} ${s.value[1]}`);
    expect(result.map((s) => s.metric.instance).sort()).toEqual(instances(apiserverMembers(topology), topology.apiserver.securePort));
  });

  test('storage objects and watch-cache metrics from every replica', async () => {
    const replicas = instances(apiserverMembers(topology), topology.apiserver.securePort);
    for (const metric of ['apiserver_storage_objects', 'apiserver_watch_cache_events_received_total', 'apiserver_watch_cache_resource_version']) {
      expect({ metric, instances: await byInstance(`count by (instance) (${metric})`) }).toEqual({ metric, instances: replicas });
    }
    const objects = await query(prom(), 'max by (resource) (apiserver_storage_objects)');
    expect(objects.map((s) => s.metric.resource)).toEqual(expect.arrayContaining(['namespaces', 'serviceaccounts', 'clusterroles.rbac.authorization.svc.io']));
  });

  test('leader election from both controller managers (one leads), workqueue_* from the leader', async () => {
    const cms = instances(topology.controllerManager.members, topology.controllerManager.securePort);
    const leader = await query(prom(), 'leader_election_master_status{name="svc-controller-manager"}');
    expect(leader.map((s) => s.metric.instance).sort()).toEqual(cms);
    expect(leader.map((s) => s.value[1]).sort()).toEqual(['0', '1']);
    const leading = leader.find((s) => s.value[1] === '1')?.metric.instance;
    for (const metric of ['workqueue_adds_total', 'workqueue_depth', 'workqueue_retries_total', 'workqueue_queue_duration_seconds_bucket', 'workqueue_work_duration_seconds_bucket']) {
      const found = await until(`${metric} from the leader`, async () => {
        const r = await query(prom(), `count by (instance, name) (${metric})`);
        return r.length > 0 ? r : undefined;
      }, 30_000, 1000);
      expect({ metric, instances: [...new Set(found.map((s) => s.metric.instance))] }).toEqual({ metric, instances: [leading] });
      expect(found.every((s) => s.metric.name !== undefined && s.metric.name !== '')).toBe(true);
    }
  }, 60_000);

  test("etcd's own metrics from every member", async () => {
    const members = instances(topology.etcd.members, topology.etcd.metricsPort);
    for (const metric of ['etcd_server_has_leader', 'etcd_mvcc_db_total_size_in_bytes', 'etcd_disk_wal_fsync_duration_seconds_bucket']) {
      expect({ metric, instances: await byInstance(`count by (instance) (${metric})`) }).toEqual({ metric, instances: members });
    }
    expect((await query(prom(), 'sum(etcd_server_has_leader)'))[0].value[1]).toBe('3');
  });

  test('the rules are loaded and the recording rules produce series', async () => {
    const r = JSON.parse((await getText(`${prom()}/api/v1/rules`)).body) as { data: { groups: { name: string; rules: { health: string }[] }[] } };
    expect(r.data.groups.map((g) => g.name).sort()).toEqual(rulesFile().groups.map((g) => g.name).sort());
    for (const g of r.data.groups) expect(g.rules.map((x) => x.health)).not.toContain('err');
    const series = await until('job:apiserver_request:rate5m', async () => {
      const s = await query(prom(), 'job:apiserver_request:rate5m');
      return s.length > 0 ? s : undefined;
    }, 60_000, 1000);
    expect(series.map((s) => s.metric.job)).toEqual(['apiserver']);
  }, 90_000);

  test('every metric name the rules and the Grafana dashboard query is exported by the servers', async () => {
    const monitoring = new ClusterClient(pki(), client.base, 'monitoring');
    const texts = [
      ...(await Promise.all(apiserverMembers(topology).map(async (m) => (await monitoring.request('GET', '/metrics', undefined, { base: `https://${c.address(m)}:${topology.apiserver.securePort}` })).body))),
      ...(await Promise.all(topology.controllerManager.members.map(async (m) => (await getText(`https://${c.address(m)}:${topology.controllerManager.securePort}/metrics`)).body))),
      ...(await Promise.all(topology.etcd.members.map(async (m) => (await getText(`http://${c.address(m)}:${topology.etcd.metricsPort}/metrics`)).body))),
    ];
    monitoring.agent.destroy();
    const exported = new Set(texts.flatMap((t) => [...exportedNames(t)]));
    exported.add('up'); // Prometheus's own per-target series
    const queried = queriedNames();
    expect(queried.size).toBeGreaterThan(10);
    const missing = [...queried].filter(([name]) => !exported.has(name));
    expect(missing).toEqual([]);
  });
});

describe('faults across hosts', () => {
  let run: FaultRun;
  let final: Map<string, string>;

  beforeAll(async () => {
    try {
      run = await runFaults(c, client, log);
    } catch (e) {
      const tails = c.plan.stages.flat().map((s) => `--- ${s.member}\n${c.tail(s.member, 15)}`).join('\n');
      throw new Error(`${(e as Error).message}\n${tails}`);
    }
    const list = (await client.request('GET', configMapsPath)).json<{ items: { metadata: { name: string; resourceVersion: string } }[] }>();
    final = new Map(list.items.map((i) => [i.metadata.name, i.metadata.resourceVersion]));
    // Every watcher catches up with the final state (or the assertions below say what it lacks).
    await until('every watcher saw every object', async () => run.watchers.every((w) => w.events.length >= final.size || w.errors.length > 0), 90_000).catch(() => undefined);
    run.watchers.forEach((w) => w.stop());
    run.csrWatcher.stop();
    log(`fault figures (${watcherCount} watchers, ${writes} writes, ${csrCount} CSRs):`);
    for (const [k, v] of Object.entries(run.figures)) log(`  ${k}: ${v}`);
  }, 420_000);

  test('every acknowledged write is present afterwards, with the resourceVersion it was acknowledged with', () => {
    expect(run.acknowledged.size + run.appliedUnacknowledged.size).toBe(writes);
    const missing = [...run.acknowledged].filter(([name, rv]) => final.get(name) !== rv);
    expect(missing).toEqual([]);
    expect(final.size).toBe(writes);
  });

  test('every watcher saw every change exactly once and in order, resuming without a 410', () => {
    const expected = [...final].sort((a, b) => Number(BigInt(a[1]) - BigInt(b[1])));
    const wrong = run.watchers
      .map((w, i) => {
        const seen = w.events.map((e) => [e.name, e.resourceVersion]);
        const types = new Set(w.events.map((e) => e.type));
        return { i, errors: w.errors, types: [...types], ok: JSON.stringify(seen) === JSON.stringify(expected) && types.size === 1 && types.has('ADDED'), count: seen.length };
      })
      .filter((r) => !r.ok || r.errors.length > 0);
    expect(wrong).toEqual([]);
    // The kill made some of them resume (the test would prove nothing otherwise).
    expect(run.figures['watchers that reconnected after the kill']).toBeGreaterThan(0);
  });

  test('every approved CSR was issued exactly once (one certificate, never replaced)', async () => {
    const counts = run.csrNames.map((n) => certificatesOf(run.csrWatcher, n).size);
    expect(counts).toEqual(run.csrNames.map(() => 1));
    for (const n of run.csrNames) {
      const cur = (await client.request('GET', `/apis/certificates.svc.io/v1/certificatesigningrequests/${n}`)).json<{ status: { certificate: string } }>();
      expect([...certificatesOf(run.csrWatcher, n)]).toEqual([cur.status.certificate]);
    }
  });

  test('/readyz of the cut-off etcd member went red and came back', () => {
    expect(run.readyz).toEqual({ cutMember: topology.etcd.members[2], red: true, green: true });
  });
});

test('an etcd snapshot (etcdctl snapshot save, over TLS with a client certificate) restores (etcdutl snapshot restore) into a TLS member that serves the same keys', async () => {
  // etcdctl and etcdutl come with etcd (Debian's etcd-client, unpacked beside etcd by scripts/install-etcd.sh).
  const etcdBinary = realpathSync(which('etcd'));
  const bin = dirname(etcdBinary);
  const etcdctl = join(bin, 'etcdctl');
  const etcdutl = join(bin, 'etcdutl');
  const f = pkiFiles(topology, pki());
  // The operator's etcd client identity (docs/operations.md): the etcd CA and the healthcheck-client pair.
  const tls = etcdctlTlsFlags(f);
  const source = topology.etcd.members[0];
  const endpoint = etcdClientUrl(topology, source, (m) => c.address(m));
  const file = join(c.plan.root, 'backup.db');
  const countKeys = (ep: string): number =>
    // -w json carries the total count of the range; --limit keeps the answer small.
    Number(JSON.parse(execFileSync(etcdctl, [`--endpoints=${ep}`, ...tls, 'get', '/registry/', '--prefix', '--limit=1', '-w', 'json'], { encoding: 'utf8' })).count);
  // Without a client certificate the member refuses (--client-cert-auth).
  expect(() => execFileSync(etcdctl, [`--endpoints=${endpoint}`, `--cacert=${f.etcdCaCert}`, '--dial-timeout=2s', '--command-timeout=3s', 'get', '/registry/', '--prefix', '--limit=1'], { stdio: 'ignore' })).toThrow();
  const before = countKeys(endpoint);
  execFileSync(etcdctl, [`--endpoints=${endpoint}`, ...tls, 'snapshot', 'save', file], { stdio: 'ignore' });
  const [client2, peer, metrics] = [await freePort(), await freePort(), await freePort()];
  const restored = join(c.plan.root, 'restored');
  const peerUrl = `https://127.0.0.1:${peer}`;
  const clientUrl = `https://127.0.0.1:${client2}`;
  execFileSync(etcdutl, ['snapshot', 'restore', file, `--data-dir=${restored}`, `--name=${source}`, `--initial-cluster=${source}=${peerUrl}`, `--initial-advertise-peer-urls=${peerUrl}`], { stdio: 'ignore' });
  // The source member's own pairs: they carry 127.0.0.1, as kubeadm's do.
  const etcd = spawn(etcdBinary, [
    `--name=${source}`,
    `--data-dir=${restored}`,
    `--listen-client-urls=${clientUrl}`,
    `--advertise-client-urls=${clientUrl}`,
    `--listen-peer-urls=${peerUrl}`,
    `--initial-advertise-peer-urls=${peerUrl}`,
    `--initial-cluster=${source}=${peerUrl}`,
    `--listen-metrics-urls=http://127.0.0.1:${metrics}`,
    `--cert-file=${f.etcdServerCert(source)}`,
    `--key-file=${f.etcdServerKey(source)}`,
    `--trusted-ca-file=${f.etcdCaCert}`,
    '--client-cert-auth=true',
    `--peer-cert-file=${f.etcdPeerCert(source)}`,
    `--peer-key-file=${f.etcdPeerKey(source)}`,
    `--peer-trusted-ca-file=${f.etcdCaCert}`,
    '--peer-client-cert-auth=true',
  ], { stdio: 'ignore' });
  try {
    await until('the restored member healthy', async () => (await getText(`http://127.0.0.1:${metrics}/health`)).status === 200, 30_000);
    const after = countKeys(clientUrl);
    log(`backup: ${before} keys under /registry/ saved from ${topology.etcd.members[0]}, ${after} served by the restored member`);
    expect(after).toBe(before);
    expect(before).toBeGreaterThan(0);
  } finally {
    etcd.kill('SIGKILL');
  }
}, 60_000);
