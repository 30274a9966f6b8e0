// On a store whose progress replies may overtake events, the cache never asks for progress and
// answers what it has not seen from the store (a wrong revision would otherwise lose events).
import { MemoryStorage } from '../etcd/memory';
import { WatchCache } from './watchCache';

const enc = (s: string): Uint8Array => Buffer.from(s);

test.each([true, false])('progressRequestsOrdered=%s: progress requests and fallbacks', async (ordered) => {
  const underlying = new MemoryStorage();
  let requests = 0;
  const original = underlying.requestProgress.bind(underlying);
  underlying.requestProgress = (): void => {
    requests++;
    original();
  };
  const cache = new WatchCache({ underlying, prefix: '/p/', progressRequestsOrdered: ordered, freshnessTimeoutMs: 500 });
  await cache.start();
  await underlying.create('/p/a', enc('1'));
  await underlying.create('/q/other', enc('elsewhere')); // the store moves, the prefix does not
  const target = await underlying.currentRevision();
  cache.requestProgress();
  const consistent = await cache.listFromCache('/p/', { consistent: true });
  expect(consistent.revision).toBeGreaterThanOrEqual(target);
  expect(consistent.kvs.map((kv) => Buffer.from(kv.value).toString())).toEqual(['1']);
  const notOlder = await cache.listFromCache('/p/', { minRevision: target });
  expect(notOlder.kvs).toHaveLength(1);
  if (ordered) expect(requests).toBeGreaterThan(0);
  else expect(requests).toBe(0);
  await cache.close();
});
