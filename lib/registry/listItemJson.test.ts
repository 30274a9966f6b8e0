// A list's JSON items come from the watch cache's own KeyValues: each is decoded and serialised
// once while the cache holds it, however many objects a list has (the (key, revision) memo alone
// is bounded, and a list longer than it decoded every item again on every list).
import { MemoryStorage } from '../etcd/memory';
import { WatchCache } from '../watchcache';
import { builtinStrategies } from './builtin';
import { listObjects } from './list';
import { everything } from './predicate';
import type { RawJson } from '../codec/rawJson';
import { GenericStore } from './store';
import { systemContext } from './stores';

const saStrategy = builtinStrategies.find((s) => s.resource.resource === 'serviceaccounts' && s.resource.group === '')!;

test('listing more objects than the memo holds serves the same JSON items again, decoding none anew', async () => {
  const storage = new MemoryStorage();
  const cache = new WatchCache({ underlying: storage, prefix: '/registry/serviceaccounts/' });
  const sa = new GenericStore({ storage: cache, cache, strategy: saStrategy, prefix: '/registry', servedJsonMemoCapacity: 2 });
  for (let i = 0; i < 6; i++) await sa.create(systemContext('ns'), { metadata: { name: `sa-${i}`, labels: { n: String(i) } } });
  await cache.start();
  const parse = jest.spyOn(JSON, 'parse');
  try {
    const list = async () => (await listObjects(sa, { namespace: 'ns', source: { kind: 'latest' }, limit: 0, predicate: everything, rawJson: true })).items.map((i) => (i as unknown as RawJson).json);
    const first = await list();
    parse.mockClear();
    const second = await list();
    // Rebuilt from the stored bytes (or kept as text), never decoded again.
    expect(parse).not.toHaveBeenCalled();
    expect(second).toEqual(first);
    expect(first).toHaveLength(6);
    // A changed object is served anew, from its new revision.
    await sa.update(systemContext('ns'), 'sa-3', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, labels: { changed: 'yes' } } }));
    const third = await list();
    expect(third[3]).toContain('"changed":"yes"');
    expect(third[3]).not.toBe(first[3]);
    expect(third[2]).toBe(first[2]);
  } finally {
    parse.mockRestore();
    await cache.close();
  }
});

test('decoded list items and served objects (Protobuf, CBOR, Tables) are also kept per cached value, past the memos', async () => {
  const storage = new MemoryStorage();
  const cache = new WatchCache({ underlying: storage, prefix: '/registry/serviceaccounts/' });
  const sa = new GenericStore({ storage: cache, cache, strategy: saStrategy, prefix: '/registry', decodedMemoCapacity: 2 });
  for (let i = 0; i < 6; i++) await sa.create(systemContext('ns'), { metadata: { name: `sa-${i}` } });
  await cache.start();
  try {
    const list = () => listObjects(sa, { namespace: 'ns', source: { kind: 'latest' }, limit: 0, predicate: everything });
    const first = await list();
    const second = await list();
    for (let i = 0; i < 6; i++) expect(second.items[i]).toBe(first.items[i]);
    expect(Object.isFrozen(first.items[0])).toBe(true);
    const gets = async () => Promise.all([0, 1, 2, 3, 4, 5].map((i) => sa.getServed(systemContext('ns'), `sa-${i}`, { any: true })));
    const a = await gets();
    const b = await gets();
    for (let i = 0; i < 6; i++) expect(b[i]).toBe(a[i]);
  } finally {
    await cache.close();
  }
});
