// scripts/test-summary.js, the closing line of .ci/run: both groups' jest results summed into
// "N passed, N failed[, N skipped]", and an exit code that fails the run when a group is missing,
// nothing ran or anything failed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './support/apiserver';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'test-summary-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

type Counts = { passed: number; failed: number; pending?: number; todo?: number };
function results(file: string, c: Counts): void {
  const pending = c.pending ?? 0;
  const todo = c.todo ?? 0;
  const r = { numPassedTests: c.passed, numFailedTests: c.failed, numPendingTests: pending, numTodoTests: todo, numTotalTests: c.passed + c.failed + pending + todo };
  writeFileSync(join(dir, file), JSON.stringify(r));
}

function summary(): { status: number | null; lines: string[] } {
  const r = spawnSync(process.execPath, [join(repoRoot, 'scripts/test-summary.js'), dir], { encoding: 'utf8' });
  return { status: r.status, lines: r.stdout.trim().split('\n') };
}

test('both groups green: one line per group, then the sum; exit 0', () => {
  results('.jest-results.json', { passed: 10, failed: 0 });
  results('.jest-results-etcd34.json', { passed: 3, failed: 0 });
  expect(summary()).toEqual({
    status: 0,
    lines: ['(.jest-results.json counted 10 passing and 0 failing tests)', '(.jest-results-etcd34.json counted 3 passing and 0 failing tests)', '13 passed, 0 failed'],
  });
});

test('skipped and todo tests are counted as skipped; a failure fails the run', () => {
  results('.jest-results.json', { passed: 10, failed: 1, pending: 2 });
  results('.jest-results-etcd34.json', { passed: 3, failed: 0, todo: 1 });
  const r = summary();
  expect(r.status).toBe(1);
  expect(r.lines.at(-1)).toBe('13 passed, 1 failed, 3 skipped');
});

test('a missing etcd 3.4 group counts as a failure', () => {
  results('.jest-results.json', { passed: 10, failed: 0 });
  const r = summary();
  expect(r.status).toBe(1);
  expect(r.lines).toEqual(['(.jest-results.json counted 10 passing and 0 failing tests)', '.jest-results-etcd34.json is missing: that group did not run', '10 passed, 1 failed']);
});

test('no results at all (make test stopped before jest): 0 passed, 1 failed', () => {
  expect(summary()).toEqual({ status: 1, lines: ['0 passed, 1 failed'] });
});

test('nothing ran is a failure too', () => {
  results('.jest-results.json', { passed: 0, failed: 0 });
  results('.jest-results-etcd34.json', { passed: 0, failed: 0 });
  expect(summary()).toEqual({
    status: 1,
    lines: ['(.jest-results.json counted 0 passing and 0 failing tests)', '(.jest-results-etcd34.json counted 0 passing and 0 failing tests)', '0 passed, 0 failed'],
  });
});
