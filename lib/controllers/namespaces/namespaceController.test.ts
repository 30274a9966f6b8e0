import type { Namespace } from '../../api';
import { FakeClock, flushPromises } from '../../client';
import type { WorkQueueMetricsSink } from '../controller';
import { NamespaceController } from './namespaceController';
import { ResourcesRemainingError } from './resourcesDeleter';
import { FakeApi, fakeResources as R } from './testing/fakeApi';

const deleting = (name: string): Namespace => ({
  metadata: { name, deletionTimestamp: '2025-01-01T00:00:00Z' },
  spec: { finalizers: ['svc'] },
  status: { phase: 'Terminating' },
});
const active = (name: string): Namespace => ({ metadata: { name }, spec: { finalizers: ['svc'] }, status: { phase: 'Active' } });

/** A deleter that answers from a script and records when (fake time) it was called. */
class ScriptedDeleter {
  readonly calls: Array<{ name: string; at: number }> = [];
  constructor(
    private readonly clock: FakeClock,
    private readonly script: Array<Error | undefined> = [],
  ) {}
  async delete(name: string): Promise<void> {
    this.calls.push({ name, at: this.clock.now() });
    const next = this.script.shift();
    if (next) throw next;
  }
}

function start(opts: { api?: FakeApi; deleter?: ScriptedDeleter; clock?: FakeClock; resyncPeriodMs?: number; metrics?: WorkQueueMetricsSink } = {}) {
  const clock = opts.clock ?? new FakeClock();
  const api = opts.api ?? new FakeApi();
  const informer = api.informer<Namespace>(R.namespaces);
  const errors: string[] = [];
  const controller = new NamespaceController({
    client: api,
    namespaces: informer,
    clock,
    deleter: opts.deleter,
    resyncPeriodMs: opts.resyncPeriodMs ?? 0,
    queueMetrics: opts.metrics,
    log: { debug: () => undefined, info: () => undefined, error: (m) => errors.push(m) },
  });
  const ac = new AbortController();
  const running = controller.run(ac.signal);
  return { clock, api, informer, controller, errors, running, stop: async () => (ac.abort(), running) };
}

describe('NamespaceController', () => {
  test('acts on a deleting namespace after the 5 s grace period: content removed, namespace finalized', async () => {
    const api = new FakeApi();
    api.seed(R.namespaces, deleting('doomed'));
    api.seed(R.namespaces, active('kept'));
    api.seed(R.serviceaccounts, { metadata: { name: 'default', namespace: 'doomed' } });
    api.seed(R.serviceaccounts, { metadata: { name: 'default', namespace: 'kept' } });
    const t = start({ api });

    await t.clock.advance(4999);
    expect(api.calls).toEqual([]);
    await t.clock.advance(1);
    expect(api.object(R.namespaces, 'doomed')).toBeUndefined();
    expect(api.names(R.serviceaccounts, 'doomed')).toEqual([]);
    expect(api.names(R.serviceaccounts, 'kept')).toEqual(['default']);
    expect(api.calls.filter((c) => c.includes('/kept'))).toEqual([]);
    await t.stop();
  });

  test('a namespace is queued when an update marks it for deletion', async () => {
    const api = new FakeApi();
    api.seed(R.namespaces, active('x'));
    const clock = new FakeClock();
    const deleter = new ScriptedDeleter(clock);
    const t = start({ api, deleter, clock });
    await t.clock.advance(60_000);
    expect(deleter.calls).toEqual([]);
    t.informer.upsert({ ...deleting('x'), metadata: { ...deleting('x').metadata, resourceVersion: '2' } });
    await t.clock.advance(5000);
    expect(deleter.calls.map((c) => c.name)).toEqual(['x']);
    await t.stop();
  });

  test.each<[string, Array<Error | undefined>, number[]]>([
    // estimate 15 → requeued after 15/2+1 = 8 s; then done.
    ['content remaining', [new ResourcesRemainingError(15), undefined], [5000, 13_000]],
    ['estimate 0 still waits a second', [new ResourcesRemainingError(0), undefined], [5000, 6000]],
    // other failures back off per key from 5 ms, doubling.
    ['failures back off', [new Error('boom'), new Error('boom'), undefined], [5000, 5005, 5015]],
  ])('retry timing: %s', async (_n, script, at) => {
    const clock = new FakeClock(0);
    const api = new FakeApi();
    api.seed(R.namespaces, deleting('x'));
    const failures = script.filter((e) => e && !(e instanceof ResourcesRemainingError)).map((e) => `deletion of namespace x failed: ${e?.message}`);
    const deleter = new ScriptedDeleter(clock, [...script]);
    const t = start({ api, deleter, clock });
    await clock.advance(60_000);
    expect(deleter.calls.map((c) => c.at)).toEqual(at);
    expect(t.errors).toEqual(failures);
    await t.stop();
  });

  test('the resync period looks at deleting namespaces again; a namespace gone from the cache is skipped', async () => {
    const clock = new FakeClock(0);
    const api = new FakeApi();
    api.seed(R.namespaces, deleting('x'));
    api.seed(R.namespaces, active('y'));
    const deleter = new ScriptedDeleter(clock);
    const t = start({ api, deleter, clock, resyncPeriodMs: 60_000 });
    await clock.advance(130_000);
    expect(deleter.calls).toEqual([
      { name: 'x', at: 5000 },
      { name: 'x', at: 65_000 },
      { name: 'x', at: 125_000 },
    ]);
    t.informer.upsert({ ...deleting('z') });
    t.informer.remove(deleting('z'));
    await clock.advance(10_000);
    expect(deleter.calls.map((c) => c.name)).not.toContain('z');
    await t.stop();
  });

  test('waits for the informer to sync, stops on abort, reports queue metrics', async () => {
    const clock = new FakeClock(0);
    const api = new FakeApi();
    api.seed(R.namespaces, deleting('x'));
    const informer = api.informer<Namespace>(R.namespaces, false);
    const adds: string[] = [];
    const deleter = new ScriptedDeleter(clock);
    const controller = new NamespaceController({
      client: api,
      namespaces: informer,
      clock,
      deleter,
      resyncPeriodMs: 0,
      queueMetrics: { added: (q) => adds.push(q), depth: () => undefined, retried: () => undefined },
    });
    const ac = new AbortController();
    const running = controller.run(ac.signal);
    await clock.advance(10_000);
    expect(deleter.calls).toEqual([]);
    informer.markSynced();
    await clock.advance(5000);
    expect(deleter.calls.map((c) => c.at)).toEqual([15_000]);
    expect(adds).toEqual(['namespace']);
    ac.abort();
    await expect(running).resolves.toBeUndefined();
    expect(controller.queue.shuttingDown()).toBe(true);
    await flushPromises();
  });
});
