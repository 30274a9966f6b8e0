// The watch cache over a real etcd: the storage contract, plus what only etcd shows — a watch
// from before the window served by etcd, and the cache surviving an etcd restart.
import { Etcd3Storage } from '../etcd/etcd3';
import { fetchEtcdVersion, progressRequestsAreOrdered } from '../etcd/etcdVersion';
import { CompactedError } from '../etcd/storage';
import { describeStorageContract } from '../etcd/testing/contract';
import { EtcdServer, startEtcd } from '../etcd/testing/etcdServer';
import { recordWatch } from '../etcd/testing/watchRecorder';
import { WatchCache } from './watchCache';

const enc = (s: string): Uint8Array => new Uint8Array(Buffer.from(s));
const dec = (b: Uint8Array): string => Buffer.from(b).toString();
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

let etcd: EtcdServer;
beforeAll(async () => {
  etcd = await startEtcd({ extraArgs: ['--experimental-watch-progress-notify-interval=300ms'] });
}, 30_000);
afterAll(async () => {
  await etcd?.stop();
});

describeStorageContract('watch cache over etcd3', async () => {
  const underlying = new Etcd3Storage({ endpoints: [etcd.endpoint] });
  // As the server does: consistent reads from the cache only where etcd orders progress replies.
  const progressRequestsOrdered = progressRequestsAreOrdered(await fetchEtcdVersion(etcd.endpoint));
  const cache = new WatchCache({ underlying, prefix: '/contract/', progressRequestsOrdered });
  await cache.start();
  return {
    storage: cache,
    teardown: async () => {
      await cache.close();
      await underlying.close();
    },
  };
});

describe('WatchCache over a real etcd', () => {
  let underlying: Etcd3Storage;
  let cache: WatchCache;
  let prefix: string;
  let seq = 0;

  beforeEach(async () => {
    prefix = `/wc-etcd/${process.pid}-${seq++}/`;
    underlying = new Etcd3Storage({ endpoints: [etcd.endpoint] });
  });
  afterEach(async () => {
    await cache?.close();
    await underlying.close();
  });

  test('a watch from before the window is served by a dedicated etcd watch; compacted is CompactedError', async () => {
    const early = await underlying.create(prefix + 'early', enc('e'));
    await underlying.guaranteedUpdate(prefix + 'early', () => enc('e2'));
    cache = new WatchCache({ underlying, prefix, windowMinEvents: 0, windowMaxEvents: 3 });
    await cache.start();
    for (let i = 0; i < 10; i++) await cache.create(`${prefix}k${i}`, enc(String(i)));
    await cache.waitUntilFresh(await cache.currentRevision());
    expect(cache.window.covers(early.modRevision)).toBe(false);

    const w = recordWatch(cache, prefix, { startRevision: early.modRevision });
    await w.waitForEvents(12);
    expect(w.events.map((e) => dec(e.value))).toEqual(['e', 'e2', ...Array.from({ length: 10 }, (_, i) => String(i))]);
    expect(cache.stats().directWatchers).toBe(1);
    const live = await cache.create(prefix + 'live', enc('live'));
    await w.waitForEvents(13);
    expect(w.events[12].modRevision).toBe(live.modRevision);
    w.close();

    await cache.compact(live.modRevision);
    const old = recordWatch(cache, prefix, { startRevision: early.modRevision });
    await old.waitFor(() => old.error !== undefined);
    expect(old.error).toBeInstanceOf(CompactedError);
  });

  test('the cache follows its prefix across an etcd kill and restart', async () => {
    cache = new WatchCache({ underlying, prefix });
    await cache.start();
    const w = recordWatch(cache, prefix, { startRevision: (await cache.currentRevision()) + 1 });
    await cache.create(prefix + 'a', enc('1'));
    await w.waitForEvents(1);
    await etcd.kill();
    await sleep(200);
    await etcd.restart();
    const b = await cache.create(prefix + 'b', enc('2'));
    await w.waitForEvents(2);
    expect(w.events.map((e) => e.key)).toEqual([prefix + 'a', prefix + 'b']);
    const res = await cache.listFromCache(prefix, { consistent: true });
    expect(res.kvs.map((kv) => kv.key)).toEqual([prefix + 'a', prefix + 'b']);
    expect(res.revision).toBeGreaterThanOrEqual(b.modRevision);
    expect(cache.stats().initializations).toBe(1); // resumed, not re-listed
    w.close();
  }, 30_000);

  test('consistent list from cache catches up through a progress request when the prefix is idle', async () => {
    // On an etcd whose progress replies may overtake events the read must go to etcd instead.
    const ordered = progressRequestsAreOrdered(await fetchEtcdVersion(etcd.endpoint));
    cache = new WatchCache({ underlying, prefix, progressRequestsOrdered: ordered });
    await cache.start();
    await underlying.create(prefix + 'x', enc('1'));
    await underlying.create('/wc-etcd-other/' + seq, enc('elsewhere')); // moves the store, not the prefix
    const target = await underlying.currentRevision();
    const res = await cache.listFromCache(prefix, { consistent: true });
    expect(res.revision).toBeGreaterThanOrEqual(target);
    expect(res.kvs.map((kv) => dec(kv.value))).toEqual(['1']);
  });

  test('linearizable GET: a write acknowledged (by another client) before a consistent GET starts is always seen', async () => {
    const ordered = progressRequestsAreOrdered(await fetchEtcdVersion(etcd.endpoint));
    cache = new WatchCache({ underlying, prefix, progressRequestsOrdered: ordered });
    await cache.start();
    const writer = new Etcd3Storage({ endpoints: [etcd.endpoint] });
    try {
      const keys = [0, 1, 2, 3].map((i) => `${prefix}lin-${i}`);
      for (const k of keys) await writer.create(k, enc('0'));
      const stale: string[] = [];
      // Four writers, each GETting its key right after each acknowledged write, with writes
      // elsewhere in between (the store's revision moves without the prefix), all concurrent.
      await Promise.all(
        keys.map(async (k, wi) => {
          for (let n = 1; n <= 40; n++) {
            await writer.guaranteedUpdate(k, () => enc(String(n)));
            if (n % 3 === 0) await writer.guaranteedUpdate(`/wc-etcd-other/${process.pid}-${wi}`, () => enc(String(n)), { ignoreNotFound: true });
            const [mine, other] = await Promise.all([cache.getFromCache(k, { consistent: true }), cache.getFromCache(keys[(wi + 1) % 4], { consistent: true })]);
            const seen = Number(dec(mine.kv!.value));
            if (seen < n) stale.push(`${k}: wrote ${n}, read ${seen}`);
            expect(other.kv).not.toBeNull();
          }
        }),
      );
      expect(stale).toEqual([]);
      // Served from the cache where etcd orders progress replies, by etcd (no revision reads) where not.
      const { reads, readers } = cache.consistentReadStats();
      if (ordered) {
        expect(readers).toBe(320);
        expect(reads).toBeLessThanOrEqual(readers);
      } else expect(reads).toBe(0);
    } finally {
      await writer.close();
    }
  }, 30_000);
});
