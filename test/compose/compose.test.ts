// The compose deployment run for real as part of `make test` (scripts/compose-test.sh, also
// `make test-compose`): stand-in images, up until healthy, smoke test through the load balancer,
// backup and restore, an apiserver and the etcd leader killed under a writer and a watcher, a
// rolling upgrade, down -v. It needs a Docker Engine of its own, so it runs where one starts (tried
// once when the file loads, and stopped again; the script starts its own); without root, or where
// containers cannot start (inside an unprivileged container, as in the fresh-machine test), the test
// is reported as skipped with dockerd's reason, never as passed.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { join } from 'node:path';

const repoRoot = join(__dirname, '..', '..');

/** Whether the private Docker engine starts here (started, then stopped again): why not, or undefined. */
function dockerStarts(): string | undefined {
  if (process.getuid?.() !== 0) return 'not root';
  // Inside an unprivileged container the cgroup tree is read-only: dockerd starts there, but no
  // container can (runc: "unable to apply cgroup configuration … read-only file system").
  const cgroup = existsSync('/sys/fs/cgroup/cpuset') ? '/sys/fs/cgroup/cpuset' : '/sys/fs/cgroup';
  try {
    accessSync(cgroup, constants.W_OK);
  } catch {
    return `${cgroup} is read-only here (an unprivileged container): containers cannot start`;
  }
  const dockerd = (command: string): ReturnType<typeof spawnSync> =>
    spawnSync('bash', ['scripts/docker/private-dockerd.sh', command], { cwd: repoRoot, encoding: 'utf8', timeout: 180_000 });
  const r = dockerd('start');
  dockerd('stop');
  return r.status === 0 ? undefined : `dockerd did not start: ${String(r.stderr || r.error?.message || '').trim().split('\n').slice(-5).join(' | ')}`;
}
const cannotStart = dockerStarts();
if (cannotStart) process.stdout.write(`compose job skipped: ${cannotStart}\n`);
const dockerCanStart = cannotStart === undefined;

function runScript(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['scripts/compose-test.sh'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** The host's firewall rules and network links, which the job must leave as it found them. */
function hostNetwork(): { iptables: string; links: string[] } {
  const rules = spawnSync('iptables-save', [], { encoding: 'utf8' }).stdout ?? '';
  const links = spawnSync('ip', ['-o', 'link'], { encoding: 'utf8' }).stdout ?? '';
  return {
    // Without comments and packet counters, which change with traffic.
    iptables: rules.split('\n').filter((l) => !l.startsWith('#')).map((l) => l.replace(/\[\d+:\d+\]/, '')).join('\n'),
    links: links.split('\n').filter(Boolean).map((l) => l.split(':')[1]?.trim() ?? '').sort(),
  };
}

(dockerCanStart ? test : test.skip)(
  'deploy/docker-compose.yml runs for real: healthy, smoke test, backup and restore, faults and a rolling upgrade with no acknowledged write lost',
  async () => {
    const before = hostNetwork();
    const { code, output } = await runScript();
    // The job's step timings (to healthy, smoke, faults, upgrade) belong in the run's log.
    process.stdout.write(`${output.split('\n').filter((l) => l.startsWith('==>')).join('\n')}\n`);
    if (code !== 0) throw new Error(`scripts/compose-test.sh exited ${code}:\n${output.split('\n').slice(-80).join('\n')}`);
    expect(output).toMatch(/==> compose-test: passed in \d+ s/);
    // dockerd's bridge, chains and rules are gone again (private-dockerd.sh stop).
    expect(hostNetwork()).toEqual(before);
  },
  20 * 60_000,
);
