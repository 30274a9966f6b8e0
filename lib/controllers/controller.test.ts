import { FakeClock, flushPromises } from '../client';
import { InstrumentedWorkQueue, runWorkers, waitForCacheSync, WorkQueueMetricsSink } from './controller';

class RecordingMetrics implements WorkQueueMetricsSink {
  adds = 0;
  retries = 0;
  depths: number[] = [];
  added(): void {
    this.adds++;
  }
  depth(_q: string, d: number): void {
    this.depths.push(d);
  }
  retried(): void {
    this.retries++;
  }
}

describe('InstrumentedWorkQueue', () => {
  test.each<[string, (q: InstrumentedWorkQueue<string>) => Promise<void>, { adds: number; lastDepth: number }]>([
    ['one add', async (q) => q.add('a'), { adds: 1, lastDepth: 1 }],
    ['duplicate adds count once', async (q) => (q.add('a'), q.add('a'), q.add('b')), { adds: 2, lastDepth: 2 }],
    [
      'a key handed out and added again counts again',
      async (q) => {
        q.add('a');
        const k = await q.get();
        q.add('a');
        q.done(k as string);
      },
      { adds: 2, lastDepth: 1 },
    ],
    ['adds after shutdown do not count', async (q) => (q.shutDown(), q.add('a')), { adds: 0, lastDepth: -1 }],
  ])('%s', async (_n, act, want) => {
    const m = new RecordingMetrics();
    const q = new InstrumentedWorkQueue<string>('test', m, { clock: new FakeClock() });
    await act(q);
    expect(m.adds).toBe(want.adds);
    expect(m.depths.length ? m.depths[m.depths.length - 1] : -1).toBe(want.lastDepth);
  });

  test('delayed and rate-limited adds are counted when they land; retries counted', async () => {
    const clock = new FakeClock();
    const m = new RecordingMetrics();
    const q = new InstrumentedWorkQueue<string>('test', m, { clock });
    q.addAfter('a', 1000);
    q.addRateLimited('b');
    expect(m.adds).toBe(0);
    expect(m.retries).toBe(1);
    await clock.advance(1000);
    expect(m.adds).toBe(2);
    expect(q.len()).toBe(2);
    expect(await q.get()).toBe('b');
    expect(m.depths[m.depths.length - 1]).toBe(1);
  });
});

describe('InstrumentedWorkQueue durations', () => {
  test('queue duration runs from the add to the get, work duration from the get to done', async () => {
    const clock = new FakeClock();
    const queued: number[] = [];
    const worked: number[] = [];
    const m = { added: () => undefined, depth: () => undefined, retried: () => undefined, queued: (_q: string, s: number) => queued.push(s), worked: (_q: string, s: number) => worked.push(s) };
    const q = new InstrumentedWorkQueue<string>('test', m, { clock });
    q.add('a');
    await clock.advance(250);
    q.add('a'); // deduplicated: the wait counts from the first add
    await clock.advance(250);
    const k = await q.get();
    await clock.advance(1500);
    q.done(k as string);
    expect({ queued, worked }).toEqual({ queued: [0.5], worked: [1.5] });
  });
});

describe('runWorkers', () => {
  test('processes every key with bounded concurrency and ends when the signal aborts', async () => {
    const q = new InstrumentedWorkQueue<string>('test', undefined, { clock: new FakeClock() });
    const ac = new AbortController();
    let running = 0;
    let maxRunning = 0;
    const seen: string[] = [];
    const gates: Array<() => void> = [];
    const done = runWorkers(
      q,
      2,
      async (k) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await new Promise<void>((r) => gates.push(r));
        seen.push(k);
        running--;
      },
      ac.signal,
    );
    for (const k of ['a', 'b', 'c']) q.add(k);
    await flushPromises();
    expect(running).toBe(2);
    gates.splice(0).forEach((g) => g());
    await flushPromises();
    gates.splice(0).forEach((g) => g());
    await flushPromises();
    expect(seen.sort()).toEqual(['a', 'b', 'c']);
    expect(maxRunning).toBe(2);
    ac.abort();
    await expect(done).resolves.toBeUndefined();
    expect(q.shuttingDown()).toBe(true);
  });

  test('a throwing process is reported and the key is marked done', async () => {
    const q = new InstrumentedWorkQueue<string>('test', undefined, { clock: new FakeClock() });
    const ac = new AbortController();
    const errors: string[] = [];
    const done = runWorkers(q, 1, async () => Promise.reject(new Error('boom')), ac.signal, (k, e) => errors.push(`${k}: ${(e as Error).message}`));
    q.add('a');
    await flushPromises();
    q.add('a'); // would never be handed out again if 'a' were still processing
    await flushPromises();
    expect(errors).toEqual(['a: boom', 'a: boom']);
    ac.abort();
    await done;
  });
});

describe('waitForCacheSync', () => {
  test.each<[string, boolean[], boolean, boolean]>([
    ['all synced', [true, true], false, true],
    ['one never syncs, signal aborted', [true, false], true, false],
  ])('%s', async (_n, syncs, abort, want) => {
    const ac = new AbortController();
    const informers = syncs.map((s) => ({
      waitForSync: (signal?: AbortSignal): Promise<boolean> =>
        s ? Promise.resolve(true) : new Promise<boolean>((r) => signal?.addEventListener('abort', () => r(false))),
    }));
    const p = waitForCacheSync(ac.signal, ...informers);
    if (abort) ac.abort();
    await expect(p).resolves.toBe(want);
  });
});
