// --feature-gates through the real processes: upstream's messages and exit code for bad values,
// the gate list in --help, and the svc_feature_enabled gauge on the apiserver's /metrics.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { eventually, repoRoot, startCluster, TestCluster } from './support/apiserver';
import { metricValue, runControllerManager } from './support/controllerManager';

function runApiServer(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res) => {
    execFile(process.execPath, [join(repoRoot, 'bin/svc-apiserver'), ...args], { timeout: 20_000 }, (err, stdout, stderr) => {
      res({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const runners = [
  ['svc-apiserver', runApiServer],
  ['svc-controller-manager', (args: string[]) => runControllerManager(['--kubeconfig=/nonexistent', ...args])],
] as const;

describe.each(runners)('%s --feature-gates', (_name, run) => {
  test.each([
    ['APIListChunking=false', 'Error: invalid argument "APIListChunking=false" for "--feature-gates" flag: cannot set feature gate APIListChunking to false, feature is locked to true\n'],
    ['NoSuchGate=true', 'Error: invalid argument "NoSuchGate=true" for "--feature-gates" flag: unrecognized feature gate: NoSuchGate\n'],
    ['WatchList=maybe', 'Error: invalid argument "WatchList=maybe" for "--feature-gates" flag: invalid value of WatchList=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax\n'],
  ])('%s exits 1 with upstream message', async (value, message) => {
    const r = await run([`--feature-gates=${value}`]);
    expect(r.code).toBe(1);
    expect(r.stderr.startsWith(message)).toBe(true);
  });

  test('--help lists every alpha/beta gate with stage and default', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    const indent = '            ';
    expect(r.stdout).toContain(`--feature-gates string\n${indent}A set of key=value pairs that describe feature gates for alpha/experimental features. Options are:\n${indent}APIResponseCompression=true|false (BETA - default=true)\n`);
    for (const line of ['AllAlpha=true|false (ALPHA - default=false)', 'AllBeta=true|false (BETA - default=false)', 'AllowUnsafeMalformedObjectDeletion=true|false (ALPHA - default=false)', 'WatchList=true|false (BETA - default=true)']) {
      expect(r.stdout).toContain(`\n${indent}${line}\n`);
    }
    // GA gates are hidden, as upstream's KnownFeatures hides them.
    expect(r.stdout).not.toContain('APIListChunking=true|false');
  });
});

describe('running with a gate enabled', () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await startCluster(['--feature-gates=AllowUnsafeMalformedObjectDeletion=true,WatchList=false,APIListChunking=true']);
  });
  afterAll(async () => {
    await c?.stop();
  });

  test('/metrics has svc_feature_enabled for each gate', async () => {
    const text = (await c.apiserver.request('GET', '/metrics')).body;
    expect(text).toContain('# TYPE svc_feature_enabled gauge');
    expect(metricValue(text, 'svc_feature_enabled', { name: 'AllowUnsafeMalformedObjectDeletion', stage: 'ALPHA' })).toBe(1);
    expect(metricValue(text, 'svc_feature_enabled', { name: 'WatchList', stage: 'BETA' })).toBe(0);
    expect(metricValue(text, 'svc_feature_enabled', { name: 'APIListChunking', stage: '' })).toBe(1);
    expect(metricValue(text, 'svc_feature_enabled', { name: 'CBORServingAndStorage', stage: 'ALPHA' })).toBe(0);
  });

  test('setting a GA gate logs upstream warning', async () => {
    // The log is buffered (flushed at least once a second): poll for it.
    const line = 'Setting GA feature gate APIListChunking=true. It will be removed in a future release.';
    await eventually(async () => c.apiserver.logs.includes(line), 5_000, 'the GA gate warning');
    expect(c.apiserver.logs).toContain(line);
  });
});
