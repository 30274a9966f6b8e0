// `make run`'s script (scripts/run.sh) through the real processes: it says ready only when the
// apiserver's /readyz answers 200, and fails loudly, with the failing process's last log lines,
// when a port is taken or the apiserver exits before it is ready. It runs in its own data folder
// and ports (DATA, ETCD_PORT, PORT, CM_PORT) beside anything a developer has running. And `make
// run` itself, in a shadow of the repository so its state never lands in a developer's: busy ports
// are refused before anything is built, a start with nothing changed compiles nothing, and
// NAMING=k8s serves upstream's names from data-k8s/.
import { ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import * as https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, repoRoot } from './support/apiserver';

interface Run {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  exited: Promise<number | null>;
}

const dirs: string[] = [];
const runs: Run[] = [];
/** Whether any process of the group is left (signal 0 only asks). */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

afterAll(async () => {
  // A run a failed test left behind: its whole group, and only then its folders (etcd and the
  // apiserver still write there while they die). rmSync unlinks a shadow's links, never their targets.
  for (const r of runs) if (r.child.pid && groupAlive(r.child.pid)) process.kill(-r.child.pid, 'SIGKILL');
  const deadline = Date.now() + 10_000;
  while (runs.some((r) => r.child.pid && groupAlive(r.child.pid)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  // etcd runs in a session of its own (out of reach of a Ctrl-C, stopped last): by its data dir.
  for (const d of dirs) spawnSync('pkill', ['-KILL', '-f', `--data-dir ${d}`]);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function scratch(): string {
  const d = mkdtempSync(join(tmpdir(), 'svc-make-run-'));
  dirs.push(d);
  return d;
}

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * etcd's peer listener takes ETCD_PORT + 1, which the script does not choose; below the kernel's
 * ephemeral range (32768+) no other test's freePort() can take that neighbour in the meantime.
 */
async function etcdPortPair(): Promise<number> {
  for (;;) {
    const p = 20000 + 2 * Math.floor(Math.random() * 6000);
    if ((await canBind(p)) && (await canBind(p + 1))) return p;
  }
}

async function ports(): Promise<{ ETCD_PORT: string; PORT: string; CM_PORT: string }> {
  return { ETCD_PORT: String(await etcdPortPair()), PORT: String(await freePort()), CM_PORT: String(await freePort()) };
}

function runScript(env: Record<string, string>): Run {
  return runCommand('bash', ['scripts/run.sh'], repoRoot, { ...process.env, ...env });
}

function runCommand(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Run {
  // Its own process group, so the test can stop the script and everything it started.
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const run: Run = { child, stdout: '', stderr: '', exited: new Promise((r) => child.on('exit', (code) => r(code))) };
  child.stdout?.on('data', (b: Buffer) => (run.stdout += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (run.stderr += b.toString()));
  runs.push(run);
  return run;
}

async function until(what: string, ok: () => boolean, run: Run, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (run.child.exitCode !== null) throw new Error(`run.sh exited (${run.child.exitCode}) before ${what}:\n${run.stdout}\n${run.stderr}`);
    if (Date.now() > deadline) throw new Error(`no ${what}:\n${run.stdout}\n${run.stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function readyz(port: string, ca: string): Promise<number> {
  return new Promise((resolve, reject) => {
    https.get({ host: '127.0.0.1', port: Number(port), path: '/readyz', ca }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

// A background job of a script starts with INT ignored, and bash then cannot trap it: the run
// must still end quietly when its processes end of the Ctrl-C (as scripts/fresh-machine-test.sh does).
test.each([
  ['from a terminal', false],
  ['started with INT ignored', true],
])('ready is reported only once /readyz answers 200; Ctrl-C stops all three processes (%s)', async (_how, intIgnored) => {
  const data = scratch();
  const p = await ports();
  const run = intIgnored
    ? runCommand('bash', ['-c', 'trap "" INT; exec bash scripts/run.sh'], repoRoot, { ...process.env, DATA: data, ...p })
    : runScript({ DATA: data, ...p });
  await until('"is ready"', () => run.stdout.includes('svc-apiserver is ready'), run);
  // At the moment it says ready, the apiserver is ready and the kubeconfig it names works.
  expect(await readyz(p.PORT, readFileSync(join(data, 'pki/ca.crt'), 'utf8'))).toBe(200);
  expect(run.stdout).toContain(`export KUBECONFIG=${data}/admin.kubeconfig`);
  for (const log of ['etcd.log', 'apiserver.log', 'controller-manager.log']) expect(() => readFileSync(join(data, log))).not.toThrow();

  process.kill(-run.child.pid!, 'SIGINT');
  expect(await run.exited).toBe(130);
  expect(run.stderr).not.toContain('exited');
  // Nothing is left listening on the apiserver's port.
  await expect(readyz(p.PORT, '')).rejects.toThrow(/ECONNREFUSED/);
}, 120_000);

test('a port already in use fails at once instead of answering for the other server', async () => {
  const p = await ports();
  const squatter: Server = createServer(() => undefined);
  await new Promise<void>((r) => squatter.listen(Number(p.PORT), '127.0.0.1', r));
  try {
    const run = runScript({ DATA: scratch(), ...p });
    expect(await run.exited).toBe(1);
    expect(run.stderr).toContain(`127.0.0.1:${p.PORT} is already in use`);
    expect(run.stdout).not.toContain('is ready');
  } finally {
    squatter.close();
  }
}, 60_000);

test('an apiserver that exits before it is ready fails the run with its last log lines', async () => {
  const data = scratch();
  mkdirSync(join(data, 'pki'));
  writeFileSync(join(data, 'pki/ca.crt'), 'not a certificate\n');
  writeFileSync(join(data, 'pki/ca.key'), 'not a key\n');
  const run = runScript({ DATA: data, ...(await ports()) });
  expect(await run.exited).toBe(1);
  expect(run.stdout).not.toContain('is ready');
  expect(run.stderr).toContain('make run: svc-apiserver exited before it was ready. Last lines of');
  expect(run.stderr).toContain('ca.crt: no PEM CERTIFICATE block found');
}, 90_000);

/**
 * A folder whose every entry links to the repository's (Makefile, scripts, sources, dist,
 * node_modules, .cache …) except make run's state, which `make run` there creates for itself.
 */
function shadowRepo(): string {
  const root = scratch();
  for (const entry of readdirSync(repoRoot)) {
    if (entry !== 'data' && entry !== 'data-k8s') symlinkSync(join(repoRoot, entry), join(root, entry));
  }
  return root;
}

/** make's own variables from a surrounding `make test` (its jobserver among them) are not ours. */
function makeEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const k of ['MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'MAKEOVERRIDES']) delete out[k];
  return out;
}

// -o: the tests never reinstall the dependencies that the other tests are running from.
const keepDeps = ['-o', 'node_modules/.package-lock.json'];

function runMake(root: string, args: string[], env: Record<string, string>): Run {
  return runCommand('make', [...keepDeps, ...args], root, makeEnv(env));
}

function makeOutput(root: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('make', ['--no-print-directory', ...keepDeps, ...args], { cwd: root, env: makeEnv({}) }, (err, stdout, stderr) => {
      if (err) reject(new Error(`make ${args.join(' ')} failed: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

function kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('kubectl', args, { timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

async function stop(run: Run): Promise<void> {
  process.kill(-run.child.pid!, 'SIGINT');
  await run.exited;
}

const tscCommand = /\btsc\b/;

test('make run NAMING=k8s serves upstream\'s names from data-k8s/; started again with nothing changed it compiles nothing', async () => {
  const root = shadowRepo();
  const p = await ports();
  const first = runMake(root, ['run', 'NAMING=k8s'], p);
  await until('"is ready"', () => first.stdout.includes('svc-apiserver is ready'), first);
  const kubeconfig = join(root, 'data-k8s/admin.kubeconfig');
  expect(first.stdout).toContain(`export KUBECONFIG=${kubeconfig}`);
  expect(existsSync(join(root, 'data'))).toBe(false);
  // A typed command that hard-codes authentication.k8s.io, which only the k8s profile serves.
  const whoami = await kubectl([`--kubeconfig=${kubeconfig}`, `--cache-dir=${join(root, 'kube-cache')}`, 'auth', 'whoami']);
  expect(whoami.stderr).toBe('');
  expect(whoami.stdout).toMatch(/Username\s+admin/);
  await stop(first);

  const second = runMake(root, ['run', 'NAMING=k8s'], p);
  await until('"is ready"', () => second.stdout.includes('svc-apiserver is ready'), second);
  expect(second.stdout + second.stderr).not.toMatch(tscCommand);
  await stop(second);

  // Up to date now; a changed source, or a file added to or removed from a source folder, makes
  // the build due again (-W: as if it had just changed); a changed test does not.
  expect(await makeOutput(root, ['-n', 'build'])).not.toMatch(tscCommand);
  expect(await makeOutput(root, ['-n', '-W', 'lib/api/index.ts', 'build'])).toMatch(tscCommand);
  expect(await makeOutput(root, ['-n', '-W', 'lib/api', 'build'])).toMatch(tscCommand);
  expect(await makeOutput(root, ['-n', '-W', 'cmd/flagSet.test.ts', 'build'])).not.toMatch(tscCommand);
}, 240_000);

test('make run refuses a busy port before it builds anything', async () => {
  const root = shadowRepo();
  const p = await ports();
  const squatter: Server = createServer(() => undefined);
  await new Promise<void>((r) => squatter.listen(Number(p.PORT), '127.0.0.1', r));
  try {
    // -W: a source as if just changed, so the build would be due.
    const run = runMake(root, ['-W', 'cmd/apiserver/main.ts', 'run'], p);
    expect(await run.exited).toBe(2);
    expect(run.stderr).toContain(`127.0.0.1:${p.PORT} is already in use`);
    expect(run.stdout + run.stderr).not.toMatch(tscCommand);
    expect(existsSync(join(root, 'data'))).toBe(false);
  } finally {
    squatter.close();
  }
}, 120_000);
