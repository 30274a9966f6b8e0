// The generated deployment files pass the tools that will read them: Debian's docker-compose
// (1.29.2, the compose file as a whole), HAProxy (haproxy -c) and Prometheus (promtool). make test-tools
// installs the three; a missing tool fails the test, it does not skip it.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { topology } from '../../deploy/topology';
import { repoRoot } from './support/apiserver';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(program: string, args: string[]): Promise<Run> {
  return new Promise((resolve) =>
    execFile(program, args, { cwd: repoRoot, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') {
        resolve({ code: 127, stdout, stderr: `${program} is not installed (make test-tools installs it)` });
        return;
      }
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr });
    }),
  );
}

const compose = join(repoRoot, 'deploy/docker-compose.yml');
const expectOk = (r: Run): void => expect({ code: r.code, stderr: r.code === 0 ? '' : r.stderr }).toEqual({ code: 0, stderr: '' });

test('docker-compose config accepts deploy/docker-compose.yml', async () => {
  expectOk(await run('docker-compose', ['-f', compose, 'config', '-q']));
});

test('docker-compose sees every service of the topology', async () => {
  const r = await run('docker-compose', ['-f', compose, 'config', '--services']);
  expectOk(r);
  const expected = [
    ...topology.etcd.members,
    topology.pkiInit.name,
    topology.apiserver.service,
    topology.loadBalancer.name,
    ...topology.controllerManager.members,
    topology.prometheus.name,
  ];
  expect(r.stdout.trim().split('\n').sort()).toEqual(expected.sort());
});

test('haproxy -c accepts deploy/haproxy/haproxy.cfg', async () => {
  // Warnings (the replicas' names do not resolve outside compose) are not errors: exit 0 still.
  expectOk(await run('haproxy', ['-c', '-f', join(repoRoot, 'deploy/haproxy/haproxy.cfg')]));
});

test('promtool accepts deploy/prometheus/prometheus.yml', async () => {
  // --syntax-only: the certificate files it names exist only in the PKI volume.
  expectOk(await run('promtool', ['check', 'config', '--syntax-only', join(repoRoot, 'deploy/prometheus/prometheus.yml')]));
});

test('promtool accepts the recording and alerting rules (deploy/prometheus/rules.yml)', async () => {
  expectOk(await run('promtool', ['check', 'rules', join(repoRoot, 'deploy/prometheus/rules.yml')]));
});

test('the alerts fire as deploy/prometheus/rules.test.yml says (promtool test rules)', async () => {
  expectOk(await run('promtool', ['test', 'rules', join(repoRoot, 'deploy/prometheus/rules.test.yml')]));
});
