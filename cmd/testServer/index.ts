// svc-apiserver/testing: a real apiserver for a test suite, started in-process (a worker thread
// per server: the same HTTP, admission, RBAC and watch-cache code as the binary, its own module
// graph and naming profile, nothing shared with other servers), with a fresh PKI and kubeconfig
// in a temporary directory. stop() shuts it down gracefully, ends the thread and removes the
// directory. docs/decisions.md, "Test server".
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { load } from 'js-yaml';
import type { NamingProfileName } from '../../lib/api/naming/profiles';
import type { FromWorker, ToWorker, WorkerInput } from './protocol';

export type { NamingProfileName } from '../../lib/api/naming/profiles';

export interface TestServerOptions {
  /** API spelling (default svc); k8s for stock clients such as @kubernetes/client-node's typed APIs. */
  naming?: NamingProfileName;
  /** memory (default): nothing outside the process; etcd: the given etcd, under a prefix of its own. */
  storage?: 'memory' | 'etcd';
  etcd?: { endpoints: string[]; /** Default: a new prefix per server, so servers never share data. */ prefix?: string };
  /** --feature-gates, e.g. { MutatingAdmissionPolicy: true }. */
  featureGates?: Readonly<Record<string, boolean>>;
  /** --runtime-config, e.g. { 'api/beta': true } or { 'authentication.k8s.io/v1beta1': true }. */
  runtimeConfig?: Readonly<Record<string, boolean>>;
  /** More svc-apiserver flags, as on its command line. */
  extraArgs?: readonly string[];
}

export interface TestServer {
  /** https://127.0.0.1:<port> */
  url: string;
  /** The admin kubeconfig (client certificate of system:masters), for kubectl and stock clients. */
  kubeconfigPath: string;
  /** The same kubeconfig, parsed. */
  kubeconfig: Record<string, unknown>;
  /** PEM of the cluster CA that signed the serving and client certificates. */
  ca: string;
  /** The admin's client certificate and key (PEM). */
  adminCert: { cert: string; key: string };
  /** Graceful shutdown; then no port, timer, thread or file of this server is left. */
  stop(): Promise<void>;
}

/** The built worker (dist/); under ts-jest/swc the sources are not runnable in a thread, so tests use the build too. */
function workerFile(): string {
  return __filename.endsWith('.ts') ? join(__dirname, '../../dist/cmd/testServer/worker.js') : join(__dirname, 'worker.js');
}

function flagList(values: Readonly<Record<string, boolean>> | undefined): string {
  return Object.entries(values ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

export function testServerArgs(dir: string, opts: TestServerOptions): string[] {
  const storage = opts.storage ?? 'memory';
  if (storage === 'etcd' && !opts.etcd?.endpoints.length) throw new Error("startTestServer: storage 'etcd' needs etcd.endpoints");
  return [
    `--api-naming=${opts.naming ?? 'svc'}`,
    '--bind-address=127.0.0.1',
    '--secure-port=0',
    `--cert-dir=${join(dir, 'pki')}`,
    `--write-kubeconfig=${join(dir, 'admin.kubeconfig')}`,
    ...(storage === 'memory'
      ? ['--storage-backend=memory']
      : ['--storage-backend=etcd3', `--etcd-servers=${opts.etcd!.endpoints.join(',')}`, `--etcd-prefix=${opts.etcd!.prefix ?? `/svc-test-${randomUUID()}`}`]),
    // No compaction rounds: a test server is short-lived and the timer would outlive nothing.
    '--etcd-compaction-interval=0',
    ...(opts.featureGates ? [`--feature-gates=${flagList(opts.featureGates)}`] : []),
    ...(opts.runtimeConfig ? [`--runtime-config=${flagList(opts.runtimeConfig)}`] : []),
    ...(opts.extraArgs ?? []),
  ];
}

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-test-server-'));
  const input: WorkerInput = { argv: testServerArgs(dir, opts) };
  const worker = new Worker(workerFile(), { workerData: input, stdout: true, stderr: true });
  // The thread's console output is the test's business only on failure.
  worker.stdout.resume();
  worker.stderr.resume();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const cleanUp = async (): Promise<void> => {
    await worker.terminate();
    await exited;
    await rm(dir, { recursive: true, force: true });
  };

  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      const onMessage = (m: FromWorker): void => {
        if (m.type === 'ready') resolve(m.port);
        else if (m.type === 'failed') reject(new Error(`test server failed to start: ${m.message}\n${m.log.join('')}`));
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
      void exited.then(() => reject(new Error('test server thread exited before it was ready')));
    });
  } catch (e) {
    await cleanUp();
    throw e;
  }

  const pki = join(dir, 'pki');
  const kubeconfigPath = join(dir, 'admin.kubeconfig');
  const [kubeconfigText, ca, cert, key] = await Promise.all(
    [kubeconfigPath, join(pki, 'ca.crt'), join(pki, 'admin.crt'), join(pki, 'admin.key')].map((f) => readFile(f, 'utf8')),
  );
  let stopping: Promise<void> | undefined;
  return {
    url: `https://127.0.0.1:${port}`,
    kubeconfigPath,
    kubeconfig: load(kubeconfigText) as Record<string, unknown>,
    ca,
    adminCert: { cert, key },
    stop: () =>
      (stopping ??= (async () => {
        const stopped = new Promise<void>((resolve) => {
          worker.on('message', (m: FromWorker) => m.type === 'stopped' && resolve());
          void exited.then(resolve);
        });
        worker.postMessage({ type: 'stop' } satisfies ToWorker);
        await stopped;
        await cleanUp();
      })()),
  };
}
