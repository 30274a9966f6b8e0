// The suite runs on what the project promises (package.json engines, scripts/install-*.sh): Node 24
// LTS or newer, and an etcd of at least 3.5 for the main group. The etcd 3.4 group
// (make test-etcd34) does not include this file.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findEtcdBinary } from '../../lib/etcd/testing/etcdServer';
import { repoRoot } from './support/apiserver';

const major = (v: string): number => Number(v.replace(/^v/, '').split('.')[0]);

test('Node is 24 or newer, as package.json engines says', () => {
  const engines = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
  expect(engines).toBe('>=24');
  expect(major(process.version)).toBeGreaterThanOrEqual(24);
});

test('the etcd the e2e tests start is 3.5 or newer', () => {
  const out = execFileSync(findEtcdBinary(), ['--version']).toString();
  const version = /etcd Version: (\d+)\.(\d+)\.(\d+)/.exec(out);
  expect(version).not.toBeNull();
  const [maj, min] = [Number(version![1]), Number(version![2])];
  expect(maj > 3 || (maj === 3 && min >= 5)).toBe(true);
});
