// What a result was measured on (issue 14 item 6): the machine, its load when the run began and
// ended, the etcd binary's version and the commit under test.
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem } from 'node:os';

export interface Machine {
  cpuModel: string;
  cpus: number;
  memoryBytes: number;
  kernel: string;
  /** 1, 5 and 15 minute load averages at the start (and end) of the run: others' work on the cores. */
  loadAtStart: number[];
  loadAtEnd?: number[];
  commit: string;
  /** The work tree had uncommitted changes: the commit alone does not say what ran. */
  dirty: boolean;
}

export function describeMachine(repoRoot: string): Machine {
  const git = (...args: string[]): string => {
    try {
      return execFileSync('git', ['-C', repoRoot, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return '';
    }
  };
  return {
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cpus: cpus().length,
    memoryBytes: totalmem(),
    kernel: release(),
    loadAtStart: loadavg().map((x) => Math.round(x * 100) / 100),
    commit: git('rev-parse', 'HEAD') || 'unknown',
    dirty: git('status', '--porcelain', '--untracked-files=no') !== '',
  };
}

export const currentLoad = (): number[] => loadavg().map((x) => Math.round(x * 100) / 100);
