// GET with resourceVersion unset from the watch cache (issue 14 item 2): served from memory once
// the cache reached the store's revision, that revision read once for all readers waiting
// together, a write acknowledged before the GET always seen, and the store answering where
// progress replies are unordered.
import { cachePrefix, closeCacheFixtures, openCacheFixture } from './testing/cacheFixture';

const enc = (s: string): Uint8Array => new Uint8Array(Buffer.from(s));
const dec = (b: Uint8Array | undefined): string => (b ? Buffer.from(b).toString() : '<none>');
const P = cachePrefix;

afterEach(closeCacheFixtures);

test('N concurrent consistent GETs cost one revision read and no store read', async () => {
  const { cache, gated } = await openCacheFixture({}, 20);
  const before = { ...gated.calls };
  const keys = Array.from({ length: 20 }, (_, i) => `${P}seed-${String(i).padStart(4, '0')}`);
  const results = await Promise.all(keys.map((k) => cache.getFromCache(k, { consistent: true })));
  expect(results.map((r) => dec(r.kv?.value))).toEqual(keys.map((_, i) => `s${i}`));
  expect(gated.calls.currentRevision - before.currentRevision).toBe(1);
  expect(gated.calls.get - before.get).toBe(0);
  expect(cache.consistentReadStats()).toEqual({ reads: 1, readers: 20 });
});

test('GETs arriving while the revision read is in flight share the next one', async () => {
  const { cache, gated } = await openCacheFixture({}, 1);
  const first = cache.getFromCache(`${P}seed-0000`, { consistent: true });
  await new Promise((r) => setImmediate(r)); // the first read is on its way
  const later = Array.from({ length: 10 }, () => cache.getFromCache(`${P}seed-0000`, { consistent: true }));
  await Promise.all([first, ...later]);
  expect(cache.consistentReadStats()).toEqual({ reads: 2, readers: 11 });
  expect(gated.calls.get).toBe(0);
});

test('a write acknowledged before a GET starts is seen, also while the cache lags', async () => {
  const { cache, gated } = await openCacheFixture({}, 0);
  await cache.create(`${P}k`, enc('v0'));
  for (let i = 1; i <= 20; i++) {
    // The cache hears of the write only after the GET has started (held watch delivery).
    gated.hold();
    await cache.guaranteedUpdate(`${P}k`, () => enc(`v${i}`));
    const get = cache.getFromCache(`${P}k`, { consistent: true });
    let answered = false;
    void get.then(() => (answered = true));
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(answered).toBe(false); // waits for the cache rather than answering the old value
    gated.release();
    expect(dec((await get).kv?.value)).toBe(`v${i}`);
  }
  expect(gated.calls.get).toBe(0);
});

test('writes outside the prefix: the cache catches up through one progress request per shared read', async () => {
  // (No periodic progress requests from the waiters' ticker during the test: only the shared read's.)
  const { cache, gated, mem } = await openCacheFixture({ progressRequestIntervalMs: 600_000 }, 1);
  await mem.create('/registry/other/x', enc('elsewhere')); // the store moves, the prefix does not
  const target = await mem.currentRevision();
  expect(cache.cacheRevision).toBeLessThan(target);
  const before = gated.calls.requestProgress;
  const results = await Promise.all(Array.from({ length: 10 }, () => cache.getFromCache(`${P}seed-0000`, { consistent: true })));
  for (const r of results) expect(r.revision).toBeGreaterThanOrEqual(target);
  expect(gated.calls.requestProgress - before).toBe(1);
  expect(gated.calls.get).toBe(0);
});

test('a missing object is a consistent miss from the cache too', async () => {
  const { cache, gated } = await openCacheFixture({}, 0);
  const created = await cache.create(`${P}gone`, enc('x'));
  await cache.delete(`${P}gone`);
  const r = await cache.getFromCache(`${P}gone`, { consistent: true });
  expect(r.kv).toBeNull();
  expect(r.revision).toBeGreaterThan(created.modRevision);
  expect(gated.calls.get).toBe(0);
});

test('unordered progress replies (etcd 3.4.23): consistent GETs go to the store, no progress requested', async () => {
  const { cache, gated } = await openCacheFixture({ progressRequestsOrdered: false }, 1);
  gated.hold(); // the cache lags: it must not be asked
  await cache.guaranteedUpdate(`${P}seed-0000`, () => enc('new'));
  const r = await cache.getFromCache(`${P}seed-0000`, { consistent: true });
  expect(dec(r.kv?.value)).toBe('new');
  expect(gated.calls.get).toBe(1);
  expect(gated.calls.requestProgress).toBe(0);
  expect(cache.consistentReadStats().reads).toBe(0);
  gated.release();
});

test('a cache that does not catch up in time: the GET is answered by the store', async () => {
  const { cache, gated } = await openCacheFixture({ freshnessTimeoutMs: 50 }, 1);
  gated.hold();
  await cache.guaranteedUpdate(`${P}seed-0000`, () => enc('new'));
  const r = await cache.getFromCache(`${P}seed-0000`, { consistent: true });
  expect(dec(r.kv?.value)).toBe('new');
  expect(gated.calls.get).toBe(1);
  gated.release();
});

test('a cache that is not ready answers consistent GETs from the store at once', async () => {
  const { cache, gated } = await openCacheFixture({ freshnessTimeoutMs: 60_000 }, 1);
  gated.failWatches(new Error('watch lost')); // the cache re-lists: not ready meanwhile
  gated.hold();
  expect(cache.isReady).toBe(false);
  const r = await cache.getFromCache(`${P}seed-0000`, { consistent: true });
  expect(dec(r.kv?.value)).toBe('s0');
  expect(gated.calls.get).toBe(1);
  gated.release();
});

test.each([
  ['served from the cache', {}, false, ['true/false', 'true/false']],
  ['the cache did not catch up: the store answered', { freshnessTimeoutMs: 30 }, true, ['true/true']],
  ['unordered progress replies: sent to the store, not counted', { progressRequestsOrdered: false }, true, []],
] as const)('consistent read metric: %s', async (_n, opts, lag, want) => {
  const counted: string[] = [];
  const { cache, gated } = await openCacheFixture({ ...opts, metrics: { onConsistentRead: (s, f) => void counted.push(`${s}/${f}`) } }, 1);
  if (lag) {
    gated.hold();
    await cache.guaranteedUpdate(`${P}seed-0000`, () => enc('new'));
    await cache.getFromCache(`${P}seed-0000`, { consistent: true });
  } else {
    await cache.getFromCache(`${P}seed-0000`, { consistent: true });
    await cache.listFromCache(P, { consistent: true });
  }
  expect(counted).toEqual(want);
  gated.release();
});
