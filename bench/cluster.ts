// The processes under test: one etcd (lib/etcd/testing's startEtcd, data dir on tmpfs when there
// is one) and one svc-apiserver (the built binary, node bin/svc-apiserver), plus extra apiservers
// on the same etcd and PKI when a phase compares flags, svc-controller-manager against the first
// apiserver, and what the bench reads about them from /proc: resident memory and CPU time.
import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { controllerManagerFlags } from '../cmd/controller-manager/options';
import { groups } from '../lib/api/product';
import { freePort, startEtcd, EtcdServer } from '../lib/etcd/testing/etcdServer';

export { freePort };
import { HttpsClient } from './httpsClient';

/** Repository root (the nearest package.json up), from dist/bench/bench/*.js or bench/*.ts alike. */
export const repoRoot = ((): string => {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${__dirname}`);
  }
})();


/** Resident set size of a process in bytes (VmRSS), 0 when it is gone. */
export function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Median of a few RSS samples taken 200 ms apart (single samples of a GC'd heap are noisy). */
export async function steadyRss(pid: number, samples = 5): Promise<number> {
  const v: number[] = [];
  for (let i = 0; i < samples; i++) {
    v.push(rssBytes(pid));
    await new Promise((r) => setTimeout(r, 200));
  }
  return v.sort((a, b) => a - b)[samples >> 1];
}

/** The sum of a metric's samples on the server's /metrics; undefined when it has none. */
export async function metricSum(client: HttpsClient, name: string): Promise<number | undefined> {
  const text = (await client.expect('GET', '/metrics', [200])).text();
  let total: number | undefined;
  for (const m of text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'gm'))) total = (total ?? 0) + Number(m[1]);
  return total;
}

/** The server's malloc_trim calls; undefined when it has no malloc_trim (no C compiler, an earlier revision). */
export function mallocTrims(client: HttpsClient): Promise<number | undefined> {
  return metricSum(client, 'apiserver_malloc_trims_total');
}

/**
 * Waits (up to 15 s) for the server's next malloc_trim after a count taken before a full GC: the
 * server trims within 10 s of a full GC (cmd/freedMemory.ts), so RSS read after the GC is read
 * once the freed pages went back, as they do on a running server. A trim pending from an earlier
 * GC that fires during the GC ends the wait early; the RSS read then is higher, never lower.
 */
export async function awaitMallocTrim(client: HttpsClient, before: number | undefined): Promise<void> {
  if (before === undefined) return;
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (((await mallocTrims(client)) ?? 0) > before) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The apiserver's V8 heap in use, from its own /metrics. */
export async function heapUsed(client: HttpsClient): Promise<number> {
  return (await metricSum(client, 'nodejs_heap_size_used_bytes')) ?? NaN;
}

/** User + system CPU seconds a process (or one of its threads, tid) has used (/proc/<pid>[/task/<tid>]/stat, 100 ticks/s). */
export function cpuSeconds(pid: number, tid?: number): number {
  try {
    const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The pid of the etcd started on dataDir (startEtcd does not expose it): found by its command line. */
function findEtcdPid(dataDir: string): number {
  const needle = `--data-dir=${join(dataDir, 'data')}`;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmd.includes(needle)) return Number(entry);
    } catch {
      // raced with an exiting process
    }
  }
  throw new Error(`cannot find the pid of etcd on ${dataDir}`);
}

export interface Cluster {
  etcd: EtcdServer;
  etcdPid: number;
  apiserverPid: number;
  apiserverUrl: string;
  pkiDir: string;
  /** Scratch directory (PKI, logs), removed by stop(). */
  dir: string;
  client: HttpsClient;
  /** The apiserver's log file (one JSON line per request goes there, not through the bench). */
  logFile: string;
  stop(): Promise<void>;
}

/**
 * profileDir: run the apiserver with --cpu-prof; its .cpuprofile is written there when it exits.
 * nodeArgs: node's own options. root: the repository whose build runs (another revision's, for a
 * before-and-after on one machine).
 */
export async function startCluster(maxSockets: number, profileDir?: string, extraArgs: readonly string[] = [], nodeArgs: readonly string[] = [], root = repoRoot): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const etcd = await startEtcd();
  const etcdPid = findEtcdPid(etcd.dataDir);
  const port = await freePort();
  const pkiDir = join(dir, 'pki');
  const logFile = join(dir, 'apiserver.log');
  let stopApiserver: (() => Promise<void>) | undefined;
  const stop = async (): Promise<void> => {
    await stopApiserver?.();
    await etcd.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Compaction off: a compaction in the middle of a measurement would be noise.
    const args = [
      ...nodeArgs,
      ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      join(root, 'bin/svc-apiserver'),
      `--etcd-servers=${etcd.endpoint}`,
      '--bind-address=127.0.0.1',
      `--secure-port=${port}`,
      `--cert-dir=${pkiDir}`,
      `--write-kubeconfig=${join(dir, 'admin.kubeconfig')}`,
      '--etcd-compaction-interval=0',
      ...extraArgs,
    ];
    const spawned = spawnLogged(args, logFile);
    stopApiserver = spawned.stop;
    const url = `https://127.0.0.1:${port}`;
    const client = await waitReady(spawned.child, url, pkiDir, maxSockets, logFile);
    return { etcd, etcdPid, apiserverPid: spawned.child.pid!, apiserverUrl: url, pkiDir, dir, client, logFile, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Polls /readyz with the admin certificate (once the PKI is written) until 200, or throws with the log's tail. */
async function waitReady(child: ChildProcess, url: string, pkiDir: string, maxSockets: number, logFile: string): Promise<HttpsClient> {
  const deadline = Date.now() + 30_000;
  let client: HttpsClient | undefined;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`svc-apiserver exited with ${child.exitCode}:\n${tail(logFile)}`);
    try {
      client ??= HttpsClient.fromPki(url, pkiDir, maxSockets);
      const r = await client.request('GET', '/readyz');
      if (r.status === 200) return client;
    } catch {
      client = undefined; // PKI not written yet, or not listening yet
    }
    if (Date.now() > deadline) throw new Error(`svc-apiserver not ready in 30 s:\n${tail(logFile)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface ExtraApiserver {
  pid: number;
  url: string;
  /** Admin (system:masters) client of this server. */
  client: HttpsClient;
  logFile: string;
  stop(): Promise<void>;
}

/**
 * Another svc-apiserver on the cluster's etcd, serving with the first one's CA, serving
 * certificate and service-account key (--cert-dir, where the first one generated sa.key), plus
 * extraArgs (e.g. another --authorization-mode). Its log goes to the cluster's dir. root: the
 * repository whose build runs (another revision's, for a baseline). nodeArgs: node's own options
 * (before the script), e.g. --inspect for the scale run's GC and heap snapshots.
 */
export async function startExtraApiserver(cluster: Cluster, extraArgs: readonly string[], maxSockets: number, root = repoRoot, nodeArgs: readonly string[] = []): Promise<ExtraApiserver> {
  const port = await freePort();
  const pki = cluster.pkiDir;
  const logFile = join(cluster.dir, `apiserver-${port}.log`);
  const args = [
    ...nodeArgs,
    join(root, 'bin/svc-apiserver'),
    `--etcd-servers=${cluster.etcd.endpoint}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${port}`,
    `--cert-dir=${pki}`,
    `--client-ca-file=${join(pki, 'ca.crt')}`,
    `--tls-cert-file=${join(pki, 'apiserver.crt')}`,
    `--tls-private-key-file=${join(pki, 'apiserver.key')}`,
    '--etcd-compaction-interval=0',
    ...extraArgs,
  ];
  const { child, stop } = spawnLogged(args, logFile);
  try {
    const url = `https://127.0.0.1:${port}`;
    const client = await waitReady(child, url, pki, maxSockets, logFile);
    return { pid: child.pid!, url, client, logFile, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

export interface ControllerManager {
  pid: number;
  /** Its /healthz and /metrics (HTTPS with the apiserver's serving certificate, so the cluster CA verifies it). */
  url: string;
  /** The leader-election identity it holds the Lease with. */
  identity: string;
  /** From spawning the process to seeing it hold the Lease (ms). */
  leaseHeldAfterMs: number;
  logFile: string;
  /** Graceful (SIGTERM: it hands the Lease back), SIGKILL after 5 s. */
  stop(): Promise<void>;
}

/** The controller manager's leader-election Lease, where its flag defaults put it. */
export function controllerManagerLease(): { namespace: string; name: string } {
  const flag = (name: string): string => String(controllerManagerFlags.find((f) => f.name === name)?.default ?? '');
  return { namespace: flag('leader-elect-resource-namespace'), name: flag('leader-elect-resource-name') };
}

/**
 * svc-controller-manager (the built binary) against the cluster's apiserver with the
 * credentials the apiserver wrote next to its admin kubeconfig, signing with the cluster CA,
 * leader election on; resolves once it holds the Lease: the Lease names a holder from this host
 * and the process's own leader_election_master_status says 1. Its log goes to the cluster's dir.
 */
export async function startControllerManager(cluster: Cluster, extraArgs: readonly string[] = []): Promise<ControllerManager> {
  const pki = cluster.pkiDir;
  const port = await freePort();
  const logFile = join(cluster.dir, 'controller-manager.log');
  const args = [
    join(repoRoot, 'bin/svc-controller-manager'),
    `--kubeconfig=${join(cluster.dir, 'controller-manager.kubeconfig')}`,
    `--cluster-signing-cert-file=${join(pki, 'ca.crt')}`,
    `--cluster-signing-key-file=${join(pki, 'ca.key')}`,
    '--leader-elect=true',
    '--bind-address=127.0.0.1',
    `--secure-port=${port}`,
    `--tls-cert-file=${join(pki, 'apiserver.crt')}`,
    `--tls-private-key-file=${join(pki, 'apiserver.key')}`,
    ...extraArgs,
  ];
  const started = Date.now();
  const { child, stop } = spawnLogged(args, logFile);
  const url = `https://127.0.0.1:${port}`;
  const metrics = cluster.client.withBase(url, 1);
  const lease = controllerManagerLease();
  const leasePath = `/apis/${groups.coordination}/v1/namespaces/${lease.namespace}/leases/${lease.name}`;
  const leaderGauge = new RegExp(`^leader_election_master_status\\{name="${lease.name}"\\} 1$`, 'm');
  try {
    const deadline = started + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`svc-controller-manager exited with ${child.exitCode}:\n${tail(logFile)}`);
      const r = await cluster.client.request('GET', leasePath);
      const holder = r.status === 200 ? (r.json<{ spec?: { holderIdentity?: string } }>().spec?.holderIdentity ?? '') : '';
      if (holder.startsWith(`${hostname()}_`)) {
        const m = await metrics.request('GET', '/metrics').catch(() => undefined);
        if (m?.status === 200 && leaderGauge.test(m.text())) return { pid: child.pid!, url, identity: holder, leaseHeldAfterMs: Date.now() - started, logFile, stop };
      }
      if (Date.now() > deadline) throw new Error(`svc-controller-manager does not hold the Lease ${lease.namespace}/${lease.name} after 30 s (holder "${holder}"):\n${tail(logFile)}`);
      await new Promise((res) => setTimeout(res, 100));
    }
  } catch (e) {
    await stop();
    throw e;
  } finally {
    metrics.agent.destroy();
  }
}

/**
 * `node <args>` with stdout and stderr appended to logFile, killed if the bench exits first;
 * stop() sends SIGTERM (the processes shut down gracefully) and SIGKILL after 5 s.
 */
function spawnLogged(args: readonly string[], logFile: string): { child: ChildProcess; stop(): Promise<void> } {
  const logFd = openSync(logFile, 'a');
  const child = spawn(process.execPath, args, { stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const stop = async (): Promise<void> => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((res) => {
      child.once('exit', () => res());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
  };
  return { child, stop };
}

export function tail(file: string, bytes = 4000): string {
  try {
    return readFileSync(file, 'utf8').slice(-bytes);
  } catch {
    return '';
  }
}
