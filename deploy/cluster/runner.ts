// Carries out a ClusterPlan: builds the network, writes the PKI and configs, starts every member
// detached (it outlives `make cluster`), waits for each stage's health, and records what it made
// in <root>/state.json so that `make cluster-down` (another process) removes exactly that. The
// fault tests drive the same object: kill or restart a member, cut its link and restore it.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as path from 'node:path';
import { linkCommand, networkDownCommands, networkUpCommands, type Command } from './network';
import { hostOf, processOf, type ClusterPlan, type ProcessSpec } from './plan';

export interface ClusterState {
  plan: ClusterPlan;
  pids: Record<string, number>;
}

const stateFile = (root: string): string => path.join(root, 'state.json');

export type Log = (line: string) => void;

function run(cmd: Command): void {
  execFileSync(cmd[0], cmd.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
}

function tryRun(cmd: Command): void {
  try {
    run(cmd);
  } catch {
    // already gone
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie (exited, not yet reaped by its parent) is not running.
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The argv without the `ip netns exec <ns>` wrapper: what /proc/<pid>/cmdline shows after exec. */
const programArgv = (argv: string[]): string[] => (argv[0] === 'ip' && argv[1] === 'netns' && argv[2] === 'exec' ? argv.slice(4) : argv);

/** Whether pid still runs the member's command (a recorded pid may have been reused). */
function runs(pid: number, spec: ProcessSpec): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join('\0') === programArgv(spec.argv).join('\0');
  } catch {
    return false;
  }
}

/** One GET; the status, or 0 when nothing answered. TLS is not verified: this is a liveness probe. */
export function probe(url: string, timeoutMs = 2000): Promise<number> {
  return new Promise((resolve) => {
    const get = url.startsWith('https:') ? https.get : http.get;
    const req = get(url, { rejectUnauthorized: false, timeout: timeoutMs }, (r) => {
      r.resume();
      resolve(r.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

export class LocalCluster {
  private constructor(
    readonly plan: ClusterPlan,
    private readonly pids: Record<string, number>,
    private readonly log: Log,
  ) {}

  /** The cluster recorded under root, if one is. */
  static load(root: string, log: Log): LocalCluster | undefined {
    if (!existsSync(stateFile(root))) return undefined;
    const s = JSON.parse(readFileSync(stateFile(root), 'utf8')) as ClusterState;
    return new LocalCluster(s.plan, s.pids, log);
  }

  /** Builds and starts everything; on failure removes what it made and throws. */
  static async up(plan: ClusterPlan, log: Log, opts: { readyTimeoutMs?: number } = {}): Promise<LocalCluster> {
    // Leftovers of a run that died (same names) go first.
    LocalCluster.load(plan.root, log)?.removeProcessesAndNetwork();
    new LocalCluster(plan, {}, log).removeProcessesAndNetwork();
    mkdirSync(path.join(plan.root, 'logs'), { recursive: true });
    const c = new LocalCluster(plan, {}, log);
    c.save();
    try {
      for (const cmd of networkUpCommands(plan)) run(cmd);
      log(plan.mode === 'netns' ? `network: bridge ${plan.bridge?.name} ${plan.bridge?.address}/${plan.bridge?.prefixLength}, ${plan.hosts.length} namespaces` : `network: loopback addresses ${plan.hosts[0].address}…`);
      execFileSync(plan.certs[0], plan.certs.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
      for (const [file, text] of Object.entries(plan.files)) {
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, text);
      }
      for (const stage of plan.stages) {
        await Promise.all(stage.map((s) => c.start(s.member, opts.readyTimeoutMs)));
      }
      copyFileSync(plan.kubeconfig.from, plan.kubeconfig.to);
      return c;
    } catch (e) {
      c.removeProcessesAndNetwork();
      throw e;
    }
  }

  address(member: string): string {
    return hostOf(this.plan, member).address;
  }

  pid(member: string): number | undefined {
    const pid = this.pids[member];
    return pid !== undefined && alive(pid) ? pid : undefined;
  }

  /** Starts a member (again) and waits for its health URL to answer 200. */
  async start(member: string, readyTimeoutMs = 90_000): Promise<void> {
    const spec = processOf(this.plan, member);
    const fd = openSync(spec.log, 'a');
    const child = spawn(spec.argv[0], spec.argv.slice(1), { detached: true, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    child.unref();
    if (child.pid === undefined) throw new Error(`${member}: could not start ${spec.argv[0]}`);
    this.pids[member] = child.pid;
    this.save();
    const deadline = Date.now() + readyTimeoutMs;
    for (;;) {
      if (!alive(child.pid)) throw new Error(`${member} exited during start; last lines of ${spec.log}:\n${this.tail(member)}`);
      if ((await probe(spec.ready)) === 200) break;
      if (Date.now() > deadline) throw new Error(`${member}: ${spec.ready} not 200 after ${readyTimeoutMs} ms; last lines of ${spec.log}:\n${this.tail(member)}`);
      await sleep(200);
    }
    this.log(`${member} up at ${this.address(member)} (pid ${child.pid})`);
  }

  /** Sends a signal and waits until the process is gone. */
  async kill(member: string, signal: NodeJS.Signals = 'SIGKILL', timeoutMs = 30_000): Promise<void> {
    const pid = this.pid(member);
    if (pid === undefined) return;
    process.kill(pid, signal);
    const deadline = Date.now() + timeoutMs;
    while (alive(pid)) {
      if (Date.now() > deadline) throw new Error(`${member} (pid ${pid}) still runs ${timeoutMs} ms after ${signal}`);
      await sleep(50);
    }
  }

  /** Takes the member's link down (it keeps running, cut off from everyone) or brings it back. */
  setLink(member: string, state: 'up' | 'down'): void {
    run(linkCommand(this.plan, member, state));
  }

  /** Runs a command inside the member's namespace (or on the host in loopback mode); its stdout. */
  execIn(member: string, argv: string[]): string {
    const ns = hostOf(this.plan, member).netns;
    const full = ns ? ['ip', 'netns', 'exec', ns, ...argv] : argv;
    return execFileSync(full[0], full.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }

  tail(member: string, lines = 30): string {
    try {
      return readFileSync(processOf(this.plan, member).log, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '(no log)';
    }
  }

  /**
   * Stops every process (SIGTERM, then SIGKILL after graceMs), removes namespaces and links, and
   * deletes the root directory.
   */
  async down(graceMs = 20_000): Promise<void> {
    const targets = this.ownProcesses();
    for (const pid of targets) signal(pid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (targets.some(alive) && Date.now() < deadline) await sleep(100);
    this.removeProcessesAndNetwork();
    rmSync(this.plan.root, { recursive: true, force: true });
  }

  /** Recorded pids still running their command, and (netns mode) everything in our namespaces. */
  private ownProcesses(): number[] {
    const pids = new Set<number>();
    for (const [member, pid] of Object.entries(this.pids)) {
      if (alive(pid) && runs(pid, processOf(this.plan, member))) pids.add(pid);
    }
    for (const h of this.plan.hosts) {
      if (!h.netns) continue;
      try {
        for (const p of execFileSync('ip', ['netns', 'pids', h.netns], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split(/\s+/).filter(Boolean)) pids.add(Number(p));
      } catch {
        // no such namespace
      }
    }
    return [...pids];
  }

  private removeProcessesAndNetwork(): void {
    for (const pid of this.ownProcesses()) signal(pid, 'SIGKILL');
    for (const cmd of networkDownCommands(this.plan)) tryRun(cmd);
    for (const k of Object.keys(this.pids)) delete this.pids[k];
    if (existsSync(this.plan.root)) this.save();
  }

  private save(): void {
    const s: ClusterState = { plan: this.plan, pids: this.pids };
    writeFileSync(stateFile(this.plan.root), JSON.stringify(s, null, 2));
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // gone
  }
}
