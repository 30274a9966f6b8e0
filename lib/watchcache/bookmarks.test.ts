// Periodic bookmarks from the watch cache (upstream cacher's bookmark timer): about every minute
// and 2 s before the watch's deadline, at the cache's revision when it is newer than the watch's
// resourceVersion, with no progress request to the store. Time is a FakeClock: nothing sleeps.
import { recordWatch, WatchRecorder } from '../etcd/testing/watchRecorder';
import { nextBookmarkTime } from './bookmarkSchedule';
import { FakeClock } from '../machinery/testing/fakeClock';
import { cachePrefix, closeCacheFixtures, openCacheFixture, type CacheFixture } from './testing/cacheFixture';
import type { WatchCacheOptions } from './options';

const enc = (s: string): Uint8Array => new Uint8Array(Buffer.from(s));
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
const P = cachePrefix;

interface Fixture extends CacheFixture {
  clock: FakeClock;
}

async function setup(opts: Partial<WatchCacheOptions> = {}): Promise<Fixture> {
  const clock = new FakeClock();
  // random 0: upstream's jittered 1–1.25 s tick at its shortest, so times below are exact.
  const f = await openCacheFixture({ now: clock.now, setTimer: clock.setTimer, random: () => 0, ...opts });
  return { ...f, clock };
}
afterEach(closeCacheFixtures);

/** Advances the fake clock in steps, letting deliveries run, and notes when each bookmark came. */
async function advance(f: Fixture, ms: number, w?: WatchRecorder, at?: number[], stepMs = 250): Promise<void> {
  for (let done = 0; done < ms; done += stepMs) {
    const before = w?.progress.length ?? 0;
    f.clock.advance(Math.min(stepMs, ms - done));
    await tick();
    if (w && at) for (let i = before; i < w.progress.length; i++) at.push(f.clock.now());
  }
}

describe('nextBookmarkTime (upstream cache_watcher.go)', () => {
  test.each([
    ['no deadline: a minute from now', 1000, undefined, 61_000],
    ['far deadline: a minute from now', 1000, 3_600_000, 61_000],
    ['deadline within the minute: 2 s before it', 1000, 6000, 4000],
    ['exactly 2 s before the deadline', 4000, 6000, 4000],
    ['less than 2 s left: none', 4001, 6000, undefined],
  ])('%s', (_name, now, deadline, expected) => {
    expect(nextBookmarkTime(now, deadline)).toBe(expected);
  });
});

describe('periodic bookmarks from the cache', () => {
  test('about every minute, at the cache revision, while the watch runs', async () => {
    const f = await setup();
    const start = (await f.cache.currentRevision()) + 1;
    const w = recordWatch(f.cache, P, { startRevision: start, progressNotify: true, timeoutMs: 30 * 60_000 });
    const a = await f.cache.create(P + 'a', enc('1'));
    await w.waitForEvents(1);
    const at: number[] = [];
    const t0 = f.clock.now();
    await advance(f, 59_000, w, at);
    expect(w.progress).toEqual([]);
    await advance(f, 3_000, w, at);
    expect(w.progress).toEqual([a.modRevision]);
    expect(at[0] - t0).toBeGreaterThanOrEqual(59_000); // bucketed to the second, as upstream
    const b = await f.cache.create(P + 'b', enc('2'));
    await w.waitForEvents(2);
    await advance(f, 60_000, w, at);
    expect(w.progress).toEqual([a.modRevision, b.modRevision]);
    expect(f.gated.calls.requestProgress).toBe(0); // no progress request to the store
    w.close();
  });

  test('2 s before the deadline when that comes first, and none after it', async () => {
    const f = await setup();
    const start = (await f.cache.currentRevision()) + 1;
    const t0 = f.clock.now();
    const w = recordWatch(f.cache, P, { startRevision: start, progressNotify: true, timeoutMs: 5000 });
    const a = await f.cache.create(P + 'a', enc('1'));
    await w.waitForEvents(1);
    const at: number[] = [];
    await advance(f, 120_000, w, at);
    expect(w.progress.length).toBeGreaterThan(0);
    expect(new Set(w.progress)).toEqual(new Set([a.modRevision]));
    // Upstream's one-second buckets may send it up to a second early, and once more before the end.
    for (const t of at) {
      expect(t).toBeGreaterThanOrEqual(t0 + 5000 - 3000);
      expect(t).toBeLessThan(t0 + 5000);
    }
    expect(f.clock.timers).toBe(0); // nothing left scheduled
    w.close();
  });

  test('not sent while the cache revision is not newer than the watch resourceVersion', async () => {
    const f = await setup();
    await f.cache.create(P + 'a', enc('1'));
    const start = (await f.cache.currentRevision()) + 1;
    const w = recordWatch(f.cache, P, { startRevision: start, progressNotify: true, timeoutMs: 10 * 60_000 });
    await advance(f, 3 * 60_000, w);
    expect(w.progress).toEqual([]);
    w.close();
  });

  test('a watcher whose events are all filtered out still gets the newer revision', async () => {
    const f = await setup();
    const start = (await f.cache.currentRevision()) + 1;
    const w = recordWatch(f.cache, P + 'mine', { startRevision: start, prefix: false, progressNotify: true, timeoutMs: 10_000 });
    const other = await f.cache.create(P + 'other', enc('x'));
    await advance(f, 10_000, w);
    expect(w.events).toEqual([]);
    expect(w.progress.length).toBeGreaterThan(0);
    expect(w.progress.every((r) => r === other.modRevision)).toBe(true);
    w.close();
  });

  test('the store progress moves the cache revision the bookmark carries; it is not passed on by itself', async () => {
    const f = await setup();
    const start = (await f.cache.currentRevision()) + 1;
    const w = recordWatch(f.cache, P, { startRevision: start, progressNotify: true, timeoutMs: 10 * 60_000 });
    const elsewhere = await f.mem.create('/registry/others/x', enc('x')); // outside the prefix
    f.mem.requestProgress(); // as etcd's own periodic notification would
    await tick();
    await tick();
    expect(f.cache.cacheRevision).toBe(elsewhere.modRevision);
    expect(w.progress).toEqual([]);
    await advance(f, 61_000, w);
    expect(w.progress).toEqual([elsewhere.modRevision]);
    w.close();
  });

  test('one timer serves every watcher of the cache, whatever the jitter', async () => {
    const f = await setup({ random: () => 1 }); // the jittered tick at its longest
    const start = (await f.cache.currentRevision()) + 1;
    const ws = Array.from({ length: 50 }, (_, i) => recordWatch(f.cache, P, { startRevision: start, progressNotify: true, timeoutMs: 5000 + i * 1000 }));
    expect(f.clock.timers).toBe(1);
    const a = await f.cache.create(P + 'a', enc('1'));
    await advance(f, 2 * 60_000);
    for (const w of ws) {
      expect(w.progress.length).toBeGreaterThan(0);
      expect(new Set(w.progress)).toEqual(new Set([a.modRevision]));
      w.close();
    }
  });

  test('no periodic bookmark without progressNotify', async () => {
    const f = await setup();
    const start = (await f.cache.currentRevision()) + 1;
    const w = recordWatch(f.cache, P, { startRevision: start, timeoutMs: 10_000 });
    await f.cache.create(P + 'a', enc('1'));
    await advance(f, 2 * 60_000, w);
    expect(w.events).toHaveLength(1);
    expect(w.progress).toEqual([]);
    expect(f.clock.timers).toBe(0);
    w.close();
  });

  test('a paused watcher gets its bookmark after its events, on resume', async () => {
    const f = await setup();
    const start = (await f.cache.currentRevision()) + 1;
    const order: string[] = [];
    const w = f.cache.watch(P, { startRevision: start, progressNotify: true, timeoutMs: 10_000 }, {
      onEvents: (evs) => evs.forEach((e) => order.push(`event ${e.modRevision}`)),
      onProgress: (r) => order.push(`bookmark ${r}`),
      onError: (e) => {
        throw e;
      },
    });
    w.pause();
    const a = await f.cache.create(P + 'a', enc('1'));
    await advance(f, 10_000);
    expect(order).toEqual([]);
    w.resume();
    await tick();
    expect(order[0]).toBe(`event ${a.modRevision}`);
    expect(order.slice(1)).toContain(`bookmark ${a.modRevision}`);
    w.close();
  });

  test('a watch older than the window (a dedicated store watch) gets bookmarks at what it has delivered', async () => {
    const f = await setup({ windowMinEvents: 0, windowMaxEvents: 2 });
    const start = (await f.cache.currentRevision()) + 1;
    for (let i = 0; i < 5; i++) await f.cache.create(`${P}k${i}`, enc(String(i)));
    await tick();
    const w = recordWatch(f.cache, P + 'k0', { startRevision: start, prefix: false, progressNotify: true, timeoutMs: 10_000 });
    expect(f.cache.stats().directWatchers).toBe(1);
    await w.waitForEvents(1);
    await advance(f, 10_000, w);
    expect(w.progress.length).toBeGreaterThan(0);
    // Its own watch delivered k0 only: the cache's newer revision could overtake events it has not had.
    expect(w.progress.every((r) => r === w.events[0].modRevision)).toBe(true);
    w.close();
  });
});
