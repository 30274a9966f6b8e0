// followStore over the watch cache on the in-memory backend: full state, then each change.
import type { ApiObject } from '../api';
import { MemoryStorage } from '../etcd/memory';
import { builtinStrategies } from './builtin';
import { followStore } from './follow';
import { closeCaches, createStores, startCaches, systemContext } from './stores';
import type { GenericStore } from './store';

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('followStore', () => {
  let stores: GenericStore[];
  let ns: GenericStore;
  let sa: GenericStore;
  const ctx = systemContext('team');
  beforeEach(async () => {
    stores = createStores(new MemoryStorage(), builtinStrategies, '/registry');
    await startCaches(stores);
    ns = stores.find((s) => s.resource.resource === 'namespaces')!;
    sa = stores.find((s) => s.resource.resource === 'serviceaccounts')!;
    await ns.create(systemContext(), { metadata: { name: 'team' } });
  });
  afterEach(() => closeCaches(stores));

  test('hands over the state, then upserts and removals, in order', async () => {
    await sa.create(ctx, { metadata: { name: 'a' } });
    await sa.create(ctx, { metadata: { name: 'b' } });
    const names = new Map<string, ApiObject>();
    const log: string[] = [];
    const f = followStore(sa, {
      replace(objects) {
        names.clear();
        for (const o of objects) names.set(o.metadata!.name!, o);
        log.push(`replace ${objects.map((o) => o.metadata?.name).join(',')}`);
      },
      upsert(o) {
        names.set(o.metadata!.name!, o);
        log.push(`upsert ${o.metadata?.name}`);
      },
      remove(o) {
        names.delete(o.metadata!.name!);
        log.push(`remove ${o.metadata?.name}`);
      },
    });
    await f.synced;
    expect(log).toEqual(['replace a,b']);
    await sa.create(ctx, { metadata: { name: 'c' } });
    await sa.update(ctx, 'a', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, labels: { x: 'y' } } }));
    await sa.delete(ctx, 'b', {});
    await until(() => !names.has('b'), 'the delete');
    expect(log).toEqual(['replace a,b', 'upsert c', 'upsert a', 'remove b']);
    expect(names.get('a')?.metadata?.labels).toEqual({ x: 'y' });
    expect([...names.keys()].sort()).toEqual(['a', 'c']);
    f.stop();
  });
});
