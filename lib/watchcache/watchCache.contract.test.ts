// The storage contract (lib/etcd/testing/contract.ts) against the watch cache over MemoryStorage.
import { MemoryStorage } from '../etcd/memory';
import { describeStorageContract } from '../etcd/testing/contract';
import { WatchCache } from './watchCache';

describeStorageContract('watch cache over memory', async () => {
  const underlying = new MemoryStorage();
  const cache = new WatchCache({ underlying, prefix: '/contract/' });
  await cache.start();
  return {
    storage: cache,
    teardown: async () => {
      await cache.close();
      await underlying.close();
    },
  };
});
