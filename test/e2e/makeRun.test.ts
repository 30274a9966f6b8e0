// `make run`'s script (scripts/run.sh) through the real processes: it says ready only when the
// apiserver's /readyz answers 200, and fails loudly, with the failing process's last log lines,
// when a port is taken or the apiserver exits before it is ready. It runs in its own data folder
// and ports (DATA, ETCD_PORT, PORT, CM_PORT) beside anything a developer has running.
import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
afterAll(() => {
  for (const r of runs) if (r.child.exitCode === null && r.child.pid) process.kill(-r.child.pid, 'SIGKILL');
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
  // Its own process group, so the test can stop the script and everything it started.
  const child = spawn('bash', ['scripts/run.sh'], { cwd: repoRoot, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
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

test('ready is reported only once /readyz answers 200; Ctrl-C stops all three processes', async () => {
  const data = scratch();
  const p = await ports();
  const run = runScript({ DATA: data, ...p });
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
