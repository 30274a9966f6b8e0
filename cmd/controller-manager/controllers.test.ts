import { Writable } from 'node:stream';
import pino from 'pino';
import type { ApiObject } from '../../lib/api';
import type { RestClient } from '../../lib/client';
import type { Controller } from '../../lib/controllers/controller';
import { CsrCleanerController } from '../../lib/controllers/csr';
import { NamespaceController } from '../../lib/controllers/namespaces';
import { ServiceAccountsController } from '../../lib/controllers/serviceaccounts';
import type { CsrSigner } from '../../lib/signing/signer';
import { controllerInitializers, controllerLog, ControllerContext, ControllerInitializer, runControllers } from './controllers';
import { SharedInformers } from './informers';
import { ControllerManagerMetrics } from './metrics';
import { ControllerName, parseControllerManagerFlags } from './options';

function captureLog(): { log: pino.Logger; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const dest = new Writable({
    write(chunk: Buffer, _e, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
  const log = pino({ name: 'svc-controller-manager', level: 'debug' }, dest);
  return { log, lines: () => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

/** A client whose list/watch never answers: informers can be made, not synced. */
const idleClient = { listWatch: () => ({ list: () => new Promise(() => undefined), watch: () => new Promise(() => undefined) }) } as unknown as RestClient;

function context(events: string[]): ControllerContext {
  const { options } = parseControllerManagerFlags(['--kubeconfig=/tmp/k']);
  if (!options) throw new Error('no options');
  return {
    client: idleClient,
    informers: { for: () => ({}) as never, start: () => events.push('informers started') },
    options,
    metrics: new ControllerManagerMetrics(),
    logFor: () => ({ debug: () => undefined, info: () => undefined, error: () => undefined }),
  };
}

class Recorded implements Controller {
  constructor(
    readonly name: string,
    private readonly events: string[],
  ) {}
  async run(signal: AbortSignal): Promise<void> {
    this.events.push(`${this.name} running`);
    await new Promise<void>((r) => signal.addEventListener('abort', () => r()));
    this.events.push(`${this.name} stopped`);
  }
}

describe('runControllers', () => {
  test('builds the named controllers, then starts informers, runs them until the signal aborts', async () => {
    const events: string[] = [];
    const build = (name: string): ControllerInitializer => () => (events.push(`build ${name}`), new Recorded(name, events));
    const table = {
      csrsigning: () => ({ skipped: 'Skipping CSR signer controller because no csr cert/key was specified' }),
      csrapproving: build('csrapproving'),
      csrcleaner: build('csrcleaner'),
      serviceaccount: build('serviceaccount'),
      namespace: build('namespace'),
    } satisfies Record<ControllerName, ControllerInitializer>;
    const { log, lines } = captureLog();
    const started: string[] = [];
    const ac = new AbortController();
    const done = runControllers(context(events), ['csrsigning', 'csrapproving', 'namespace'], ac.signal, { log, table, onStarted: (n) => started.push(n) });
    await new Promise((r) => setImmediate(r));
    expect(events).toEqual(['build csrapproving', 'build namespace', 'informers started', 'csrapproving running', 'namespace running']);
    expect(started).toEqual(['csrapproving', 'namespace']);
    expect(lines().map((l) => [l.controller, l.msg])).toEqual([
      ['csrsigning', 'Skipping CSR signer controller because no csr cert/key was specified'],
      ['csrapproving', 'Started controller'],
      ['namespace', 'Started controller'],
    ]);
    ac.abort();
    await done;
    expect(events.slice(-2).sort()).toEqual(['csrapproving stopped', 'namespace stopped']);
  });

  test('a controller whose resources are not served is skipped with one line; the others run', async () => {
    const events: string[] = [];
    const build = (name: string): ControllerInitializer => () => (events.push(`build ${name}`), new Recorded(name, events));
    const table = { ...controllerInitializers, csrapproving: build('csrapproving'), namespace: build('namespace') };
    const { log, lines } = captureLog();
    const started: string[] = [];
    const ac = new AbortController();
    const ctx = { ...context(events), availableResources: new Set(['/v1/namespaces', '/v1/serviceaccounts']) };
    const done = runControllers(ctx, ['csrapproving', 'namespace'], ac.signal, { log, table, onStarted: (n) => started.push(n) });
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['namespace']);
    expect(lines().map((l) => [l.controller, l.msg, l.notServed])).toEqual([
      ['csrapproving', 'Warning: skipping controller', ['certificates.svc.io/v1/certificatesigningrequests']],
      ['namespace', 'Started controller', undefined],
    ]);
    ac.abort();
    await done;
  });

  test('a controller that cannot be built fails the start', async () => {
    const table = { ...controllerInitializers, namespace: () => { throw new Error('no discovery'); } };
    await expect(runControllers(context([]), ['namespace'], new AbortController().signal, { log: captureLog().log, table })).rejects.toThrow(
      'error starting controller "namespace": no discovery',
    );
  });
});

describe('controllerInitializers', () => {
  test('serviceaccount and namespace share the namespace informer; csrsigning is skipped without a CA', () => {
    const informers = new SharedInformers(idleClient);
    const asked: string[] = [];
    const ctx = { ...context([]), informers: { for: <T extends ApiObject>(r: Parameters<SharedInformers['for']>[0]) => (asked.push(r.resource), informers.for<T>(r)), start: () => undefined } };
    expect(controllerInitializers.serviceaccount(ctx)).toBeInstanceOf(ServiceAccountsController);
    expect(controllerInitializers.namespace(ctx)).toBeInstanceOf(NamespaceController);
    expect(asked).toEqual(['namespaces', 'serviceaccounts', 'namespaces']);
    expect(informers.for({ group: '', version: 'v1', resource: 'namespaces', namespaced: false })).toBe(informers.for({ group: '', version: 'v1', resource: 'namespaces', namespaced: false }));
    expect(controllerInitializers.csrsigning(ctx)).toEqual({ skipped: 'Skipping CSR signer controller because no csr cert/key was specified' });
    expect(controllerInitializers.csrapproving(ctx)).toMatchObject({ name: 'csrapproving' });
  });

  test('every queue-driven controller exports its workqueue_* series under its name (csrcleaner polls: no queue)', async () => {
    const ctx = { ...context([]), informers: new SharedInformers(idleClient), signer: {} as CsrSigner };
    const queued: ControllerName[] = ['csrsigning', 'csrapproving', 'serviceaccount', 'namespace'];
    for (const name of [...queued, 'csrcleaner'] as const) expect(controllerInitializers[name](ctx)).toMatchObject({ name });
    const text = await ctx.metrics.registry.metrics();
    for (const name of queued) {
      expect(text).toContain(`workqueue_adds_total{name="${name}"} 0\n`);
      expect(text).toContain(`workqueue_depth{name="${name}"} 0\n`);
    }
    expect(text).not.toContain('name="csrcleaner"');
  });

  test('csrcleaner takes its deadlines from the --csr-cleaner-* flags', () => {
    const { options } = parseControllerManagerFlags(['--kubeconfig=/tmp/k', '--csr-cleaner-polling-interval=1s', '--csr-cleaner-pending-expiration=5s']);
    if (!options) throw new Error('no options');
    const cleaner = controllerInitializers.csrcleaner({ ...context([]), options, informers: new SharedInformers(idleClient) });
    expect(cleaner).toBeInstanceOf(CsrCleanerController);
    expect((cleaner as CsrCleanerController).intervals).toEqual({ pollingInterval: 1_000, approvedExpiration: 3_600_000, deniedExpiration: 3_600_000, pendingExpiration: 5_000 });
  });
});

describe('controllerLog', () => {
  test('tags lines with the controller once and keeps pino\'s name', () => {
    const { log, lines } = captureLog();
    const l = controllerLog(log, 'csrsigning');
    l.info('Starting certificate controller', { name: 'csrsigning' });
    l.error('sign failed', { name: 'csr-1', controller: 'csrsigning' });
    l.debug('x');
    expect(lines().map(({ time: _t, pid: _p, hostname: _h, ...rest }) => rest)).toEqual([
      { level: 30, name: 'svc-controller-manager', controller: 'csrsigning', msg: 'Starting certificate controller' },
      { level: 50, name: 'svc-controller-manager', controller: 'csrsigning', objectName: 'csr-1', msg: 'sign failed' },
      { level: 20, name: 'svc-controller-manager', controller: 'csrsigning', msg: 'x' },
    ]);
  });
});
