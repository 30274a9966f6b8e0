// Undecodable stored values: what get, list, the normal delete, the unsafe delete and watchers
// see (upstream 1.32 with AllowUnsafeMalformedObjectDeletion).
import { MemoryStorage } from '../etcd/memory';
import { ApiError } from '../machinery/errors';
import { builtinStrategies } from './builtin';
import { deleteCorruptObject } from './corruptObjectDeleter';
import { maxCorruptObjectsReported } from './corruptObjects';
import { listObjects } from './list';
import { everything } from './predicate';
import { createStores, systemContext } from './stores';
import type { GenericStore } from './store';
import { watchObjects, ApiWatchEvent } from './watch';

const ctx = systemContext();
const keyOf = (name: string): string => `/registry/certificatesigningrequests/${name}`;
let storage: MemoryStorage;
let csr: GenericStore;

beforeEach(() => {
  storage = new MemoryStorage();
  csr = createStores(storage, builtinStrategies, '/registry', { watchCache: false }).find((s) => s.resource.resource === 'certificatesigningrequests')!;
});

async function writeGarbage(name: string): Promise<number> {
  return (await storage.create(keyOf(name), Buffer.from('garbage{'))).modRevision;
}

async function writeReadable(name: string): Promise<void> {
  await storage.create(keyOf(name), Buffer.from(JSON.stringify({ apiVersion: 'certificates.svc.io/v1', kind: 'CertificateSigningRequest', metadata: { name, uid: 'u' }, spec: {} })));
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected an ApiError');
}

const storageError = (name: string, rev: number): string =>
  `StorageError: corrupt object, Code: 7, Key: ${keyOf(name)}, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=${rev}: `;

describe('reading a corrupt object', () => {
  test('get: 500 InternalError naming the key', async () => {
    const rev = await writeGarbage('bad');
    const e = await failure(csr.get(ctx, 'bad'));
    expect(e.status).toMatchObject({ code: 500, reason: 'InternalError' });
    expect(e.status.message).toMatch(new RegExp(`^Internal error occurred: ${escape(storageError('bad', rev))}`));
  });

  test.each([false, true])('list (rawJson %s): 500 StorageReadError with one cause per corrupt key, readable items do not hide it', async (rawJson) => {
    await writeReadable('a-good');
    const r1 = await writeGarbage('b-bad');
    const r2 = await writeGarbage('c-bad');
    const e = await failure(listObjects(csr, { namespace: '', source: { kind: 'latest' }, limit: 0, predicate: everything, rawJson }));
    expect(e.status).toMatchObject({
      code: 500,
      reason: 'StorageReadError',
      message: 'failed to read one or more certificatesigningrequests.certificates.svc.io from the storage',
      details: { group: 'certificates.svc.io', kind: 'certificatesigningrequests', name: 'list' },
    });
    const causes = e.status.details?.causes ?? [];
    expect(causes.map((c) => [c.reason, c.field])).toEqual([
      ['UnexpectedServerResponse', keyOf('b-bad')],
      ['UnexpectedServerResponse', keyOf('c-bad')],
    ]);
    expect(causes[0].message?.startsWith(storageError('b-bad', r1))).toBe(true);
    expect(causes[1].message?.startsWith(storageError('c-bad', r2))).toBe(true);
  });

  test(`list: past ${maxCorruptObjectsReported} corrupt keys the causes end with "too many"`, async () => {
    for (let i = 0; i <= maxCorruptObjectsReported; i++) await writeGarbage(`bad-${String(i).padStart(3, '0')}`);
    const e = await failure(listObjects(csr, { namespace: '', source: { kind: 'latest' }, limit: 0, predicate: everything }));
    const causes = e.status.details?.causes ?? [];
    expect(causes).toHaveLength(maxCorruptObjectsReported + 1);
    expect(causes[maxCorruptObjectsReported]).toEqual({ reason: 'FieldValueTooMany', message: 'too many errors, the list is truncated' });
  });

  test('normal delete: 500 InternalError, the key stays', async () => {
    await writeGarbage('bad');
    const e = await failure(csr.delete(ctx, 'bad'));
    expect(e.status).toMatchObject({ code: 500, reason: 'InternalError' });
    expect((await storage.get(keyOf('bad'))).kv).not.toBeNull();
  });
});

describe('deleteCorruptObject', () => {
  test('removes a corrupt key', async () => {
    await writeGarbage('bad');
    await expect(deleteCorruptObject(csr, ctx, 'bad')).resolves.toBe(true);
    expect((await storage.get(keyOf('bad'))).kv).toBeNull();
  });

  test.each([
    ['a readable object', async () => writeReadable('x')],
    ['a missing object', async () => undefined],
  ])('refuses %s with 422 on the option', async (_what, setup) => {
    await setup();
    const e = await failure(deleteCorruptObject(csr, ctx, 'x'));
    expect(e.status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message:
        'certificatesigningrequests.certificates.svc.io "x" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option',
      details: { name: 'x', group: 'certificates.svc.io', kind: 'certificatesigningrequests' },
    });
  });

  test('ignores finalizers: the stored bytes are all there is', async () => {
    // A finalizer-carrying object whose value is later corrupted is still removed.
    await storage.create(keyOf('fin'), Buffer.from('{"metadata":{"name":"fin","finalizers":["x/y"]}'));
    await expect(deleteCorruptObject(csr, ctx, 'fin')).resolves.toBe(true);
    expect((await storage.get(keyOf('fin'))).kv).toBeNull();
  });
});

describe('watchers of an unsafe delete', () => {
  test.each([false, true])('get a DELETED event naming the object, and the watch goes on (watch cache: %s)', async (cached) => {
    const stores = createStores(storage, builtinStrategies, '/registry', { watchCache: cached });
    await Promise.all(stores.map((s) => s.cache?.start()));
    const store = stores.find((s) => s.resource.resource === 'certificatesigningrequests')!;
    const rev = await writeGarbage('bad');
    const got: ApiWatchEvent[] = [];
    let ended = false;
    const w = await watchObjects(store, { namespace: '', predicate: everything, afterRevision: rev }, { send: (e) => got.push(...e) > 0, onDrain: () => undefined, end: () => (ended = true) });
    await deleteCorruptObject(store, ctx, 'bad');
    const deletedAt = await storage.currentRevision();
    await writeReadable('after');
    for (let i = 0; i < 100 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    const endedByTheDelete = ended;
    w.stop();
    await Promise.all(stores.map((s) => s.cache?.close()));
    expect(endedByTheDelete).toBe(false);
    // The key's identity at the delete's revision; the next change still arrives on the same watch.
    // (Serialised as Go would an object with only metadata set, like a BOOKMARK.)
    expect(got[0]).toMatchObject({ type: 'DELETED', object: { kind: 'CertificateSigningRequest', apiVersion: 'certificates.svc.io/v1' } });
    expect((got[0].object as { metadata: unknown }).metadata).toEqual({ name: 'bad', resourceVersion: String(deletedAt) });
    expect(got.map((e) => [e.type, (e.object as { metadata: { name: string } }).metadata.name])).toEqual([
      ['DELETED', 'bad'],
      ['ADDED', 'after'],
    ]);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
