// namespaceLookup (admission's namespace reads): from the watch cache, decoded once per revision
// and shared; a change is seen at once; missing is null.
import { MemoryStorage } from '../etcd/memory';
import { builtinStrategies } from './builtin';
import { createStores, namespaceLookup, systemContext } from './stores';

describe('namespaceLookup', () => {
  test.each([false, true])('reads, shares per revision, sees changes, null when missing (watch cache: %s)', async (cached) => {
    const storage = new MemoryStorage();
    const stores = createStores(storage, builtinStrategies, '/registry', { watchCache: cached });
    await Promise.all(stores.map((s) => s.cache?.start()));
    try {
      const ns = stores.find((s) => s.resource.resource === 'namespaces' && s.resource.group === '')!;
      const lookup = namespaceLookup(stores);
      const ctx = systemContext();
      await ns.create(ctx, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team', labels: { team: 'a' } } });
      const waitFor = async (want: string | undefined): Promise<void> => {
        for (let i = 0; i < 200 && (await lookup('team'))?.metadata?.labels?.team !== want; i++) await new Promise((r) => setTimeout(r, 5));
      };
      await waitFor('a');
      const first = await lookup('team');
      expect(first?.metadata?.labels?.team).toBe('a');
      if (cached) {
        // Decoded once while the revision stays: the same (frozen) object for every request.
        expect(await lookup('team')).toBe(first);
        expect(Object.isFrozen(first)).toBe(true);
        // A hit in the ready cache comes back at once; a miss is confirmed by a read (a promise).
        expect(lookup('team')).toBe(first);
        expect(lookup('nobody')).toBeInstanceOf(Promise);
        expect(ns.peekShared(ctx, 'team')).toBe(first);
        expect(ns.peekShared(ctx, 'nobody')).toBeNull();
      } else {
        expect(lookup('team')).toBeInstanceOf(Promise);
        expect(ns.peekShared(ctx, 'team')).toBeUndefined();
      }
      await ns.update(ctx, 'team', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, labels: { team: 'b' } } }));
      await waitFor('b');
      expect((await lookup('team'))?.metadata?.labels?.team).toBe('b');
      expect(await lookup('nobody')).toBeNull();
      expect(await lookup('')).toBeNull();
    } finally {
      await Promise.all(stores.map((s) => s.cache?.close()));
    }
  });
});
