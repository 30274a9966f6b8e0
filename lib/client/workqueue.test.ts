import { FakeClock, flushPromises } from './fakeClock';
import { ItemExponentialFailureRateLimiter } from './rateLimiter';
import { WorkQueue } from './workqueue';

/** Resolves what get() has delivered so far without waiting. */
function track<K>(p: Promise<K | undefined>): { settled: boolean; value?: K } {
  const t: { settled: boolean; value?: K } = { settled: false };
  void p.then((v) => {
    t.settled = true;
    t.value = v;
  });
  return t;
}

describe('WorkQueue', () => {
  it('collapses duplicates while queued and keeps first-in order', async () => {
    const q = new WorkQueue<string>({ clock: new FakeClock() });
    for (const k of ['a', 'b', 'a', 'c', 'b']) q.add(k);
    expect(q.len()).toBe(3);
    expect([await q.get(), await q.get(), await q.get()]).toEqual(['a', 'b', 'c']);
    expect(q.len()).toBe(0);
  });

  it('requeues a key added during processing exactly once, at done()', async () => {
    const q = new WorkQueue<string>({ clock: new FakeClock() });
    q.add('a');
    expect(await q.get()).toBe('a');
    q.add('a');
    q.add('a');
    expect(q.len()).toBe(0); // not handed out while processing
    q.done('a');
    expect(q.len()).toBe(1);
    expect(await q.get()).toBe('a');
    q.done('a');
    expect(q.len()).toBe(0);
  });

  it('never hands one key to two workers at once', async () => {
    const q = new WorkQueue<string>({ clock: new FakeClock() });
    const w1 = track(q.get());
    const w2 = track(q.get());
    q.add('a');
    await flushPromises();
    expect(w1).toEqual({ settled: true, value: 'a' });
    q.add('a');
    await flushPromises();
    expect(w2.settled).toBe(false);
    q.add('b');
    await flushPromises();
    expect(w2).toEqual({ settled: true, value: 'b' });
    const w3 = track(q.get());
    q.done('a');
    await flushPromises();
    expect(w3).toEqual({ settled: true, value: 'a' });
  });

  it('delays keys with addAfter, keeping the earliest time for a key', async () => {
    const clock = new FakeClock();
    const q = new WorkQueue<string>({ clock });
    q.addAfter('a', 1000);
    q.addAfter('a', 300);
    q.addAfter('a', 5000);
    q.addAfter('b', 500);
    q.addAfter('now', 0);
    expect(q.len()).toBe(1);
    expect(await q.get()).toBe('now');
    await clock.advance(299);
    expect(q.len()).toBe(0);
    await clock.advance(1);
    expect(q.len()).toBe(1);
    await clock.advance(200);
    expect(q.len()).toBe(2);
    expect([await q.get(), await q.get()]).toEqual(['a', 'b']);
    await clock.advance(10_000);
    expect(q.len()).toBe(0); // the later requests for 'a' were absorbed
  });

  it('rate-limits requeues per key until forgotten', async () => {
    const clock = new FakeClock();
    const q = new WorkQueue<string>({ clock });
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      q.addRateLimited('k');
      const d = clock.nextDelay() ?? -1;
      delays.push(d);
      await clock.advance(d);
      expect(await q.get()).toBe('k');
      q.done('k');
    }
    expect(delays).toEqual([5, 10, 20, 40]);
    expect(q.numRequeues('k')).toBe(4);
    q.forget('k');
    expect(q.numRequeues('k')).toBe(0);
    q.addRateLimited('k');
    expect(clock.nextDelay()).toBe(5);
  });

  it('uses an injected rate limiter', () => {
    const clock = new FakeClock();
    const q = new WorkQueue<string>({ clock, rateLimiter: new ItemExponentialFailureRateLimiter(1000, 60_000) });
    q.addRateLimited('k');
    expect(clock.nextDelay()).toBe(1000);
  });

  it('on shutdown hands out what is queued, then undefined; ignores adds; drops delayed keys', async () => {
    const clock = new FakeClock();
    const q = new WorkQueue<string>({ clock });
    q.add('a');
    q.addAfter('later', 100);
    q.shutDown();
    q.add('b');
    expect(q.shuttingDown()).toBe(true);
    expect(await q.get()).toBe('a');
    expect(await q.get()).toBeUndefined();
    await clock.advance(1000);
    expect(q.len()).toBe(0);
    expect(clock.pendingCount()).toBe(0);
  });

  it('wakes idle workers with undefined on shutdown', async () => {
    const q = new WorkQueue<string>({ clock: new FakeClock() });
    const idle = [track(q.get()), track(q.get())];
    q.shutDown();
    await flushPromises();
    expect(idle).toEqual([
      { settled: true, value: undefined },
      { settled: true, value: undefined },
    ]);
  });

  it('shutDownWithDrain waits for keys in process', async () => {
    const q = new WorkQueue<string>({ clock: new FakeClock() });
    q.add('a');
    const key = await q.get();
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => (drained = true));
    await flushPromises();
    expect(drained).toBe(false);
    q.done(key as string);
    await drain;
    expect(drained).toBe(true);
  });
});
