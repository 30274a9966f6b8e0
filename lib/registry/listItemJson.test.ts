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

test('binary list items are kept encoded per cached value past the memos; decoded trees only in the bounded memo', async () => {
  const storage = new MemoryStorage();
  const cache = new WatchCache({ underlying: storage, prefix: '/registry/serviceaccounts/' });
  const sa = new GenericStore({ storage: cache, cache, strategy: saStrategy, prefix: '/registry', decodedMemoCapacity: 2 });
  for (let i = 0; i < 6; i++) await sa.create(systemContext('ns'), { metadata: { name: `sa-${i}` } });
  await cache.start();
  try {
    const encode = jest.fn((item: object) => ({ encoded: (item as { metadata: { name: string } }).metadata.name }));
    const list = (encodedItems?: { format: string; encode(item: object): object }) =>
      listObjects(sa, { namespace: 'ns', source: { kind: 'latest' }, limit: 0, predicate: everything, encodedItems });
    const first = await list({ format: 'test', encode });
    const second = await list({ format: 'test', encode });
    expect(encode).toHaveBeenCalledTimes(6);
    for (let i = 0; i < 6; i++) expect(second.items[i]).toBe(first.items[i]);
    expect(second.items[5]).toEqual({ encoded: 'sa-5' });
    // Another format has its own forms.
    const other = jest.fn(() => ({}));
    await list({ format: 'other', encode: other });
    expect(other).toHaveBeenCalledTimes(6);
    // Decoded items: the bounded memo (2) only, so a list of 6 decodes them again.
    const a = await list();
    const b = await list();
    expect(b.items[0]).not.toBe(a.items[0]);
    expect(b.items[0]).toEqual(a.items[0]);
    expect(Object.isFrozen(a.items[0])).toBe(true);
    // Served objects (GETs written as objects) are still kept per cached value.
    const gets = async () => Promise.all([0, 1, 2, 3, 4, 5].map((i) => sa.getServed(systemContext('ns'), `sa-${i}`, { any: true }).then((s) => s.object)));
    const g1 = await gets();
    const g2 = await gets();
    for (let i = 0; i < 6; i++) expect(g2[i]).toBe(g1[i]);
  } finally {
    await cache.close();
  }
});
