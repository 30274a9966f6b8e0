// Starts the real svc-controller-manager binary (node bin/svc-controller-manager) against a test
// cluster, with the controller-manager.kubeconfig the apiserver writes next to its admin kubeconfig
// and the cluster CA as signing CA, and reads its /healthz and /metrics.
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as https from 'node:https';
import { dirname, join } from 'node:path';
import { eventually, freePort, repoRoot, type TestCluster } from './apiserver';

const binary = join(repoRoot, 'bin/svc-controller-manager');

/** Leader-election timings that keep failover tests short (lease 4 s, renew 3 s, retry 1 s). */
export const fastLeaderElection = ['--leader-elect-lease-duration=4s', '--leader-elect-renew-deadline=3s', '--leader-elect-retry-period=1s'];

/** The Lease the controller manager elects on (its defaults). */
export const leaderLeasePath = '/apis/coordination.svc.io/v1/namespaces/svc-system/leases/svc-controller-manager';

export interface ServedResponse {
  status: number;
  body: string;
}

export interface ControllerManagerOptions {
  /** Flags added after the defaults (a later flag wins over an earlier one). */
  extraArgs?: string[];
  /** Serve /healthz and /metrics on a free port (default); false passes --secure-port=0. */
  serve?: boolean;
  /** Pass --cluster-signing-cert-file/--cluster-signing-key-file with the cluster CA (default true). */
  signing?: boolean;
}

export class ControllerManagerProcess {
  private child?: ChildProcess;
  private output = '';
  private port = 0;
  private exit?: Promise<number | null>;

  constructor(
    readonly cluster: Pick<TestCluster, 'dir' | 'apiserver'>,
    readonly opts: ControllerManagerOptions = {},
  ) {}

  /** Everything the process wrote to stdout and stderr so far (its JSON log is flushed about once a second). */
  get logs(): string {
    return this.output;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** https://127.0.0.1:<port> of /healthz and /metrics. */
  get url(): string {
    return `https://127.0.0.1:${this.port}`;
  }

  /** Spawns the process; resolves once /healthz answers 200 (or at once with serve: false). */
  async start(): Promise<void> {
    const kubeconfig = controllerManagerKubeconfig(this.cluster);
    await eventually(async () => existsSync(kubeconfig), 10_000, `${kubeconfig} written by the apiserver`);
    const serve = this.opts.serve ?? true;
    if (serve) this.port = await freePort();
    const pki = join(this.cluster.dir, 'pki');
    const args = [
      binary,
      `--kubeconfig=${kubeconfig}`,
      '--bind-address=127.0.0.1',
      `--secure-port=${serve ? this.port : 0}`,
      ...((this.opts.signing ?? true) ? [`--cluster-signing-cert-file=${join(pki, 'ca.crt')}`, `--cluster-signing-key-file=${join(pki, 'ca.key')}`] : []),
      ...(this.opts.extraArgs ?? []),
    ];
    this.output = '';
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.exit = new Promise((res) => child.once('exit', (code) => res(code)));
    child.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
    if (!serve) return;
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (!this.running) throw new Error(`svc-controller-manager exited with ${child.exitCode}:\n${this.output}`);
      try {
        if ((await this.get('/healthz')).status === 200) return;
      } catch {
        // not serving yet
      }
      if (Date.now() > deadline) throw new Error(`svc-controller-manager /healthz not ok in 20 s:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** GET on its HTTPS endpoint (self-signed certificate: not verified). */
  get(path: string): Promise<ServedResponse> {
    return new Promise((res, rej) => {
      const req = https.request(`${this.url}${path}`, { method: 'GET', rejectUnauthorized: false }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => res({ status: r.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        r.on('error', rej);
      });
      req.on('error', rej);
      req.end();
    });
  }

  /** The value of one sample in /metrics, e.g. metric('leader_election_master_status', { name: 'svc-controller-manager' }). */
  async metric(name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
    return metricValue((await this.get('/metrics')).body, name, labels);
  }

  /** Whether /metrics says this process holds the lease (leader_election_master_status 1). */
  async isLeader(): Promise<boolean> {
    try {
      return (await this.metric('leader_election_master_status', { name: 'svc-controller-manager' })) === 1;
    } catch {
      return false;
    }
  }

  /** The leader-election identity, from the log line that announces the start. */
  async identity(): Promise<string> {
    return eventually(
      async () => {
        const line = this.output.split('\n').find((l) => l.includes('"msg":"starting"'));
        return line ? (JSON.parse(line) as { identity?: string }).identity : undefined;
      },
      5_000,
      'the controller manager to log its identity',
    );
  }

  /** Sends `signal` and waits for the exit; resolves to the exit code (null when killed by a signal). */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const child = this.child;
    if (!child || !this.exit) return null;
    if (this.running) child.kill(signal);
    return this.exit;
  }

  /** Resolves with the exit code once the process ends on its own. */
  exited(): Promise<number | null> {
    return this.exit ?? Promise.resolve(null);
  }
}

/** Where the apiserver writes the controller manager's credentials: next to --write-kubeconfig. */
export function controllerManagerKubeconfig(cluster: Pick<TestCluster, 'apiserver'>): string {
  return join(dirname(cluster.apiserver.kubeconfig), 'controller-manager.kubeconfig');
}

/** Starts a controller manager and waits until it serves /healthz. */
export async function startControllerManager(cluster: Pick<TestCluster, 'dir' | 'apiserver'>, opts: ControllerManagerOptions = {}): Promise<ControllerManagerProcess> {
  const cm = new ControllerManagerProcess(cluster, opts);
  await cm.start();
  return cm;
}

/** Runs the binary to completion (bad flags, --help): exit code and output. */
export function runControllerManager(args: string[], timeoutMs = 20_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res) => {
    execFile(process.execPath, [binary, ...args], { timeout: timeoutMs }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      res({ code, stdout, stderr });
    });
  });
}

/** One sample of a Prometheus text exposition whose labels include `labels`; undefined when absent. */
export function metricValue(exposition: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of exposition.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([^}]*)\})?\s+(\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[3] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[4]);
  }
  return undefined;
}
