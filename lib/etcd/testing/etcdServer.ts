// Starts a throwaway single-member etcd on free 127.0.0.1 ports for tests (unit and e2e).
// The data dir lives on tmpfs when there is one: fsync there is free, so tests stay fast.
import { ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface EtcdServer {
  /** Client URL, e.g. http://127.0.0.1:41234. */
  endpoint: string;
  dataDir: string;
  /** SIGTERM, wait for exit, remove the data dir. Idempotent. */
  stop(): Promise<void>;
  /** SIGKILL, wait for exit; the data dir stays (restart() brings it back). */
  kill(): Promise<void>;
  /** Starts again on the same data dir and ports (stops it first if running); resolves when healthy. */
  restart(): Promise<void>;
}

export interface StartEtcdOptions {
  /** etcd binary; default $ETCD_BIN, /usr/bin/etcd, then `etcd` on PATH. */
  binary?: string;
  /** Parent directory of the data dir; default /dev/shm when writable, else the OS temp dir. */
  baseDir?: string;
  /** Extra flags, e.g. ['--max-request-bytes=10485760', '--experimental-watch-progress-notify-interval=200ms']. */
  extraArgs?: string[];
  /** How long to wait for /health; default 20 s. */
  readyTimeoutMs?: number;
  /** Client and peer ports per start attempt; default two freePort()s (a seam for tests). */
  ports?: () => Promise<[number, number]>;
}


const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A test run that dies without stop() must not leave etcd processes behind.
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

export function findEtcdBinary(explicit?: string): string {
  const chosen = explicit ?? process.env.ETCD_BIN;
  if (chosen) {
    // Asked for one binary: use it or say why not, never silently another.
    if (!isExecutable(chosen)) throw new Error(`etcd binary not found or not executable: ${chosen}`);
    return chosen;
  }
  // PATH first: the Makefile puts the project's etcd 3.5 (.cache/bin) ahead of a system 3.4.
  const candidates: string[] = [];
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir) candidates.push(join(dir, 'etcd'));
  candidates.push('/usr/bin/etcd', '/usr/local/bin/etcd');
  const found = candidates.find(isExecutable);
  if (!found) throw new Error('etcd binary not found: install it (Debian/Ubuntu package etcd-server) or set ETCD_BIN');
  return found;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A TCP port on 127.0.0.1 that was free a moment ago (tests, e2e and the bench share it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A free port held by a listener until release(): between picking a port and a child process
 * listening on it seconds later, nothing else (another test's freePort, an outgoing
 * connection's ephemeral port) can take it. Release it just before starting its user.
 */
export async function reservedPort(): Promise<{ port: number; release(): Promise<void> }> {
  const srv = createServer();
  srv.unref();
  await new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => resolve());
  });
  const addr = srv.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { port, release: () => new Promise<void>((resolve) => srv.close(() => resolve())) };
}

/**
 * Runs start() again, up to three attempts in all, while it fails because a port it chose was
 * taken (portTaken looks at what the process said). freePort() closes its listener at once, and
 * outgoing connections (other tests' clients) draw local ports from the same range: one may
 * hold the port by the time the process binds it. start() chooses its ports afresh each time.
 */
export async function retryWhilePortTaken<T>(start: () => Promise<T>, portTaken: () => boolean): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      if (attempt >= 3 || !portTaken()) throw err;
    }
  }
}

/** Whether etcd's /health answers 200 with health true (within 1 s). */
export function healthy(endpoint: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(`${endpoint}/health`, { timeout: 1000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve(res.statusCode === 200 && /"health"\s*:\s*"true"/.test(body)));
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
    req.end();
  });
}

export function defaultBaseDir(): string {
  // A jest run's own directory on /dev/shm (test/support/tempDirReporter.js checks it is left empty).
  const runDir = process.env.SVC_TEST_SHM_DIR;
  if (runDir && existsSync(runDir)) return runDir;
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

function waitExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startEtcd(opts: StartEtcdOptions = {}): Promise<EtcdServer> {
  const binary = findEtcdBinary(opts.binary);
  installExitHook();
  const dataDir = mkdtempSync(join(opts.baseDir ?? defaultBaseDir(), 'etcd-test-'));
  const ports = opts.ports ?? (async (): Promise<[number, number]> => [await freePort(), await freePort()]);
  let endpoint = '';
  let args: string[] = [];
  const choosePorts = async (): Promise<void> => {
    const [clientPort, peerPort] = await ports();
    endpoint = `http://127.0.0.1:${clientPort}`;
    const peer = `http://127.0.0.1:${peerPort}`;
    args = [
      '--name=test',
      `--data-dir=${join(dataDir, 'data')}`,
      `--listen-client-urls=${endpoint}`,
      `--advertise-client-urls=${endpoint}`,
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=test=${peer}`,
      '--initial-cluster-state=new',
      '--logger=zap',
      '--log-level=warn',
      ...(opts.extraArgs ?? []),
    ];
  };
  const readyTimeoutMs = opts.readyTimeoutMs ?? 20_000;
  let child: ChildProcess | undefined;
  let stderrTail = '';
  let removed = false;

  const launch = async (): Promise<void> => {
    stderrTail = '';
    const c = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child = c;
    running.add(c);
    c.stderr!.setEncoding('utf8');
    c.stderr!.on('data', (d: string) => (stderrTail = (stderrTail + d).slice(-4000)));
    c.once('exit', () => running.delete(c));
    let spawnError: Error | undefined;
    c.once('error', (e) => (spawnError = e));
    const deadline = Date.now() + readyTimeoutMs;
    for (;;) {
      if (spawnError) throw new Error(`could not start etcd (${binary}): ${spawnError.message}`);
      if (c.exitCode !== null || c.signalCode !== null) {
        throw new Error(`etcd exited during startup (code ${c.exitCode}, signal ${c.signalCode}):\n${stderrTail}`);
      }
      if (await healthy(endpoint)) return;
      if (Date.now() > deadline) {
        c.kill('SIGKILL');
        await waitExit(c);
        throw new Error(`etcd not healthy after ${readyTimeoutMs} ms at ${endpoint}:\n${stderrTail}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  const signal = async (sig: NodeJS.Signals): Promise<void> => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = waitExit(c);
    c.kill(sig);
    const timer = setTimeout(() => c.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };

  try {
    await retryWhilePortTaken(
      async () => {
        rmSync(join(dataDir, 'data'), { recursive: true, force: true }); // a failed attempt's
        await choosePorts();
        await launch();
      },
      () => /address already in use/.test(stderrTail),
    );
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }

  return {
    endpoint,
    dataDir,
    async stop() {
      await signal('SIGTERM');
      if (!removed && existsSync(dataDir)) rmSync(dataDir, { recursive: true, force: true });
      removed = true;
    },
    async kill() {
      await signal('SIGKILL');
    },
    async restart() {
      if (removed) throw new Error('etcd was stopped and its data dir removed; start a new one');
      await signal('SIGTERM');
      await launch();
    },
  };
}
