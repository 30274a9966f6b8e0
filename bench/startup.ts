// Time to ready of a throwaway apiserver, three ways: `svc-apiserver --ephemeral` (a process,
// memory storage), startTestServer in this process (a worker thread, memory storage), and a
// fresh etcd plus the apiserver process on it. Ready = /readyz answers 200 (startTestServer
// resolves at the same point: post-start hooks done). Beside them, the published envtest figures.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as TestServerModule from '../cmd/testServer';
import { freePort, startEtcd } from '../lib/etcd/testing/etcdServer';
import { repoRoot } from './cluster';

export interface StartupStats {
  runs: number;
  p50Ms: number;
  minMs: number;
  maxMs: number;
}

export interface StartupResult {
  ephemeral: StartupStats;
  inProcess: StartupStats;
  etcdAndServer: StartupStats;
  /** What envtest (controller-runtime: a kube-apiserver and an etcd process per suite) publishes. */
  envtestReference: string;
}

export const envtestReference =
  'no measured envtest start time is published; its documented bounds: controller-runtime envtest waits up to 20 s for etcd + kube-apiserver ' +
  '(defaultKubebuilderControlPlaneStartTimeout, KUBEBUILDER_CONTROLPLANE_START_TIMEOUT), and Kubernetes’ own integration StartTestServer allowed 10 s, ' +
  'raised to 60 s after 31–35 s starts on CI runners (kubernetes/kubernetes#137743)';

function stats(ms: number[]): StartupStats {
  const s = [...ms].sort((a, b) => a - b);
  return { runs: s.length, p50Ms: Math.round(s[Math.floor(s.length / 2)]), minMs: Math.round(s[0]), maxMs: Math.round(s[s.length - 1]) };
}

function readyz(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = https.request({ host: '127.0.0.1', port, path: '/readyz', rejectUnauthorized: false, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

async function untilReady(port: number, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await readyz(port))) {
    if (exited()) throw new Error('the apiserver exited before it was ready');
    if (Date.now() > deadline) throw new Error('the apiserver was not ready in 60 s');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Spawns the apiserver with args, returns ms until /readyz is 200, then stops it. */
async function timeProcess(args: string[], port: number): Promise<number> {
  const t = performance.now();
  const child = spawn(process.execPath, [join(repoRoot, 'bin/svc-apiserver'), '--bind-address=127.0.0.1', `--secure-port=${port}`, ...args], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await untilReady(port, () => child.exitCode !== null);
    return performance.now() - t;
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

export async function runStartup(opts: { runs: number; log: (msg: string) => void }): Promise<StartupResult> {
  const { startTestServer } = require(join(repoRoot, 'dist/cmd/testServer/index.js')) as typeof TestServerModule;
  const ephemeral: number[] = [];
  const inProcess: number[] = [];
  const etcdAndServer: number[] = [];
  for (let i = 0; i < opts.runs; i++) {
    opts.log(`startup run ${i + 1}/${opts.runs}`);
    ephemeral.push(await timeProcess(['--ephemeral'], await freePort()));

    let t = performance.now();
    const s = await startTestServer();
    inProcess.push(performance.now() - t);
    await s.stop();

    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-startup-'));
    t = performance.now();
    const etcd = await startEtcd();
    const etcdMs = performance.now() - t;
    try {
      // etcd ready, then the apiserver process on it until /readyz (its own stop not counted).
      const serverMs = await timeProcess([`--etcd-servers=${etcd.endpoint}`, `--cert-dir=${join(dir, 'pki')}`], await freePort());
      etcdAndServer.push(etcdMs + serverMs);
    } finally {
      await etcd.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { ephemeral: stats(ephemeral), inProcess: stats(inProcess), etcdAndServer: stats(etcdAndServer), envtestReference };
}
