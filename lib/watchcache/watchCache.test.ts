// WatchCache behaviour over MemoryStorage (through GatedStorage, to count store reads and to
// make the cache lag on purpose).
import { CompactedError, FutureRevisionError, WatchEvent } from '../etcd/storage';
import { logRecords } from '../etcd/testing/logRecords';
import { recordWatch, WatchRecorder } from '../etcd/testing/watchRecorder';
import { CacheReinitializingError, WatcherTooSlowError } from './errors';
import { cachePrefix, closeCacheFixtures, openCacheFixture } from './testing/cacheFixture';
import { WatchCache } from './watchCache';
import { WatchBudget } from '../machinery/watchBudget';

const enc = (s: string): Uint8Array => new Uint8Array(Buffer.from(s));
const dec = (b: Uint8Array): string => Buffer.from(b).toString();
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
const P = cachePrefix;

const setup = openCacheFixture;
afterEach(closeCacheFixtures);

/** Three writers doing creates, updates and deletes under P; returns when all finished. */
async function runWriters(s: WatchCache, n: number, tag = 'w'): Promise<void> {
  await Promise.all(
    [0, 1, 2].map(async (wi) => {
      for (let i = 0; i < n; i++) {
        const key = `${P}${tag}${wi}-${i % 7}`;
        if (i % 5 === 4) await s.delete(key).catch(() => undefined);
        else await s.guaranteedUpdate(key, () => enc(`${wi}:${i}`), { ignoreNotFound: true });
        if (i % 3 === 0) await tick();
      }
    }),
  );
}

const summary = (evs: WatchEvent[]): string[] => evs.map((e) => `${e.modRevision} ${e.type} ${e.key} ${dec(e.value)}`);

describe('start and reads', () => {
  test('the initial list fills the cache (in pages) and lists are served from memory', async () => {
    const { cache, gated } = await setup({ initialListPageSize: 7 }, 30);
    expect(cache.stats()).toMatchObject({ ready: true, objects: 30 });
    const listsAfterStart = gated.calls.list;
    expect(listsAfterStart).toBe(5); // 30 keys in pages of 7

    const all = await cache.listFromCache(P);
    expect(all.kvs).toHaveLength(30);
    expect(all.count).toBe(30);
    const page = await cache.listFromCache(P, { limit: 10, startKey: P + 'seed-0005' });
    expect(page.kvs.map((kv) => dec(kv.value))).toEqual(Array.from({ length: 10 }, (_, i) => `s${i + 5}`));
    expect(page).toMatchObject({ more: true, count: 25 });
    // A consistent list (Storage.list without revision) asks the store's revision, not its data.
    const consistent = await cache.list(P, { limit: 3 });
    expect(consistent.kvs).toHaveLength(3);
    // The next page at that revision is also served from memory while the state is unchanged.
    await cache.list(P, { revision: consistent.revision, startKey: consistent.kvs[2].key + '\u0000', limit: 3 });
    expect(gated.calls.list).toBe(listsAfterStart);
  });

  test('reads at a revision the state is not exact for go to the store', async () => {
    const { cache, gated } = await setup();
    const a = await cache.create(P + 'a', enc('1'));
    await cache.guaranteedUpdate(P + 'a', () => enc('2'));
    await cache.waitUntilFresh(await cache.currentRevision());
    const before = gated.calls.get;
    expect(dec((await cache.get(P + 'a', { revision: a.modRevision })).kv!.value)).toBe('1');
    expect(gated.calls.get).toBe(before + 1);
    // At the cache's revision: memory.
    const cur = cache.cacheRevision;
    expect(dec((await cache.get(P + 'a', { revision: cur })).kv!.value)).toBe('2');
    expect(gated.calls.get).toBe(before + 1);
    // Without a revision a get is a quorum read from the store (upstream: GET with RV unset).
    await cache.get(P + 'a');
    expect(gated.calls.get).toBe(before + 2);
    // Keys and prefixes outside the cache's prefix are the store's.
    await cache.list('/registry/other/');
    expect(gated.calls.list).toBeGreaterThan(1);
  });

  test('getFromCache: Any returns what the cache has, NotOlderThan waits', async () => {
    const { cache, gated } = await setup();
    const a = await cache.create(P + 'a', enc('1'));
    await cache.waitUntilFresh(a.modRevision);
    gated.hold();
    const b = await cache.guaranteedUpdate(P + 'a', () => enc('2'));
    expect(dec((await cache.getFromCache(P + 'a')).kv!.value)).toBe('1');
    const waiting = cache.getFromCache(P + 'a', { minRevision: b.modRevision });
    setTimeout(() => gated.release(), 50);
    const res = await waiting;
    expect(dec(res.kv!.value)).toBe('2');
    expect(res.revision).toBeGreaterThanOrEqual(b.modRevision);
  });

  test('peek answers as getFromCache Any does, at once; undefined outside the prefix or once closed', async () => {
    const { cache } = await setup();
    const a = await cache.create(P + 'a', enc('1'));
    await cache.waitUntilFresh(a.modRevision);
    expect(dec(cache.peek(P + 'a')!.value)).toBe('1');
    expect(cache.peek(P + 'a')).toBe((await cache.getFromCache(P + 'a')).kv);
    expect(cache.peek(P + 'missing')).toBeNull();
    expect(cache.peek('/elsewhere/a')).toBeUndefined();
    await cache.close();
    expect(cache.peek(P + 'a')).toBeUndefined();
  });
});

describe('values of the initial list', () => {
  test('are kept as views of the buffer the store shared; once under half of a buffer is in use, the rest are copied out', async () => {
    const { gated, mem } = await setup({}, 8);
    // A store that hands out each page's values as views of one buffer (as the etcd client does).
    const packing = Object.create(gated) as typeof gated;
    packing.list = async (prefix, opts) => {
      const r = await gated.list(prefix, opts);
      const pack = Buffer.concat(r.kvs.map((kv) => kv.value));
      let at = 0;
      const kvs = r.kvs.map((kv) => {
        const value = new Uint8Array(pack.buffer, pack.byteOffset + at, kv.value.byteLength);
        at += kv.value.byteLength;
        return { ...kv, value };
      });
      return { ...r, kvs };
    };
    const cache = new WatchCache({ underlying: packing, prefix: P });
    await cache.start();
    try {
      const shared = (await cache.listFromCache(P)).kvs.map((kv) => kv.value);
      const buffer = shared[0].buffer;
      expect(shared.every((v) => v.buffer === buffer && v.byteLength < buffer.byteLength)).toBe(true);
      const update = async (i: number): Promise<void> => {
        await cache.guaranteedUpdate(`${P}seed-000${i}`, () => enc(`u${i}`));
        await cache.waitUntilFresh(await mem.currentRevision());
      };
      for (const i of [0, 1, 2, 3]) await update(i); // 4 of 8 still on the buffer: kept
      expect((await cache.listFromCache(P)).kvs.filter((kv) => kv.value.buffer === buffer)).toHaveLength(4);
      await update(4); // 3 of 8: the rest move to buffers of their own
      const after = (await cache.listFromCache(P)).kvs;
      expect(after.filter((kv) => kv.value.buffer === buffer)).toHaveLength(0);
      expect(after.map((kv) => dec(kv.value))).toEqual(['u0', 'u1', 'u2', 'u3', 'u4', 's5', 's6', 's7']);
    } finally {
      await cache.close();
    }
  });
});

describe('listFromCache semantics', () => {
  test('Any: no wait, possibly stale', async () => {
    const { cache, gated } = await setup({}, 3);
    const r0 = cache.cacheRevision;
    gated.hold();
    await cache.create(P + 'new', enc('n'));
    const t0 = Date.now();
    const res = await cache.listFromCache(P);
    expect(Date.now() - t0).toBeLessThan(50);
    expect(res.revision).toBe(r0);
    expect(res.kvs).toHaveLength(3);
  });

  test('NotOlderThan: waits for the cache to reach the revision', async () => {
    const { cache, gated } = await setup();
    gated.hold();
    const kv = await cache.create(P + 'x', enc('x'));
    const pending = cache.listFromCache(P, { minRevision: kv.modRevision });
    let done = false;
    void pending.then(() => (done = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(done).toBe(false);
    gated.release();
    const res = await pending;
    expect(res.revision).toBeGreaterThanOrEqual(kv.modRevision);
    expect(res.kvs.map((k) => k.key)).toEqual([P + 'x']);
  });

  test('NotOlderThan: FutureRevisionError after the default 3 s', async () => {
    const { cache } = await setup();
    const cur = await cache.currentRevision();
    const t0 = Date.now();
    const err = await cache.listFromCache(P, { minRevision: cur + 5 }).catch((e: unknown) => e);
    const waited = Date.now() - t0;
    expect(err).toBeInstanceOf(FutureRevisionError);
    expect((err as FutureRevisionError).requestedRevision).toBe(cur + 5);
    expect((err as FutureRevisionError).currentRevision).toBe(cur);
    expect(waited).toBeGreaterThanOrEqual(2950);
    expect(waited).toBeLessThan(3500);
  }, 10_000);

  test('Consistent: an idle prefix catches up through a progress request, served from memory', async () => {
    const { cache, gated, mem } = await setup({}, 2);
    await mem.create('/registry/unrelated/a', enc('moves the store revision only'));
    const target = await mem.currentRevision();
    expect(cache.cacheRevision).toBeLessThan(target);
    const lists = gated.calls.list;
    const res = await cache.listFromCache(P, { consistent: true });
    expect(res.revision).toBeGreaterThanOrEqual(target);
    expect(res.kvs).toHaveLength(2);
    expect(gated.calls.list).toBe(lists);
    expect(gated.calls.requestProgress).toBeGreaterThan(0);
  });

  test('Consistent: falls back to the store when the cache does not catch up in time', async () => {
    const { cache, gated } = await setup({ freshnessTimeoutMs: 300 });
    gated.hold();
    const kv = await cache.create(P + 'fresh', enc('f'));
    const lists = gated.calls.list;
    const t0 = Date.now();
    const res = await cache.listFromCache(P, { consistent: true });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    expect(gated.calls.list).toBe(lists + 1);
    expect(res.revision).toBeGreaterThanOrEqual(kv.modRevision);
    expect(res.kvs.map((k) => k.key)).toEqual([P + 'fresh']);
    gated.release();
  });

  test('waitUntilFresh resolves when events arrive and rejects after its timeout', async () => {
    const { cache, gated } = await setup();
    gated.hold();
    const kv = await cache.create(P + 'a', enc('1'));
    await expect(cache.waitUntilFresh(kv.modRevision, 100)).rejects.toBeInstanceOf(FutureRevisionError);
    const p = cache.waitUntilFresh(kv.modRevision, 1000);
    gated.release();
    await expect(p).resolves.toBeUndefined();
  });
});

describe('watches', () => {
  test('N concurrent watchers from one revision get identical, ordered, gap-free streams while writers run', async () => {
    const { cache, mem } = await setup({ windowMaxEvents: 100_000 });
    await runWriters(cache, 30, 'pre');
    const from = (await cache.currentRevision()) - 40; // part replay from the window, part live
    const truth = recordWatch(mem, P, { startRevision: from });
    const watchers: WatchRecorder[] = [];
    const writing = runWriters(cache, 200);
    // Watchers join at different moments while the writers run.
    for (let i = 0; i < 25; i++) {
      watchers.push(recordWatch(cache, P, { startRevision: from }));
      await tick();
    }
    await writing;
    const last = await cache.currentRevision();
    const expected = last - from + 1; // every write is under P: one event per revision
    await truth.waitForEvents(expected);
    for (const w of watchers) await w.waitForEvents(expected);
    const want = summary(truth.events);
    expect(want).toHaveLength(expected);
    for (const w of watchers) {
      expect(w.error).toBeUndefined();
      expect(summary(w.events)).toEqual(want);
      expect(w.events.every((e, i) => e.modRevision === from + i)).toBe(true);
    }
    truth.close();
    for (const w of watchers) w.close();
    expect(cache.stats().watchers).toBe(0);
  });

  test('a stalled watcher is terminated with WatcherTooSlowError; the others are not delayed', async () => {
    const { cache } = await setup({ watcherMaxPendingEvents: 50 });
    const start = (await cache.currentRevision()) + 1;
    let stalledError: Error | undefined;
    let stalledEvents = 0;
    const stalled = cache.watch(P, { startRevision: start }, {
      onEvents: (evs) => {
        stalledEvents += evs.length;
        stalled.pause(); // the client stops reading and never resumes
      },
      onError: (e) => (stalledError = e),
    });
    const fast = [recordWatch(cache, P, { startRevision: start }), recordWatch(cache, P, { startRevision: start })];
    let maxLag = 0;
    for (let i = 0; i < 300; i++) {
      const kv = await cache.create(`${P}k${i}`, enc(String(i)));
      await tick();
      // The others have every event one tick after its write returned.
      for (const f of fast) maxLag = Math.max(maxLag, kv.modRevision - (f.events[f.events.length - 1]?.modRevision ?? 0));
    }
    expect(maxLag).toBe(0);
    expect(stalledError).toBeInstanceOf(WatcherTooSlowError);
    expect((stalledError as WatcherTooSlowError).reason).toBe('queue-full');
    expect(stalledEvents).toBe(1);
    for (const f of fast) {
      expect(f.events).toHaveLength(300);
      expect(f.error).toBeUndefined();
      f.close();
    }
    expect(cache.stats().watchers).toBe(0);
  });

  test('a watcher cut off for being slow leaves a debug record from the component=watchcache logger', async () => {
    const { log, withMessage } = logRecords('watchcache');
    const { cache } = await setup({ watcherMaxPendingEvents: 5, log });
    let err: Error | undefined;
    const w = cache.watch(P, { startRevision: (await cache.currentRevision()) + 1 }, { onEvents: () => w.pause(), onError: (e) => (err = e) });
    for (let i = 0; i < 10; i++) await cache.create(`${P}slow${i}`, enc(String(i)));
    await tick();
    expect(err).toBeInstanceOf(WatcherTooSlowError);
    await new Promise((r) => setImmediate(r));
    expect(withMessage('watcher cut off: too slow')).toEqual([
      expect.objectContaining({ level: 20, component: 'watchcache', prefix: P, key: P, reason: 'queue-full' }),
    ]);
  });

  test('a paused watcher that resumes within its bound loses nothing; progress comes after its events', async () => {
    const { cache } = await setup({ watcherMaxPendingEvents: 50 });
    const start = (await cache.currentRevision()) + 1;
    const got: WatchEvent[] = [];
    const progress: number[] = [];
    const w = cache.watch(P, { startRevision: start }, {
      onEvents: (evs) => got.push(...evs),
      onProgress: (r) => progress.push(r),
      onError: (e) => {
        throw e;
      },
    });
    w.pause();
    for (let i = 0; i < 40; i++) await cache.create(`${P}k${i}`, enc(String(i)));
    cache.requestProgress();
    await tick();
    expect(got).toHaveLength(0);
    expect(progress).toHaveLength(0);
    w.resume();
    await tick();
    expect(got.map((e) => e.modRevision)).toEqual(Array.from({ length: 40 }, (_, i) => start + i));
    expect(progress[progress.length - 1]).toBeGreaterThanOrEqual(start + 39);
    w.close();
  });

  test('a replay larger than the bound is not "too slow"', async () => {
    const { cache } = await setup({ watcherMaxPendingEvents: 10, maxBatchEvents: 10 });
    const start = (await cache.currentRevision()) + 1;
    for (let i = 0; i < 80; i++) await cache.create(`${P}k${i}`, enc(String(i)));
    const replay = recordWatch(cache, P, { startRevision: start });
    await replay.waitForEvents(80);
    expect(replay.batches).toBe(8);
    expect(replay.error).toBeUndefined();
    replay.close();
  });

  test('a paused watcher whose position is evicted from the window ends with WatcherTooSlowError', async () => {
    const { cache } = await setup({ watcherMaxPendingEvents: 1000, maxBatchEvents: 10, windowMinEvents: 0, windowMaxEvents: 100 });
    const start = (await cache.currentRevision()) + 1;
    for (let i = 0; i < 80; i++) await cache.create(`${P}k${i}`, enc(String(i)));
    let err: Error | undefined;
    let got = 0;
    const w = cache.watch(P, { startRevision: start }, {
      onEvents: (evs) => {
        got += evs.length;
        w.pause();
      },
      onError: (e) => (err = e),
    });
    await tick();
    expect(got).toBe(10);
    for (let i = 0; i < 25; i++) await cache.delete(`${P}k${i}`); // 105 events: seq 0-4 go, not needed
    await tick();
    expect(err).toBeUndefined();
    for (let i = 25; i < 40; i++) await cache.delete(`${P}k${i}`); // now seq 10+ go
    await tick();
    expect(err).toBeInstanceOf(WatcherTooSlowError);
    expect((err as WatcherTooSlowError).reason).toBe('window-evicted');
    expect(cache.stats().watchers).toBe(0);
  });

  test('a paused watcher served by the store is bounded the same way', async () => {
    const { cache } = await setup({ watcherMaxPendingEvents: 20, windowMinEvents: 0, windowMaxEvents: 5 });
    const first = await cache.create(P + 'a', enc('0'));
    for (let i = 1; i < 10; i++) await cache.guaranteedUpdate(P + 'a', () => enc(String(i)));
    let err: Error | undefined;
    const got: WatchEvent[] = [];
    const w = cache.watch(P, { startRevision: first.modRevision }, { onEvents: (evs) => got.push(...evs), onError: (e) => (err = e) });
    await tick();
    expect(got).toHaveLength(10);
    expect(cache.stats().directWatchers).toBe(1);
    w.pause();
    for (let i = 0; i < 15; i++) await cache.create(`${P}p${i}`, enc('p'));
    await tick();
    w.resume();
    await tick();
    expect(got).toHaveLength(25);
    w.pause();
    for (let i = 0; i < 25; i++) await cache.create(`${P}q${i}`, enc('q'));
    await tick();
    expect(err).toBeInstanceOf(WatcherTooSlowError);
    expect(cache.stats().directWatchers).toBe(0);
  });

  test("a paused direct watcher's queue counts in the server's watch budget; over it and stuck longest, it is cut off", async () => {
    let now = 0;
    const timers: Array<{ at: number; cb: () => void }> = [];
    const budget = new WatchBudget({
      limitBytes: 100,
      stuckAfterMs: 1000,
      now: () => now,
      setTimer: (cb, ms) => {
        const t = { at: now + ms, cb };
        timers.push(t);
        return { cancel: () => timers.splice(timers.indexOf(t), 1) };
      },
    });
    const { cache } = await setup({ windowMinEvents: 0, windowMaxEvents: 5, watchBudget: budget });
    const first = await cache.create(P + 'a', enc('0'));
    for (let i = 1; i < 10; i++) await cache.guaranteedUpdate(P + 'a', () => enc(String(i)));
    let err: Error | undefined;
    const w = cache.watch(P, { startRevision: first.modRevision }, { onEvents: () => undefined, onError: (e) => (err = e) });
    await tick();
    expect(cache.stats().directWatchers).toBe(1);
    w.pause();
    // Each queued event counts its value's 10 bytes.
    for (let i = 0; i < 8; i++) await cache.create(`${P}p${i}`, enc('p'.repeat(10)));
    await tick();
    expect(budget.total).toBe(80);
    // Another watch falls behind later and fills the budget: the direct watcher, stuck longest, goes.
    now += 500;
    budget.open(() => undefined).update(30, 30);
    expect(err).toBeUndefined();
    now += 500;
    for (const t of timers.splice(0)) if (t.at <= now) t.cb();
    expect(err).toBeInstanceOf(WatcherTooSlowError);
    expect((err as WatcherTooSlowError).reason).toBe('budget');
    expect(budget.total).toBe(30);
    expect(cache.stats().directWatchers).toBe(0);
  });

  test('a watch from before the window but not compacted is served by the store; compacted is CompactedError', async () => {
    const { cache, mem, gated } = await setup({ windowMinEvents: 0, windowMaxEvents: 5 });
    const first = await cache.create(P + 'a', enc('0'));
    for (let i = 1; i < 20; i++) await cache.guaranteedUpdate(P + 'a', () => enc(String(i)));
    await cache.waitUntilFresh(await cache.currentRevision());
    expect(cache.stats().windowEvents).toBe(5);
    expect(cache.window.covers(first.modRevision)).toBe(false);
    const watchesBefore = gated.calls.watch;
    const w = recordWatch(cache, P, { startRevision: first.modRevision });
    await w.waitForEvents(20);
    expect(w.events.map((e) => dec(e.value))).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
    expect(gated.calls.watch).toBe(watchesBefore + 1);
    await cache.create(P + 'b', enc('live'));
    await w.waitForEvents(21);
    w.close();

    // Inside the window: no store watch.
    const inWindow = recordWatch(cache, P, { startRevision: (await cache.currentRevision()) - 2 });
    await inWindow.waitForEvents(3);
    expect(gated.calls.watch).toBe(watchesBefore + 1);
    inWindow.close();

    await mem.compact(first.modRevision + 3); // by another client: the window does not know
    const compacted = recordWatch(cache, P, { startRevision: first.modRevision });
    await compacted.waitFor(() => compacted.error !== undefined);
    expect(compacted.error).toBeInstanceOf(CompactedError);
  });

  test('an exact-key watch sees only its key; a watch from the future starts there', async () => {
    const { cache } = await setup();
    const cur = await cache.currentRevision();
    const exact = recordWatch(cache, P + 'a', { prefix: false, startRevision: cur + 1 });
    const future = recordWatch(cache, P, { startRevision: cur + 3 });
    await cache.create(P + 'a', enc('1'));
    await cache.create(P + 'ab', enc('2'));
    await cache.guaranteedUpdate(P + 'a', () => enc('3'));
    await cache.create(P + 'c', enc('4'));
    await exact.waitForEvents(2);
    await future.waitForEvents(2);
    await tick();
    expect(exact.events.map((e) => dec(e.value))).toEqual(['1', '3']);
    expect(future.events.map((e) => e.modRevision)).toEqual([cur + 3, cur + 4]);
    exact.close();
    future.close();
  });

  test('progress notifications reach watchers (for bookmarks)', async () => {
    const { cache } = await setup();
    const w = recordWatch(cache, P, { startRevision: (await cache.currentRevision()) + 1 });
    await cache.create(P + 'a', enc('1'));
    await w.waitForEvents(1);
    cache.requestProgress();
    await w.waitFor(() => w.progress.length > 0);
    expect(w.progress[0]).toBeGreaterThanOrEqual(w.events[0].modRevision);
    w.close();
  });

  test('when the underlying watch fails the cache ends its watchers and re-lists', async () => {
    const revisions: number[] = [];
    const { cache, gated } = await setup({ metrics: { onInitialized: (r) => revisions.push(r) } }, 2);
    const w = recordWatch(cache, P, { startRevision: (await cache.currentRevision()) + 1 });
    const other = recordWatch(cache, P, { startRevision: (await cache.currentRevision()) + 1 });
    await tick();
    gated.failWatches(new CompactedError(5, 9));
    expect(w.error).toBeInstanceOf(CompactedError);
    expect(other.error).toBeInstanceOf(CompactedError);
    await cache.create(P + 'later', enc('x'));
    const res = await cache.listFromCache(P, { consistent: true });
    expect(res.kvs).toHaveLength(3);
    expect(cache.stats().initializations).toBe(2);
    expect(revisions).toHaveLength(2);

    const w2 = recordWatch(cache, P, { startRevision: (await cache.currentRevision()) + 1 });
    gated.failWatches(new Error('etcd canceled the watch'));
    expect(w2.error).toBeInstanceOf(CacheReinitializingError);
    await cache.waitUntilFresh(await cache.currentRevision());
    expect(cache.stats().initializations).toBe(3);
  });

  test('close stops everything: no handler runs, calls fail, waiters are released', async () => {
    const { cache, gated } = await setup();
    const w = recordWatch(cache, P, {});
    gated.hold();
    const waiting = cache.waitUntilFresh((await cache.currentRevision()) + 10, 5000);
    await cache.close();
    await expect(waiting).rejects.toThrow('closed');
    await expect(cache.list(P)).rejects.toThrow('closed');
    expect(gated.openWatches).toBe(0);
    expect(w.error).toBeUndefined();
  });
});

describe('window bounds', () => {
  test('count and bytes caps hold while writes go on', async () => {
    let maxEvents = 0;
    let maxBytes = 0;
    const { cache } = await setup({
      windowMinEvents: 10,
      windowMaxEvents: 200,
      windowMaxBytes: 64 * 1024,
      metrics: {
        onWindowSize: (n, b) => {
          maxEvents = Math.max(maxEvents, n);
          maxBytes = Math.max(maxBytes, b);
        },
      },
    });
    const big = 'x'.repeat(1000);
    for (let i = 0; i < 600; i++) await cache.guaranteedUpdate(`${P}k${i % 50}`, () => enc(`${big}${i}`), { ignoreNotFound: true });
    await cache.waitUntilFresh(await cache.currentRevision());
    // An update holds value and previous value: ~2 KB per event, so bytes bind first.
    expect(maxBytes).toBeLessThanOrEqual(64 * 1024 + 2100);
    expect(cache.stats().windowBytes).toBeLessThanOrEqual(64 * 1024);
    expect(maxEvents).toBeLessThanOrEqual(200);
    expect(cache.stats().windowEvents).toBeGreaterThanOrEqual(10);
  });

  test('age: events older than the retention go once more than the minimum are kept', async () => {
    let now = 1_000_000;
    const { cache } = await setup({ windowMinEvents: 5, windowRetentionMs: 60_000, now: () => now });
    for (let i = 0; i < 20; i++) await cache.create(`${P}old${i}`, enc('o'));
    await cache.waitUntilFresh(await cache.currentRevision());
    expect(cache.stats().windowEvents).toBe(20);
    now += 61_000;
    await cache.create(P + 'new', enc('n'));
    await cache.waitUntilFresh(await cache.currentRevision());
    expect(cache.stats().windowEvents).toBe(5);
  });

  test('a compaction through the cache trims the window to the compact revision', async () => {
    const { cache } = await setup();
    const a = await cache.create(P + 'a', enc('1'));
    for (let i = 0; i < 5; i++) await cache.guaranteedUpdate(P + 'a', () => enc(String(i + 2)));
    await cache.waitUntilFresh(await cache.currentRevision());
    await cache.compact(a.modRevision + 3);
    expect(cache.window.covers(a.modRevision + 2)).toBe(false);
    expect(cache.window.covers(a.modRevision + 3)).toBe(true);
    expect(cache.stats().windowEvents).toBe(3);
  });
});
