// Starts a throwaway 3-member etcd cluster on 127.0.0.1 for failover tests: which member leads,
// and signals to one member (SIGSTOP keeps its sockets open and silent, as a `docker kill`ed
// container or a dropped network path does; SIGKILL closes them).
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { defaultBaseDir, findEtcdBinary, healthy, reservedPort } from './etcdServer';

export interface ClusterMember {
  name: string;
  /** Client URL, e.g. http://127.0.0.1:41234. */
  endpoint: string;
  readonly process: ChildProcess;
}

export interface EtcdCluster {
  members: ClusterMember[];
  /** The member that leads now (asks each live member's status until one names a leader it knows; 30 s at most). */
  leader(): Promise<ClusterMember>;
  /** SIGCONT, SIGKILL and wait for every member; removes the data dirs. Idempotent. */
  stop(): Promise<void>;
}

export interface StartClusterOptions {
  size?: number;
  binary?: string;
  baseDir?: string;
  extraArgs?: string[];
  readyTimeoutMs?: number;
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of running) c.kill('SIGKILL');
});

export async function startEtcdCluster(opts: StartClusterOptions = {}): Promise<EtcdCluster> {
  const size = opts.size ?? 3;
  const binary = findEtcdBinary(opts.binary);
  const dir = mkdtempSync(join(opts.baseDir ?? defaultBaseDir(), 'etcd-cluster-'));
  const ports = await Promise.all(Array.from({ length: size * 2 }, () => reservedPort()));
  const names = Array.from({ length: size }, (_, i) => `m${i}`);
  const peer = (i: number): string => `http://127.0.0.1:${ports[2 * i + 1].port}`;
  const client = (i: number): string => `http://127.0.0.1:${ports[2 * i].port}`;
  const initialCluster = names.map((n, i) => `${n}=${peer(i)}`).join(',');
  await Promise.all(ports.map((p) => p.release()));
  const members: ClusterMember[] = names.map((name, i) => {
    const child = spawn(
      binary,
      [
        `--name=${name}`,
        `--data-dir=${join(dir, name)}`,
        `--listen-client-urls=${client(i)}`,
        `--advertise-client-urls=${client(i)}`,
        `--listen-peer-urls=${peer(i)}`,
        `--initial-advertise-peer-urls=${peer(i)}`,
        `--initial-cluster=${initialCluster}`,
        '--initial-cluster-state=new',
        '--initial-cluster-token=test',
        '--logger=zap',
        '--log-level=error',
        ...(opts.extraArgs ?? []),
      ],
      { stdio: 'ignore' },
    );
    running.add(child);
    child.once('exit', () => running.delete(child));
    return { name, endpoint: client(i), process: child };
  });
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await Promise.all(
      members.map(async (m) => {
        const c = m.process;
        if (c.exitCode !== null || c.signalCode !== null) return;
        const exited = new Promise((r) => c.once('exit', r));
        c.kill('SIGCONT');
        c.kill('SIGKILL');
        await exited;
      }),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  const cluster: EtcdCluster = {
    members,
    stop,
    async leader() {
      const deadline = Date.now() + 30_000;
      for (;;) {
        if (Date.now() > deadline) throw new Error('etcd cluster: no leader within 30 s');
        for (const m of members) {
          if (m.process.exitCode !== null || m.process.signalCode !== null) continue;
          const s = await status(m.endpoint).catch(() => undefined);
          if (!s || s.leader === '0') continue;
          for (const other of members) {
            const o = await status(other.endpoint).catch(() => undefined);
            if (o?.memberId === s.leader) return other;
          }
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
  try {
    const deadline = Date.now() + (opts.readyTimeoutMs ?? 30_000);
    for (const m of members) {
      while (!(await healthy(m.endpoint))) {
        if (Date.now() > deadline) throw new Error(`etcd cluster member ${m.name} not healthy at ${m.endpoint}`);
        if (m.process.exitCode !== null) throw new Error(`etcd cluster member ${m.name} exited (code ${m.process.exitCode})`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return cluster;
}

function post(url: string, timeoutMs: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', timeout: timeoutMs, headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.end('{}');
  });
}

// The JSON gateway's Maintenance.Status: this member's id and the leader's (uint64s as strings).
async function status(endpoint: string): Promise<{ memberId: string; leader: string }> {
  const r = await post(`${endpoint}/v3/maintenance/status`, 500);
  const j = JSON.parse(r.body) as { header?: { member_id?: string }; leader?: string };
  return { memberId: j.header?.member_id ?? '', leader: j.leader ?? '0' };
}

