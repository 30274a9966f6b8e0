// `make cluster` options: the defaults put the twin in data/cluster on 10.213.0.0/25 (or from
// 127.0.0.10 on), names prefixed "svc"; --key=value flags override them.
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import * as path from 'node:path';
import type { ClusterOptions, Mode } from './plan';

export const defaults = { root: 'data/cluster', prefix: 'svc', subnet: '10.213.0.0/25', loopbackSubnet: '127.0.0.0/24' };

export interface Parsed {
  command: 'up' | 'down';
  root: string;
  prefix: string;
  subnet: string;
  loopbackSubnet: string;
  /** --loopback: 127.0.0.x addresses even when namespaces could be made. */
  forceLoopback: boolean;
}

export function parseArgs(argv: string[]): Parsed {
  const [command, ...rest] = argv;
  if (command !== 'up' && command !== 'down') throw new Error('usage: cluster up|down [--root=DIR] [--prefix=NAME] [--subnet=CIDR] [--loopback-subnet=CIDR] [--loopback]');
  const out: Parsed = { command, ...defaults, forceLoopback: false };
  for (const a of rest) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    if (!m) throw new Error(`unexpected argument ${a}`);
    const [, k, v] = m;
    if (k === 'loopback' && v === undefined) out.forceLoopback = true;
    else if (k === 'root' && v) out.root = v;
    else if (k === 'prefix' && v) out.prefix = v;
    else if (k === 'subnet' && v) out.subnet = v;
    else if (k === 'loopback-subnet' && v) out.loopbackSubnet = v;
    else throw new Error(`unknown flag ${a}`);
  }
  return out;
}

/** Whether network namespaces can be made here (root, or CAP_NET_ADMIN and CAP_SYS_ADMIN). */
export function canMakeNamespaces(prefix: string): boolean {
  const probe = `${prefix}-probe`;
  try {
    execFileSync('ip', ['netns', 'add', probe], { stdio: 'ignore' });
    execFileSync('ip', ['netns', 'del', probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function chooseMode(forceLoopback: boolean, namespacesWork: boolean): { mode: Mode; note?: string } {
  if (forceLoopback) return { mode: 'loopback', note: 'cluster: --loopback: every member on its own 127.0.0.x address' };
  if (namespacesWork) return { mode: 'netns' };
  return { mode: 'loopback', note: 'cluster: cannot create network namespaces (needs root or CAP_NET_ADMIN); falling back to the same topology on distinct 127.0.0.x addresses (no link faults possible)' };
}

/** The binaries this machine runs the members with: Node itself, etcd, HAProxy and Prometheus from PATH. */
export function localBinaries(which: (name: string) => string): ClusterOptions['binaries'] {
  return { node: process.execPath, etcd: which('etcd'), haproxy: which('haproxy'), prometheus: which('prometheus') };
}

export function which(name: string): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).concat(['/usr/sbin', '/sbin'])) {
    const p = path.join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // next
    }
  }
  throw new Error(`${name} is not installed (${installHint(name)})`);
}

/** What installs a binary the twin runs: etcd has its own target; the rest are the tests' system tools. */
export function installHint(name: string): string {
  return name === 'etcd' ? 'make etcd' : 'make test-tools, i.e. scripts/install-test-tools.sh';
}
