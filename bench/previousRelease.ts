// An earlier revision of this repository, built once into .cache/bench-baseline/<commit>/ so a
// bench phase can run its svc-apiserver beside the current one ("regression against the previous
// release" is measured, not assumed). The tree comes from `git archive`, node_modules is the
// current one (same dependencies), and tsc emits even where newer @types disagree with old code.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './cluster';

export interface BuiltRevision {
  commit: string;
  /** A repository root whose bin/svc-apiserver runs that revision. */
  root: string;
  /** Its first commit line, for the report. */
  subject: string;
}

export function buildRevision(rev: string, log: (msg: string) => void): BuiltRevision {
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
  const commit = git('rev-parse', '--verify', `${rev}^{commit}`);
  const subject = git('log', '-1', '--format=%h %s', commit);
  const root = join(repoRoot, '.cache', 'bench-baseline', commit);
  const entry = join(root, 'dist', 'cmd', 'apiserver', 'main.js');
  if (existsSync(entry)) return { commit, root, subject };
  log(`building the baseline ${subject.slice(0, 80)} into ${root}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C "${root}"`], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
  try {
    execFileSync(process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'ignore' });
  } catch {
    // Type errors against today's @types still emit JavaScript; only a missing entry point is fatal.
  }
  if (!existsSync(entry)) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`building ${commit} produced no ${entry}`);
  }
  return { commit, root, subject };
}
