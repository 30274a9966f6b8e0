// The store's memo of what its last writes recorded as managedFields, keyed by (key, revision):
// it may only ever answer for the exact stored value it describes.
import type { ManagedFieldsEntry } from '../api/meta';
import { MemoryStorage } from '../etcd/memory';
import type { RecordedOwnership } from '../machinery/managedFields';
import { WatchCache } from '../watchcache';
import { builtinStrategies } from './builtin';
import { OwnershipMemo } from './fieldOwnership';
import { GenericStore, replacementWith } from './store';
import { systemContext } from './stores';
import type { ApiObject } from '../api';

const recorded = (manager: string): RecordedOwnership => ({ entries: [{ manager, operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }], managed: new Map() });

describe('OwnershipMemo', () => {
  it('answers for the revision it was told, not for another', () => {
    const m = new OwnershipMemo();
    const r = recorded('a');
    m.remember('/k', 5, r);
    expect(m.previous('/k', 5)).toBe(r);
    expect(m.previous('/k', 6)).toBeUndefined();
    expect(m.previous('/other', 5)).toBeUndefined();
  });
  it('a later write replaces the entry; one that recorded nothing forgets it', () => {
    const m = new OwnershipMemo();
    m.remember('/k', 5, recorded('a'));
    const r = recorded('b');
    m.remember('/k', 9, r);
    expect(m.previous('/k', 5)).toBeUndefined();
    expect(m.previous('/k', 9)).toBe(r);
    m.remember('/k', 10, undefined);
    expect(m.previous('/k', 9)).toBeUndefined();
    expect(m.size).toBe(0);
  });
  it('is bounded: the least recently written key goes first', () => {
    const m = new OwnershipMemo(2);
    m.remember('/a', 1, recorded('a'));
    m.remember('/b', 2, recorded('b'));
    m.remember('/a', 3, recorded('a'));
    m.remember('/c', 4, recorded('c'));
    expect(m.size).toBe(2);
    expect(m.previous('/b', 2)).toBeUndefined();
    expect(m.previous('/a', 3)).toBeDefined();
    expect(m.previous('/c', 4)).toBeDefined();
  });
});

const saStrategy = builtinStrategies.find((s) => s.resource.resource === 'serviceaccounts' && s.resource.group === '')!;
const managers = (o: ApiObject): string[] => (o.metadata?.managedFields ?? []).map((e: ManagedFieldsEntry) => `${e.manager}:${Object.keys(e.fieldsV1 ?? {}).join(',')}`);

test('a write by another process (a new revision) is decoded, not answered from the memo', async () => {
  const storage = new MemoryStorage();
  const cache = new WatchCache({ underlying: storage, prefix: '/registry/serviceaccounts/' });
  await cache.start();
  try {
    // Two servers over one storage: each has its own memo.
    const a = new GenericStore({ storage: cache, cache, strategy: saStrategy, prefix: '/registry' });
    const b = new GenericStore({ storage, strategy: saStrategy, prefix: '/registry' });
    const ctx = (manager: string) => ({ ...systemContext('ns'), fieldManager: manager });
    await a.create(ctx('alice'), { metadata: { name: 'x', labels: { one: '1' } } });
    const read = async (): Promise<ApiObject> => JSON.parse((await a.getServedJson(ctx('alice'), 'x')).json) as ApiObject;
    const cur = await read();
    await b.update(ctx('bob'), 'x', replacementWith({ ...cur, automountServiceAccountToken: true }));
    for (let i = 0; i < 50 && (await read()).automountServiceAccountToken !== true; i++) await new Promise((r) => setImmediate(r));
    const afterB = await read();
    expect(managers(afterB)).toEqual(['alice:f:metadata', 'bob:f:automountServiceAccountToken']);
    // Alice sends back what she read (bob's entry included): both owners stay.
    const { obj } = await a.update(ctx('alice'), 'x', replacementWith({ ...afterB, metadata: { ...afterB.metadata, labels: { one: '2' } } }));
    expect(managers(obj)).toEqual(['alice:f:metadata', 'bob:f:automountServiceAccountToken']);
    // And her next update of her own write (memo hit) gives what decoding gives.
    const again = await read();
    const viaMemo = await a.update(ctx('carol'), 'x', replacementWith({ ...again, metadata: { ...again.metadata, labels: { one: '3' } } }));
    expect(managers(viaMemo.obj)).toEqual(['alice:f:metadata', 'bob:f:automountServiceAccountToken', 'carol:f:metadata']);
  } finally {
    await cache.close();
  }
});
