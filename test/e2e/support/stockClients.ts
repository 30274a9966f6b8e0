// Runs the stock clients' scripts (test/e2e/clients/) as their users run them: client-node under
// plain Node (ESM, types stripped) and Debian's python3-kubernetes under the system Python.
// Each script prints one JSON line per step or event.
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './apiserver';

const clientsDir = join(repoRoot, 'test/e2e/clients');

/** Debian's Python, where python3-kubernetes is installed (make test / .ci/run install it). */
export const systemPython = '/usr/bin/python3';

export interface StepLine {
  step: string;
  ok: boolean;
  error?: string;
  value?: unknown;
}

export type ClientKind = 'node' | 'python';

function command(kind: ClientKind, script: string): [string, string[]] {
  if (kind === 'node') return [process.execPath, [join(clientsDir, 'node', `${script}.mts`)]];
  if (!existsSync(systemPython)) throw new Error(`${systemPython} is missing: install python3 and python3-kubernetes (make test does)`);
  return [systemPython, [join(clientsDir, 'python', `${script}.py`)]];
}

/** Runs a step script to its end and returns its JSON lines (the script's failure is an error). */
export function runSteps(kind: ClientKind, script: string, args: readonly string[]): Promise<StepLine[]> {
  const [bin, pre] = command(kind, script);
  return new Promise((resolve, reject) => {
    execFile(bin, [...pre, ...args], { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${script} (${kind}) failed: ${err.message}\n${stderr}\n${stdout}`));
      resolve(parseLines<StepLine>(stdout));
    });
  });
}

function parseLines<T>(text: string): T[] {
  return text
    .split('\n')
    .filter((l) => l.trim().startsWith('{'))
    .map((l) => JSON.parse(l) as T);
}

/** A long-running script whose JSON lines are collected as they arrive. */
export class ScriptProcess<T = Record<string, unknown>> {
  readonly lines: T[] = [];
  private stderr = '';
  private readonly child: ChildProcess;
  private buf = '';

  constructor(kind: ClientKind, script: string, args: readonly string[]) {
    const [bin, pre] = command(kind, script);
    this.child = spawn(bin, [...pre, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout?.on('data', (d: Buffer) => {
      this.buf += d.toString('utf8');
      let i: number;
      while ((i = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, i);
        this.buf = this.buf.slice(i + 1);
        if (line.trim().startsWith('{')) this.lines.push(JSON.parse(line) as T);
      }
    });
    this.child.stderr?.on('data', (d: Buffer) => (this.stderr += d.toString('utf8')));
  }

  /** Polls the collected lines until pred holds (never a blind sleep). */
  async waitFor(pred: (lines: T[]) => boolean, what: string, timeoutMs = 30_000): Promise<T[]> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this.lines)) {
      if (this.child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`${what}: not seen (exit ${this.child.exitCode}); lines ${JSON.stringify(this.lines)}\n${this.stderr}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.lines;
  }

  writeLine(s: string): void {
    this.child.stdin?.write(`${s}\n`);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    await new Promise<void>((res) => {
      this.child.once('exit', () => res());
      this.child.kill('SIGTERM');
    });
  }
}

/** Step names that failed, with their errors, for a readable assertion. */
export function failures(lines: readonly StepLine[]): Record<string, string> {
  return Object.fromEntries(lines.filter((l) => !l.ok).map((l) => [l.step, l.error ?? '']));
}
