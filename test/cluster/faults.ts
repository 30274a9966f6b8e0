// The fault run of test/cluster/cluster.test.ts: 100 resuming watchers through the load balancer
// and a writer of 2,000 ConfigMaps, while one apiserver host is SIGKILLed and restarted, one etcd
// member is cut off the network and restored, and the leading controller manager is killed with
// 50 approved CSRs pending. Returns what happened; the test asserts on it.
import type { LocalCluster } from '../../deploy/cluster/runner';
import { apiserverMembers, topology } from '../../deploy/topology';
import { clientUsages, csrManifest, csrPath, signers } from '../e2e/support/csrs';
import { makeCsr } from '../e2e/support/openssl';
import { getText, sleep, until, type ClusterClient } from './support/client';
import { ResumingWatcher } from './support/watcher';

export const writes = 2000;
export const watcherCount = 100;
export const csrCount = 50;
const writerConcurrency = 4;
const namespace = 'fault';
export const configMapsPath = `/api/v1/namespaces/${namespace}/configmaps`;

export interface FaultRun {
  /** name → resourceVersion of every write answered 201. */
  acknowledged: Map<string, string>;
  /** Writes answered 409 AlreadyExists on a retry: applied by an attempt whose answer was lost. */
  appliedUnacknowledged: Set<string>;
  failedAttempts: number;
  watchers: ResumingWatcher[];
  csrWatcher: ResumingWatcher;
  csrNames: string[];
  /** Certificates present when the leader was killed. */
  issuedBeforeKill: number;
  readyz: { cutMember: string; red: boolean; green: boolean };
  /** Recovery times in ms and other figures for the report. */
  figures: Record<string, number | string>;
}

const lease = 'svc-controller-manager';

async function isLeader(c: LocalCluster, member: string): Promise<boolean> {
  if (c.pid(member) === undefined) return false;
  try {
    const r = await getText(`https://${c.address(member)}:${topology.controllerManager.securePort}/metrics`);
    return new RegExp(`^leader_election_master_status\\{name="${lease}"\\} 1$`, 'm').test(r.body);
  } catch {
    return false;
  }
}

/** The member's own /readyz on its metrics listener, asked from inside its namespace (the host cannot reach it while it is cut off). */
function readyzInside(c: LocalCluster, member: string): number {
  const url = `http://${c.address(member)}:${topology.etcd.metricsPort}/readyz`;
  const script = "require('http').get(process.argv[1],{timeout:3000},r=>{console.log(r.statusCode);process.exit(0)}).on('error',()=>{console.log(0);process.exit(0)}).on('timeout',function(){this.destroy()})";
  return Number(c.execIn(member, [process.execPath, '-e', script, url]).trim());
}

class Gate {
  private open!: () => void;
  readonly opened = new Promise<void>((r) => (this.open = r));
  constructor(readonly at: number) {}
  release(): void {
    this.open();
  }
}

export async function runFaults(c: LocalCluster, client: ClusterClient, log: (line: string) => void): Promise<FaultRun> {
  const streams: ResumingWatcher[] = [];
  try {
    return await faults(c, client, log, streams);
  } catch (e) {
    // Nothing keeps running after a failure (jest would wait on the open streams).
    streams.forEach((w) => w.stop());
    throw e;
  }
}

async function faults(c: LocalCluster, client: ClusterClient, log: (line: string) => void, streams: ResumingWatcher[]): Promise<FaultRun> {
  const figures: FaultRun['figures'] = {};
  const ns = await client.request('POST', '/api/v1/namespaces', { metadata: { name: namespace } });
  if (ns.status !== 201) throw new Error(`create namespace: ${ns.status} ${ns.body}`);
  const listRv = (await client.request('GET', configMapsPath)).json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
  const watchers = Array.from({ length: watcherCount }, () => new ResumingWatcher(client, configMapsPath, listRv));
  watchers.forEach((w) => w.start());
  const csrRv = (await client.request('GET', csrPath)).json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
  const csrWatcher = new ResumingWatcher(client, csrPath, csrRv);
  csrWatcher.start();
  streams.push(...watchers, csrWatcher);
  await until('every watcher connected', async () => watchers.every((w) => w.connected) && csrWatcher.connected, 60_000);

  // The writer: creates cm-0 … cm-1999 with a few workers, pausing at each gate until the fault
  // sequence opens it (so writes run during every fault, and the last 200 after all of them).
  const gates = [300, 800, 1300, 1800].map((at) => new Gate(at));
  const acknowledged = new Map<string, string>();
  const appliedUnacknowledged = new Set<string>();
  let failedAttempts = 0;
  let next = 0;
  const writeOne = async (i: number): Promise<void> => {
    const name = `cm-${i}`;
    for (let attempt = 0; ; attempt++) {
      let status = 0;
      try {
        const r = await client.request('POST', configMapsPath, { metadata: { name }, data: { i: String(i) } }, { timeoutMs: 20_000 });
        status = r.status;
        if (r.status === 201) {
          acknowledged.set(name, r.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion);
          return;
        }
        if (r.status === 409 && attempt > 0) {
          appliedUnacknowledged.add(name);
          return;
        }
      } catch {
        // connection reset or timeout: the write may or may not have happened; retry decides
      }
      failedAttempts++;
      if (attempt > 300) throw new Error(`write ${name}: still failing (last status ${status}) after ${attempt} attempts`);
      await sleep(100);
    }
  };
  const worker = async (): Promise<void> => {
    for (;;) {
      const i = next++;
      if (i >= writes) return;
      for (const g of gates) if (i >= g.at) await g.opened;
      await writeOne(i);
    }
  };
  const writer = Promise.all(Array.from({ length: writerConcurrency }, worker));
  const writtenAtLeast = (n: number): Promise<unknown> => until(`${n} writes`, async () => acknowledged.size + appliedUnacknowledged.size >= n, 120_000, 50);

  // 1. SIGKILL one apiserver host, then start it again.
  await writtenAtLeast(gates[0].at);
  const victim = apiserverMembers(topology)[1];
  const killedAt = Date.now();
  await c.kill(victim, 'SIGKILL');
  log(`fault: SIGKILLed ${victim}`);
  gates[0].release();
  await until('every watcher resumed', async () => watchers.some((w) => w.gaps.some(([end]) => end >= killedAt)) && watchers.every((w) => w.connected), 60_000, 50);
  figures['apiserver SIGKILL → every watcher resumed (ms)'] = Date.now() - killedAt;
  const restartAt = Date.now();
  await c.start(victim);
  figures['apiserver restart → its /readyz 200 (ms)'] = Date.now() - restartAt;
  const resumedGaps = watchers.flatMap((w) => w.gaps.filter(([end]) => end >= killedAt));
  figures['watchers that reconnected after the kill'] = new Set(watchers.filter((w) => w.gaps.some(([end]) => end >= killedAt))).size;
  figures['longest watch gap after the kill (ms)'] = Math.max(0, ...resumedGaps.map(([a, b]) => b - a));

  // 2. Cut one etcd member off the network, then restore it.
  await writtenAtLeast(gates[1].at);
  const cut = topology.etcd.members[2];
  const readyz = { cutMember: cut, red: false, green: false };
  if (readyzInside(c, cut) !== 200) throw new Error(`${cut} /readyz not 200 before the cut`);
  const ackedBeforeCut = acknowledged.size;
  const cutAt = Date.now();
  c.setLink(cut, 'down');
  log(`fault: ${cut} cut off (link down)`);
  gates[1].release();
  await until(`${cut} /readyz red`, async () => readyzInside(c, cut) !== 200, 60_000, 250);
  readyz.red = true;
  figures['etcd cut → its /readyz red (ms)'] = Date.now() - cutAt;
  // Held until the cluster has shown it keeps accepting writes without the member.
  await writtenAtLeast(gates[2].at - 100);
  figures['writes acknowledged while the member was cut off'] = acknowledged.size - ackedBeforeCut;
  figures['etcd member cut off for (ms)'] = Date.now() - cutAt;
  const restoredAt = Date.now();
  c.setLink(cut, 'up');
  await until(`${cut} /readyz green again`, async () => readyzInside(c, cut) === 200, 120_000, 250);
  readyz.green = true;
  figures['etcd link restored → its /readyz 200 (ms)'] = Date.now() - restoredAt;

  // Compose restarts a member that exited (restart: unless-stopped); the twin has no supervisor,
  // so the test does it. A controller manager exits when it cannot renew its lease within
  // --leader-elect-renew-deadline, as upstream's does.
  const exited = c.plan.stages.flat().map((s) => s.member).filter((m) => c.pid(m) === undefined);
  for (const m of exited) await c.start(m);
  figures['members that exited during the cut (restarted as compose would)'] = exited.join(', ') || 'none';

  // 3. Kill the leading controller manager while 50 approved CSRs wait for a certificate.
  await writtenAtLeast(gates[2].at);
  const cms = topology.controllerManager.members;
  const leader = await until('a leading controller manager', async () => {
    for (const m of cms) if (await isLeader(c, m)) return m;
    return undefined;
  }, 60_000);
  const csr = makeCsr('ecdsa', '/CN=fault-user/O=fault-group');
  const csrNames = Array.from({ length: csrCount }, (_, i) => `fault-csr-${i}`);
  await Promise.all(
    csrNames.map(async (name) => {
      const r = await client.request('POST', csrPath, csrManifest(name, { request: csr.csrPem, signerName: signers.client, usages: clientUsages }));
      if (r.status !== 201) throw new Error(`create ${name}: ${r.status} ${r.body}`);
    }),
  );
  // Approve all 50 (pending issuance), then kill the leader at once.
  await Promise.all(csrNames.map((name) => approve(client, name)));
  const cmKilledAt = Date.now();
  await c.kill(leader, 'SIGKILL');
  const issuedBeforeKill = csrNames.filter((n) => certificatesOf(csrWatcher, n).size > 0).length;
  log(`fault: SIGKILLed the leading ${leader} (${issuedBeforeKill} of ${csrCount} CSRs were issued by then)`);
  gates[2].release();
  const successor = cms.find((m) => m !== leader) ?? '';
  await until(`${successor} leading`, () => isLeader(c, successor), 120_000, 250);
  figures['controller manager SIGKILL → new leader (ms)'] = Date.now() - cmKilledAt;
  await until('every CSR issued', async () => csrNames.every((n) => certificatesOf(csrWatcher, n).size > 0), 120_000, 250);
  figures['controller manager SIGKILL → all 50 CSRs issued (ms)'] = Date.now() - cmKilledAt;
  figures['CSRs issued before the kill'] = issuedBeforeKill;
  await c.start(leader);

  gates[3].release();
  await writer;
  figures['failed write attempts (retried)'] = failedAttempts;
  return { acknowledged, appliedUnacknowledged, failedAttempts, watchers, csrWatcher, csrNames, issuedBeforeKill, readyz, figures };
}

async function approve(client: ClusterClient, name: string): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const cur = (await client.request('GET', `${csrPath}/${name}`)).json<{ status?: { conditions?: unknown[] } }>();
    const status = { ...(cur.status ?? {}), conditions: [...(cur.status?.conditions ?? []), { type: 'Approved', status: 'True', reason: 'FaultTest', message: 'approved by the cluster fault test' }] };
    const r = await client.request('PUT', `${csrPath}/${name}/approval`, { ...cur, status });
    if (r.status === 200) return;
    if (r.status !== 409) throw new Error(`approve ${name}: ${r.status} ${r.body}`);
  }
  throw new Error(`approve ${name}: conflicts`);
}

/** Every distinct status.certificate the watcher saw on one CSR. */
export function certificatesOf(w: ResumingWatcher, name: string): Set<string> {
  const out = new Set<string>();
  for (const e of w.events) {
    if (e.name !== name) continue;
    const cert = (e.object as { status?: { certificate?: string } }).status?.certificate;
    if (cert) out.add(cert);
  }
  return out;
}
