// A write's served JSON: the compact JSON of the object the store just stored is the write's
// response text and, for an update, the served-JSON memo's entry for the new (key, revision) in
// place of the previous revision's. It must be exactly what a read of that revision serves
// (decoded from the stored bytes and normalised), and a later revision must never be answered
// with an earlier one's text.
import { MemoryStorage } from '../etcd/memory';
import { decodeFromStorage } from './storageCodec';
import { WatchCache } from '../watchcache';
import { builtinStrategies } from './builtin';
import { GenericStore, replacementWith } from './store';
import { DecodedObjectMemo } from './decodedEvents';
import { writtenJson } from './servingCache';
import { systemContext } from './stores';
import type { ApiObject } from '../api';

const saStrategy = builtinStrategies.find((s) => s.resource.resource === 'serviceaccounts' && s.resource.group === '')!;
const ctx = { ...systemContext('ns'), fieldManager: 'writer' };

async function setup(): Promise<{ sa: GenericStore; storage: MemoryStorage; close(): Promise<void> }> {
  const storage = new MemoryStorage();
  const cache = new WatchCache({ underlying: storage, prefix: '/registry/serviceaccounts/' });
  await cache.start();
  const sa = new GenericStore({ storage: cache, cache, strategy: saStrategy, prefix: '/registry' });
  return { sa, storage, close: () => cache.close() };
}

/** What a read of the stored revision serves, computed the long way (no memo). */
async function servedFromStorage(sa: GenericStore, storage: MemoryStorage, name: string): Promise<string> {
  const { kv } = await storage.get(`/registry/serviceaccounts/ns/${name}`);
  return JSON.stringify(sa.withTypeMeta(decodeFromStorage(kv!.key, kv!.value, kv!.modRevision)));
}

const body = (name: string, extra: Partial<ApiObject> = {}): ApiObject => ({
  metadata: { name, labels: { b: '2', a: '1' }, annotations: { note: 'x' } },
  secrets: [{ name: `${name}-token` }],
  automountServiceAccountToken: false,
  ...extra,
});

test('create: the response text and the next GET are the stored revision as a read serves it', async () => {
  const { sa, storage, close } = await setup();
  try {
    const created = await sa.create(ctx, body('one'));
    const want = await servedFromStorage(sa, storage, 'one');
    expect(writtenJson(created)?.json).toBe(want);
    expect(JSON.stringify(created)).toBe(want); // resourceVersion in its ObjectMeta place, as a read has it
    expect((await sa.getServed(ctx, 'one')).json().json).toBe(want);
  } finally {
    await close();
  }
});

test('update: each revision serves its own text; an unrelated object is untouched', async () => {
  const { sa, storage, close } = await setup();
  try {
    await sa.create(ctx, body('one'));
    await sa.create(ctx, body('two'));
    const twoBefore = (await sa.getServed(ctx, 'two')).json().json;
    for (const value of ['first', 'second']) {
      const current = JSON.parse((await sa.getServed(ctx, 'one')).json().json) as ApiObject;
      const next = { ...current, metadata: { ...current.metadata, labels: { ...current.metadata?.labels, changed: value } } };
      const { obj } = await sa.update(ctx, 'one', replacementWith(next));
      const want = await servedFromStorage(sa, storage, 'one');
      expect(want).toContain(`"changed":"${value}"`);
      expect(writtenJson(obj)?.json).toBe(want);
      expect(JSON.stringify(obj)).toBe(want);
      expect((await sa.getServed(ctx, 'one')).json().json).toBe(want);
    }
    expect((await sa.getServed(ctx, 'two')).json().json).toBe(twoBefore);
  } finally {
    await close();
  }
});

test('an update without resourceVersion (unconditional) still places it as a read does', async () => {
  const { sa, storage, close } = await setup();
  try {
    await sa.create(ctx, body('one'));
    const { obj } = await sa.update(ctx, 'one', replacementWith(body('one', { automountServiceAccountToken: true })));
    const want = await servedFromStorage(sa, storage, 'one');
    expect(JSON.stringify(obj)).toBe(want);
    expect(writtenJson(obj)?.json).toBe(want);
  } finally {
    await close();
  }
});

test('dry-run and no-op writes keep no written text; other objects have none', async () => {
  const { sa, close } = await setup();
  try {
    const dry = await sa.create({ ...ctx, dryRun: true }, body('dry'));
    expect(writtenJson(dry)).toBeUndefined();
    await sa.create(ctx, body('one'));
    const current = JSON.parse((await sa.getServed(ctx, 'one')).json().json) as ApiObject;
    const { obj } = await sa.update(ctx, 'one', replacementWith(current));
    expect(obj.metadata?.resourceVersion).toBe(current.metadata?.resourceVersion);
    expect(writtenJson(obj)).toBeUndefined();
    expect(writtenJson({ ...current })).toBeUndefined();
  } finally {
    await close();
  }
});

test('the memo forgets a revision the key moved past', () => {
  const memo = new DecodedObjectMemo<{ v: number }>(10);
  let decodes = 0;
  const get = (rev: number) => memo.get('/k', rev, () => ({ v: (decodes++, rev) }));
  expect(get(1).v).toBe(1);
  expect(get(1).v).toBe(1);
  expect(decodes).toBe(1);
  memo.delete('/k', 1);
  memo.delete('/k', 7); // absent: nothing happens
  expect(get(1).v).toBe(1);
  expect(decodes).toBe(2);
});
