// The run-wide temp directory check (tempDirReporter.js): a run's leftovers fail it, are named
// and removed; a clean run passes and leaves nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Reporter {
  onRunStart(): void;
  onRunComplete(): void;
  getLastError(): Error | undefined;
}
interface Options {
  env: Record<string, string | undefined>;
  tmpBase: string;
  shmBase: string;
}
// jest loads reporters with require, so the reporter is CommonJS.
const TempDirReporter = require('./tempDirReporter.js') as new (globalConfig: unknown, options: Options) => Reporter;

let base: string;
let env: Record<string, string | undefined>;
let stderr: jest.SpyInstance;
const reporter = (): Reporter => new TempDirReporter({}, { env, tmpBase: join(base, 'tmp'), shmBase: join(base, 'shm') });

beforeEach(() => {
  // Stand-ins for os.tmpdir() and /dev/shm, and for process.env (what workers inherit).
  base = mkdtempSync(join(tmpdir(), 'svc-reporter-test-'));
  mkdirSync(join(base, 'tmp'));
  mkdirSync(join(base, 'shm'));
  env = {};
  stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => {
  stderr.mockRestore();
  rmSync(base, { recursive: true, force: true });
});

test('a clean run passes and removes its directories', () => {
  const r = reporter();
  r.onRunStart();
  const runTmp = env.TMPDIR as string;
  const runShm = env.SVC_TEST_SHM_DIR as string;
  expect(runTmp.startsWith(join(base, 'tmp', 'svc-test-run-'))).toBe(true);
  expect(runShm.startsWith(join(base, 'shm', 'svc-test-run-'))).toBe(true);
  // Made and removed during the run: fine.
  rmSync(mkdtempSync(join(runTmp, 'svc-csr-')), { recursive: true });
  r.onRunComplete();
  expect(r.getLastError()).toBeUndefined();
  expect(existsSync(runTmp)).toBe(false);
  expect(existsSync(runShm)).toBe(false);
  expect(stderr).not.toHaveBeenCalled();
});

test('what a run leaves in its temp directories fails it, is named, and is removed', () => {
  const r = reporter();
  r.onRunStart();
  const runTmp = env.TMPDIR as string;
  const runShm = env.SVC_TEST_SHM_DIR as string;
  const left = mkdtempSync(join(runTmp, 'svc-csr-'));
  writeFileSync(join(left, 'key.pem'), 'secret');
  writeFileSync(join(runTmp, 'stray.txt'), '');
  mkdirSync(join(runShm, 'etcd-test-x'));
  r.onRunComplete();
  const message = r.getLastError()?.message ?? '';
  expect(message).toMatch(/^This test run left 3 entries in its temp directories/);
  expect(message).toContain(`\n  ${left} (1 entry)   (TMPDIR)\n`);
  expect(message).toContain(`\n  ${join(runTmp, 'stray.txt')}   (TMPDIR)\n`);
  expect(message).toContain(`\n  ${join(runShm, 'etcd-test-x')} (0 entries)   (SVC_TEST_SHM_DIR)\n`);
  expect(stderr).toHaveBeenCalledWith(expect.stringContaining(left));
  expect(existsSync(runTmp)).toBe(false);
  expect(existsSync(runShm)).toBe(false);
});

test('without a writable shm base only TMPDIR is set', () => {
  const r = new TempDirReporter({}, { env, tmpBase: join(base, 'tmp'), shmBase: join(base, 'absent') });
  r.onRunStart();
  expect(env.SVC_TEST_SHM_DIR).toBeUndefined();
  r.onRunComplete();
  expect(r.getLastError()).toBeUndefined();
});

test("the processes a run starts keep no Node compile cache (npm and tsc turn it on under TMPDIR)", () => {
  const r = reporter();
  r.onRunStart();
  expect(env.NODE_DISABLE_COMPILE_CACHE).toBe('1');
  r.onRunComplete();
});

test('npx run by a test leaves nothing in the run\'s TMPDIR', () => {
  const r = reporter();
  r.onRunStart();
  execFileSync('npx', ['--version'], { env: { ...process.env, ...env }, stdio: 'ignore' });
  r.onRunComplete();
  expect(r.getLastError()).toBeUndefined();
});
