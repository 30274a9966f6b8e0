// The etcd binaries an e2e case can pin: the current line (≥ 3.5, what `make etcd` provides) and
// Debian's 3.4.23 (`make etcd34`), whose progress replies may overtake events. A missing or
// wrong binary fails the test with what to run: never a silent fall-back to another etcd.
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { findEtcdBinary } from '../../../lib/etcd/testing/etcdServer';
import { repoRoot } from './apiserver';

export interface EtcdBinary {
  path: string;
  /** "etcd Version:" of the binary, e.g. "3.4.23". */
  version: string;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function versionOf(path: string): string {
  const out = execFileSync(path, ['--version'], { encoding: 'utf8' });
  const m = /^etcd Version: (\S+)/m.exec(out);
  if (!m) throw new Error(`${path} --version printed no etcd version:\n${out}`);
  return m[1];
}

/** etcd ≥ 3.5: the project's .cache/bin/etcd, else $ETCD_BIN or the system's. */
export function currentEtcd(): EtcdBinary {
  const local = join(repoRoot, '.cache/bin/etcd');
  const path = executable(local) ? local : findEtcdBinary();
  const version = versionOf(path);
  const [major, minor] = version.split('.').map(Number);
  if (major < 3 || (major === 3 && minor < 5)) throw new Error(`${path} is etcd ${version}; these cases need ≥ 3.5 (make etcd)`);
  return { path, version };
}

/** Debian bookworm's etcd 3.4.23, as scripts/install-etcd.sh 3.4 unpacks it. */
export function legacyEtcd(): EtcdBinary {
  const path = join(repoRoot, '.cache/etcd-3.4.23/usr/bin/etcd');
  if (!executable(path)) throw new Error(`etcd 3.4.23 not found at ${path}: run make etcd34`);
  const version = versionOf(path);
  if (version !== '3.4.23') throw new Error(`${path} is etcd ${version}, not 3.4.23`);
  return { path, version };
}
