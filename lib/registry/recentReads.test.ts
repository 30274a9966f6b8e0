import type { ApiObject } from '../api';
import { RecentReads } from './recentReads';

const obj = (name: string): ApiObject => ({ metadata: { name } });

describe('RecentReads', () => {
  it('hands an object out once, for its revision only', () => {
    const r = new RecentReads();
    const a = obj('a');
    r.put('/k/a', 5, a);
    expect(r.take('/k/a', 5)).toBe(a);
    expect(r.take('/k/a', 5)).toBeUndefined();
  });

  it('forgets an object asked for at another revision', () => {
    const r = new RecentReads();
    r.put('/k/a', 5, obj('a'));
    expect(r.take('/k/a', 6)).toBeUndefined();
    expect(r.take('/k/a', 5)).toBeUndefined();
  });

  it('keeps the latest put per key', () => {
    const r = new RecentReads();
    const newer = obj('a2');
    r.put('/k/a', 5, obj('a'));
    r.put('/k/a', 7, newer);
    expect(r.take('/k/a', 7)).toBe(newer);
  });

  it('drops the oldest past its capacity', () => {
    const r = new RecentReads(2);
    r.put('/k/a', 1, obj('a'));
    r.put('/k/b', 1, obj('b'));
    r.put('/k/c', 1, obj('c'));
    expect(r.take('/k/a', 1)).toBeUndefined();
    expect(r.take('/k/b', 1)?.metadata?.name).toBe('b');
    expect(r.take('/k/c', 1)?.metadata?.name).toBe('c');
  });
});

// Through the store: an update's old object after a GET of the same revision is exactly what
// decoding the stored bytes gives (key order included), whether or not the bytes are normalised.
import { MemoryStorage } from '../etcd/memory';
import { decodeFromStorage } from './storageCodec';
import { WatchCache } from '../watchcache';
import { builtinStrategies } from './builtin';
import { GenericStore, replacementWith } from './store';
import { systemContext } from './stores';

const saStrategy = builtinStrategies.find((s) => s.resource.resource === 'serviceaccounts' && s.resource.group === '')!;
const ctx = { ...systemContext('ns'), fieldManager: 'writer' };
const key = '/registry/serviceaccounts/ns/one';

describe('an update after a GET', () => {
  const cases: { name: string; stored?: (bytes: string) => string; get: boolean }[] = [
    { name: 'normalised bytes, GET first', get: true },
    { name: 'normalised bytes, no GET', get: false },
    // Another writer's bytes: an unknown field a normalised tree would not have.
    { name: 'bytes with an unknown field, GET first', stored: (b) => b.replace('{"kind"', '{"zzUnknown":1,"kind"'), get: true },
  ];
  it.each(cases)('$name: old is decode(stored bytes)', async ({ stored, get }) => {
    const storage = new MemoryStorage();
    const cache = new WatchCache({ underlying: storage, prefix: '/registry/serviceaccounts/' });
    await cache.start();
    const olds: string[] = [];
    const sa = new GenericStore({
      storage: cache,
      cache,
      strategy: saStrategy,
      prefix: '/registry',
      admission: async (_ctx, op, _obj, old) => {
        if (op === 'UPDATE') olds.push(JSON.stringify(old));
      },
    });
    try {
      await sa.create(ctx, { metadata: { name: 'one', labels: { a: '1' } }, automountServiceAccountToken: false });
      if (stored) {
        const { kv } = await storage.get(key);
        await storage.guaranteedUpdate(key, async () => Buffer.from(stored(Buffer.from(kv!.value).toString())), {});
      }
      const { kv } = await storage.get(key);
      const want = JSON.stringify(decodeFromStorage(kv!.key, kv!.value, kv!.modRevision));
      const current = get ? (JSON.parse((await sa.getServedJson(ctx, 'one')).json) as ApiObject) : (JSON.parse(want) as ApiObject);
      const next = { ...current, metadata: { ...current.metadata, labels: { a: '2' } } };
      await sa.update(ctx, 'one', replacementWith(next));
      expect(olds).toEqual([want]);
    } finally {
      await cache.close();
    }
  });
});
