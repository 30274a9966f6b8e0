// The generic store over the in-memory backend: the create/update/delete rules every resource
// shares, and lists and watches with selectors.
import { MemoryStorage } from '../etcd/memory';
import { isApiError } from '../machinery/errors';
import { parseLabelSelector } from '../machinery/labelSelector';
import { FieldSelector } from '../machinery/fieldSelector';
import { builtinStrategies } from './builtin';
import { SplicedJson } from '../codec/splicedJson';
import { listObjects } from './list';
import { everything, selectionPredicate } from './predicate';
import { FakeClock } from '../machinery/testing/fakeClock';
import { createStores, systemContext } from './stores';
import { replacementWith, type GenericStore } from './store';
import { watchObjects, ApiWatchEvent } from './watch';

let stores: GenericStore[];
let sa: GenericStore;
let ns: GenericStore;
const ctx = systemContext('team');

beforeEach(async () => {
  stores = createStores(new MemoryStorage(), builtinStrategies, '/registry');
  sa = stores.find((s) => s.resource.resource === 'serviceaccounts')!;
  ns = stores.find((s) => s.resource.resource === 'namespaces')!;
  await ns.create(systemContext(), { metadata: { name: 'team' } });
});

const csr = (): GenericStore => stores.find((s) => s.resource.resource === 'certificatesigningrequests')!;

async function code(p: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (isApiError(e)) return e.code;
    throw e;
  }
}

describe('GenericStore', () => {
  test('create sets system fields and the key layout', async () => {
    const o = await sa.create(ctx, { metadata: { name: 'bot', uid: 'mine', creationTimestamp: '2000-01-01T00:00:00Z' } });
    expect(o).toMatchObject({ kind: 'ServiceAccount', apiVersion: 'v1', metadata: { name: 'bot', namespace: 'team' } });
    expect(o.metadata?.uid).not.toBe('mine');
    expect(o.metadata?.creationTimestamp).not.toBe('2000-01-01T00:00:00Z');
    const raw = await sa.storage.get('/registry/serviceaccounts/team/bot');
    expect(String(raw.kv?.modRevision)).toBe(o.metadata?.resourceVersion);
    expect(Buffer.from(raw.kv!.value).toString()).not.toContain('resourceVersion');
  });

  test.each([
    ['existing name', 409, async () => sa.create(ctx, { metadata: { name: 'dup' } })],
    ['invalid name', 422, async () => sa.create(ctx, { metadata: { name: 'Not Valid' } })],
    ['resourceVersion on create', 400, async () => sa.create(ctx, { metadata: { name: 'x', resourceVersion: '3' } })],
    ['non-numeric resourceVersion on create', 400, async () => sa.create(ctx, { metadata: { name: 'x', resourceVersion: 'abc' } })],
    ['resourceVersion "0" on create', 'ok', async () => sa.create(ctx, { metadata: { name: 'x', resourceVersion: '0' } })],
    ['empty resourceVersion on create', 'ok', async () => sa.create(ctx, { metadata: { name: 'x', resourceVersion: '' } })],
    ['resourceVersion on a dry-run create', 'ok', async () => sa.create({ ...ctx, dryRun: true }, { metadata: { name: 'x', resourceVersion: '5' } })],
    ['invalid object with a resourceVersion: validation first', 422, async () => sa.create(ctx, { metadata: { name: 'Not Valid', resourceVersion: '5' } })],
    ['update of a missing CSR', 404, async () => csr().update(systemContext(), 'nope', (c) => c ?? {})],
  ] as const)('%s → %s', async (_n, want, run) => {
    await sa.create(ctx, { metadata: { name: 'dup' } });
    expect(await code(run())).toBe(want);
  });

  test('PUT on a missing Lease creates it (201 semantics: AllowCreateOnUpdate)', async () => {
    const leases = stores.find((s) => s.resource.resource === 'leases')!;
    const { obj, created } = await leases.update(ctx, 'fresh', () => ({ metadata: { name: 'fresh' } }));
    expect(created).toBe(true);
    expect(obj.metadata?.uid).toBeTruthy();
  });

  test('PUT on a missing ServiceAccount is 404 (its strategy does not create on update)', async () => {
    expect(await code(sa.update(ctx, 'fresh', () => ({ metadata: { name: 'fresh' } })))).toBe(404);
  });

  test('update: stale resourceVersion → 409, unchanged object keeps its resourceVersion', async () => {
    const o = await sa.create(ctx, { metadata: { name: 'u' } });
    const same = await sa.update(ctx, 'u', (cur) => cur!);
    expect(same.obj.metadata?.resourceVersion).toBe(o.metadata?.resourceVersion);
    await sa.update(ctx, 'u', (cur) => ({ ...cur!, automountServiceAccountToken: true }));
    expect(await code(sa.update(ctx, 'u', () => ({ ...o, automountServiceAccountToken: false })))).toBe(409);
  });

  test('dryRun create and delete persist nothing', async () => {
    await sa.create({ ...ctx, dryRun: true }, { metadata: { name: 'ghost' } });
    expect(await code(sa.get(ctx, 'ghost'))).toBe(404);
    await sa.create(ctx, { metadata: { name: 'kept' } });
    await sa.delete({ ...ctx, dryRun: true }, 'kept');
    expect(await code(sa.get(ctx, 'kept'))).toBe('ok');
  });

  test('finalizers: delete marks, removing the last finalizer deletes', async () => {
    await sa.create(ctx, { metadata: { name: 'f', finalizers: ['example.com/x'] } });
    const r = await sa.delete(ctx, 'f');
    expect(r.deleted).toBe(false);
    expect((r.body as { metadata: { deletionTimestamp?: string } }).metadata.deletionTimestamp).toBeTruthy();
    await sa.update(ctx, 'f', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, finalizers: [] } }));
    expect(await code(sa.get(ctx, 'f'))).toBe(404);
  });

  test('delete preconditions', async () => {
    const o = await sa.create(ctx, { metadata: { name: 'p' } });
    expect(await code(sa.delete(ctx, 'p', { preconditions: { uid: 'other' } }))).toBe(409);
    expect(await code(sa.delete(ctx, 'p', { preconditions: { resourceVersion: '1' } }))).toBe(409);
    expect(await code(sa.delete(ctx, 'p', { preconditions: { uid: o.metadata?.uid, resourceVersion: o.metadata?.resourceVersion } }))).toBe('ok');
  });

  // The revision read first is the one deleted (no write in between): decoded once, not again
  // for the preconditions or for the answer, which is still what was deleted.
  test.each<[string, boolean]>([
    ['no preconditions', false],
    ['uid and resourceVersion preconditions', true],
  ])('a delete decodes the stored object once: %s', async (_name, withPreconditions) => {
    const o = await sa.create(ctx, { metadata: { name: 'once', labels: { a: 'b' } } });
    const options = withPreconditions ? { preconditions: { uid: o.metadata?.uid, resourceVersion: o.metadata?.resourceVersion } } : {};
    const decode = jest.spyOn(sa, 'decode');
    const r = await sa.delete(ctx, 'once', options);
    expect(decode).toHaveBeenCalledTimes(1);
    decode.mockRestore();
    expect(r.deleted).toBe(true);
    // ServiceAccounts answer with the object; a Role with a Status naming it.
    expect(r.body).toMatchObject({ metadata: { name: 'once', uid: o.metadata?.uid, resourceVersion: o.metadata?.resourceVersion, labels: { a: 'b' } } });
    const roles = stores.find((s) => s.resource.resource === 'roles')!;
    const role = await roles.create(ctx, { metadata: { name: 'r' }, rules: [] });
    const roleDecode = jest.spyOn(roles, 'decode');
    const rr = await roles.delete(ctx, 'r', withPreconditions ? { preconditions: { uid: role.metadata?.uid } } : {});
    expect(roleDecode).toHaveBeenCalledTimes(1);
    roleDecode.mockRestore();
    expect(rr.body).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'r', group: 'rbac.authorization.svc.io', kind: 'roles', uid: role.metadata?.uid } });
  });

  test('generateName retries into a free name', async () => {
    const a = await sa.create(ctx, { metadata: { generateName: 'w-' } });
    expect(a.metadata?.name).toMatch(/^w-[a-z0-9]{5}$/);
  });
});

test('replacementWith (a PUT body): the body is stored as sent, never mutated; a stale resourceVersion is 409', async () => {
  const created = await sa.create(ctx, { metadata: { name: 'put-me' } });
  const body = { metadata: { name: 'put-me', resourceVersion: created.metadata!.resourceVersion, labels: { a: 'b' } } };
  const sent = JSON.stringify(body);
  const { obj } = await sa.update(ctx, 'put-me', replacementWith(body));
  expect(obj.metadata?.labels).toEqual({ a: 'b' });
  expect(JSON.stringify(body)).toBe(sent);
  expect(await code(sa.update(ctx, 'put-me', replacementWith(body)))).toBe(409);
});

test('a GET as compact JSON is the served object\'s JSON, also for a kind stored in another version', async () => {
  const own = await sa.create(ctx, { metadata: { name: 'g' } });
  expect((await sa.getServed(ctx, 'g')).json().json).toBe(JSON.stringify(sa.withTypeMeta(await sa.get(ctx, 'g'))));
  expect(own.apiVersion).toBe('v1');
  // Served as v1beta1, stored as v1: the stored bytes' TypeMeta is not the served one.
  const beta = stores.find((s) => s.resource.resource === 'validatingadmissionpolicybindings' && s.resource.version === 'v1beta1')!;
  expect(beta.resource.storageVersion).toBe('v1');
  await beta.create(systemContext(), { metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Deny'] } });
  const text = (await beta.getServed(systemContext(), 'b')).json().json;
  expect(text.startsWith(`{"kind":"ValidatingAdmissionPolicyBinding","apiVersion":"${beta.resource.group}/v1beta1",`)).toBe(true);
  expect(text).toBe(JSON.stringify(beta.withTypeMeta(await beta.get(systemContext(), 'b'))));
});

describe('listObjects', () => {
  beforeEach(async () => {
    for (let i = 0; i < 10; i++) await sa.create(ctx, { metadata: { name: `s${i}`, labels: { odd: String(i % 2 === 1) } } });
  });

  test('pages share one revision and continue where the last ended', async () => {
    const first = await listObjects(sa, { namespace: 'team', source: { kind: 'latest' }, limit: 4, predicate: everything });
    expect(first.items.map((i) => i.metadata?.name)).toEqual(['s0', 's1', 's2', 's3']);
    expect(first.metadata.remainingItemCount).toBe(6);
    await sa.create(ctx, { metadata: { name: 's99' } });
    const start = Buffer.from(first.metadata.continue!, 'base64url').toString();
    const { rv, start: key } = JSON.parse(start) as { rv: number; start: string };
    const second = await listObjects(sa, { namespace: 'team', source: { kind: 'continue', rv, start: key }, limit: 100, predicate: everything });
    expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    expect(second.items.map((i) => i.metadata?.name)).toEqual(['s4', 's5', 's6', 's7', 's8', 's9']);
  });

  test.each([
    ['everything', () => everything],
    ['a label selector', () => selectionPredicate(parseLabelSelector('odd=true'), FieldSelector.everything(), (o) => sa.strategy.selectableFields(o))],
  ])('rawJson items (%s) are the served objects\' JSON without kind and apiVersion, shared across lists and GETs', async (_n, pred) => {
    const req = { namespace: 'team', source: { kind: 'latest' as const }, limit: 0, predicate: pred() };
    const decoded = await listObjects(sa, req);
    const raw = await listObjects(sa, { ...req, rawJson: true });
    // Rebuilt from the stored bytes (what this server wrote reproduces them), else kept as text.
    expect(raw.items.every((i) => i instanceof SplicedJson)).toBe(true);
    const texts = (raw.items as unknown as SplicedJson[]).map((i) => i.json);
    expect(texts.map((t) => JSON.parse(t) as unknown)).toEqual(decoded.items.map((i) => ({ ...i })));
    // Upstream's field order (the GET's, resourceVersion in ObjectMeta's place), minus TypeMeta.
    for (const [i, t] of texts.entries()) {
      const name = decoded.items[i].metadata!.name!;
      const got = (await sa.getServed(ctx, name)).json().json;
      expect(got).toBe(`{"kind":"ServiceAccount","apiVersion":"v1",${t.slice(1)}`);
      expect(got).toBe(JSON.stringify(sa.withTypeMeta(await sa.get(ctx, name))));
    }
    // A new revision is a new text.
    await sa.update(ctx, 's1', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, labels: { odd: 'true', v: '2' } } }));
    const after = await listObjects(sa, { ...req, rawJson: true });
    const s1 = (after.items as unknown as SplicedJson[]).map((i) => JSON.parse(i.json) as { metadata: { name: string; labels: Record<string, string> } }).find((o) => o.metadata.name === 's1');
    expect(s1?.metadata.labels.v).toBe('2');
  });

  test('every served kind writes kind, then apiVersion, first (the GET text is built on it)', () => {
    for (const store of stores) {
      const r = store.resource;
      const json = JSON.stringify(store.withTypeMeta({ metadata: { name: 'x' } }));
      expect(json.startsWith(`{"kind":"${r.kind}","apiVersion":"${r.group ? `${r.group}/` : ''}${r.version}",`)).toBe(true);
    }
  });

  test('selectors fill the page and omit remainingItemCount', async () => {
    const pred = selectionPredicate(parseLabelSelector('odd=true'), FieldSelector.everything(), (o) => sa.strategy.selectableFields(o));
    const page = await listObjects(sa, { namespace: 'team', source: { kind: 'latest' }, limit: 3, predicate: pred });
    expect(page.items.map((i) => i.metadata?.name)).toEqual(['s1', 's3', 's5']);
    expect(page.metadata.continue).toBeTruthy();
    expect(page.metadata.remainingItemCount).toBeUndefined();
  });
});

describe('watchObjects', () => {
  test('initial state, then changes with selector transitions', async () => {
    await sa.create(ctx, { metadata: { name: 'in', labels: { app: 'x' } } });
    await sa.create(ctx, { metadata: { name: 'out', labels: { app: 'y' } } });
    const pred = selectionPredicate(parseLabelSelector('app=x'), FieldSelector.everything(), (o) => sa.strategy.selectableFields(o));
    const got: ApiWatchEvent[] = [];
    const w = await watchObjects(sa, { namespace: 'team', predicate: pred }, { send: (e) => got.push(...e) > 0, onDrain: () => undefined, end: () => undefined });
    await sa.update(ctx, 'out', (c) => ({ ...c!, metadata: { ...c!.metadata, labels: { app: 'x' } } }));
    await sa.update(ctx, 'in', (c) => ({ ...c!, metadata: { ...c!.metadata, labels: { app: 'z' } } }));
    await sa.delete(ctx, 'out');
    await new Promise((r) => setTimeout(r, 20));
    w.stop();
    expect(got.map((e) => [e.type, (e.object as { metadata: { name: string } }).metadata.name])).toEqual([
      ['ADDED', 'in'],
      ['ADDED', 'out'],
      ['DELETED', 'in'],
      ['DELETED', 'out'],
    ]);
  });
});

describe('watchObjects through the watch cache', () => {
  test('progress becomes a BOOKMARK when bookmarks are allowed; watchers share decoded objects', async () => {
    const storage = new MemoryStorage();
    const cached = createStores(storage, builtinStrategies, '/registry');
    await Promise.all(cached.map((s) => s.cache?.start()));
    const store = cached.find((s) => s.resource.resource === 'namespaces')!;
    const got: ApiWatchEvent[][] = [[], []];
    const watches = await Promise.all(
      [0, 1].map((i) =>
        watchObjects(store, { namespace: '', predicate: everything, allowBookmarks: true, startNow: true }, { send: (e) => got[i].push(...e) > 0, onDrain: () => undefined, end: () => undefined }),
      ),
    );
    await store.create(systemContext(), { metadata: { name: 'shared' } });
    store.storage.requestProgress(); // the cache answers at its revision
    for (let i = 0; i < 50 && !got.every((g) => g.some((e) => e.type === 'BOOKMARK')); i++) await new Promise((r) => setTimeout(r, 10));
    watches.forEach((w) => w.stop());
    await Promise.all(cached.map((s) => s.cache?.close()));
    for (const g of got) {
      expect(g.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
      expect(Number((g[1].object as { metadata: { resourceVersion: string } }).metadata.resourceVersion)).toBeGreaterThanOrEqual(
        Number((g[0].object as { metadata: { resourceVersion: string } }).metadata.resourceVersion),
      );
    }
    // One decode serves both watchers.
    expect(got[0][0].object).toBe(got[1][0].object);
  });
});

describe('watchObjects with a consumer that holds events back', () => {
  test('while the initial events are held, the live watch stays paused; it goes on once they are taken', async () => {
    const storage = new MemoryStorage();
    const cached = createStores(storage, builtinStrategies, '/registry');
    await Promise.all(cached.map((s) => s.cache?.start()));
    const namespaces = cached.find((s) => s.resource.resource === 'namespaces')!;
    await namespaces.create(systemContext(), { metadata: { name: 'before' } });
    const sends: string[][] = [];
    let resume: (() => void) | undefined;
    const names = (events: ApiWatchEvent[]): string[] => events.map((e) => (e.object as { metadata: { name: string } }).metadata.name);
    // The consumer takes the initial events but holds them (a response that stopped taking more).
    const w = await watchObjects(
      namespaces,
      { namespace: '', predicate: everything },
      { send: (e) => sends.push(names(e)) > 1, onDrain: (r) => (resume = r), end: () => undefined },
    );
    for (let i = 0; i < 3; i++) await namespaces.create(systemContext(), { metadata: { name: `live-${i}` } });
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(sends).toEqual([['before']]);
    resume!();
    for (let i = 0; i < 20 && sends.flat().length < 4; i++) await new Promise((r) => setImmediate(r));
    w.stop();
    await Promise.all(cached.map((s) => s.cache?.close()));
    expect(sends.flat()).toEqual(['before', 'live-0', 'live-1', 'live-2']);
  });
});

describe('periodic bookmarks through the watch cache', () => {
  test('a watch whose label selector hides a write gets a BOOKMARK at the newer revision before its timeout', async () => {
    const clock = new FakeClock();
    const storage = new MemoryStorage();
    const cached = createStores(storage, builtinStrategies, '/registry', { cacheOptions: { now: clock.now, setTimer: clock.setTimer } });
    await Promise.all(cached.map((s) => s.cache?.start()));
    const namespaces = cached.find((s) => s.resource.resource === 'namespaces')!;
    const pred = selectionPredicate(parseLabelSelector('app=shown'), FieldSelector.everything(), (o) => namespaces.strategy.selectableFields(o));
    const got: ApiWatchEvent[] = [];
    const w = await watchObjects(
      namespaces,
      { namespace: '', predicate: pred, allowBookmarks: true, startNow: true, timeoutMs: 5000 },
      { send: (e) => got.push(...e) > 0, onDrain: () => undefined, end: () => undefined },
    );
    const hidden = await namespaces.create(systemContext(), { metadata: { name: 'hidden', labels: { app: 'other' } } });
    for (let i = 0; i < 16; i++) {
      clock.advance(250);
      await new Promise((r) => setImmediate(r));
    }
    w.stop();
    await Promise.all(cached.map((s) => s.cache?.close()));
    expect(got.length).toBeGreaterThan(0);
    expect(got.every((e) => e.type === 'BOOKMARK')).toBe(true);
    expect((got[0].object as { metadata: { resourceVersion: string } }).metadata.resourceVersion).toBe((hidden as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
  });
});
