// The compose deployment run for real as part of `make test` (scripts/compose-test.sh, also
// `make test-compose`): stand-in images, up until healthy, smoke test through the load balancer,
// backup and restore, an apiserver and the etcd leader killed under a writer and a watcher, a
// rolling upgrade, down -v. It needs a Docker Engine of its own, which starts only as root on a
// host: inside a container (the fresh-machine test's, /.dockerenv) or without root the test is
// reported as skipped, never as passed.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const repoRoot = join(__dirname, '..', '..');
const dockerCanStart = process.getuid?.() === 0 && !existsSync('/.dockerenv');

function runScript(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['scripts/compose-test.sh'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

(dockerCanStart ? test : test.skip)(
  'deploy/docker-compose.yml runs for real: healthy, smoke test, backup and restore, faults and a rolling upgrade with no acknowledged write lost',
  async () => {
    const { code, output } = await runScript();
    // The job's step timings (to healthy, smoke, faults, upgrade) belong in the run's log.
    process.stdout.write(`${output.split('\n').filter((l) => l.startsWith('==>')).join('\n')}\n`);
    if (code !== 0) throw new Error(`scripts/compose-test.sh exited ${code}:\n${output.split('\n').slice(-80).join('\n')}`);
    expect(output).toMatch(/==> compose-test: passed in \d+ s/);
  },
  20 * 60_000,
);
