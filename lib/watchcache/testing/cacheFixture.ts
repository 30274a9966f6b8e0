// A started WatchCache over MemoryStorage through GatedStorage (to count store reads and make the
// cache lag on purpose), for the watch cache's unit tests. Close what was opened in afterEach.
import { MemoryStorage } from '../../etcd/memory';
import type { WatchCacheOptions } from '../options';
import { WatchCache } from '../watchCache';
import { GatedStorage } from './gatedStorage';

export const cachePrefix = '/registry/things/';

export interface CacheFixture {
  mem: MemoryStorage;
  gated: GatedStorage;
  cache: WatchCache;
}

const open: CacheFixture[] = [];

/** `seed` keys (seed-0000, …) are stored before the cache starts. */
export async function openCacheFixture(opts: Partial<WatchCacheOptions> = {}, seed = 0): Promise<CacheFixture> {
  const mem = new MemoryStorage();
  for (let i = 0; i < seed; i++) await mem.create(`${cachePrefix}seed-${String(i).padStart(4, '0')}`, new Uint8Array(Buffer.from(`s${i}`)));
  const gated = new GatedStorage(mem);
  const cache = new WatchCache({ underlying: gated, prefix: cachePrefix, ...opts });
  await cache.start();
  const f = { mem, gated, cache };
  open.push(f);
  return f;
}

export async function closeCacheFixtures(): Promise<void> {
  for (const f of open.splice(0)) {
    await f.cache.close();
    await f.mem.close();
  }
}
