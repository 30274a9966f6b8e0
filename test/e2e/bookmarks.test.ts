// Periodic watch BOOKMARKs through the real apiserver, on the current etcd and on Debian's
// etcd 3.4.23 (whose progress replies may overtake events, so the cache never asks it for
// progress): the watch cache sends the bookmark 2 s before timeoutSeconds ends the watch, at its
// latest revision, even when the watch's label selector hid the write that produced it.
import { startCluster, TestCluster, eventually, WatchStream } from './support/apiserver';
import { currentEtcd, EtcdBinary, legacyEtcd } from './support/etcdBinaries';

type Meta = { metadata: { resourceVersion: string } };

describe.each([
  ['current etcd', currentEtcd],
  ['etcd 3.4.23', legacyEtcd],
])('periodic bookmarks on %s', (_name, pick: () => EtcdBinary) => {
  let c: TestCluster;
  let etcd: EtcdBinary;
  const ns = 'bookmarks';
  const collection = `/api/v1/namespaces/${ns}/serviceaccounts`;

  beforeAll(async () => {
    etcd = pick();
    c = await startCluster([], { etcdBinary: etcd.path });
    const created = await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await c?.stop();
  });

  test('a watch whose selector hides a write gets a BOOKMARK at the newer resourceVersion before its timeout ends it', async () => {
    const api = c.apiserver;
    const listed = await api.request('GET', collection);
    expect(listed.status).toBe(200);
    const startRv = listed.json<Meta>().metadata.resourceVersion;
    const query = `watch=true&resourceVersion=${startRv}&timeoutSeconds=5&labelSelector=app%3Dshown`;
    const withBookmarks = api.watch(`${collection}?${query}&allowWatchBookmarks=true`);
    const without = api.watch(`${collection}?${query}`);
    await eventually(async () => withBookmarks.status !== undefined && without.status !== undefined, 10_000, 'both watches to start');
    expect([withBookmarks.status, without.status]).toEqual([200, 200]);

    const hidden = await api.request('POST', collection, { body: { metadata: { name: 'hidden', labels: { app: 'other' } } } });
    expect(hidden.status).toBe(201);
    const hiddenRv = Number(hidden.json<Meta>().metadata.resourceVersion);
    expect(hiddenRv).toBeGreaterThan(Number(startRv));

    // The server ends both streams at timeoutSeconds; wait for that, then look at what came.
    const ended = (w: WatchStream) => async () => w.ended;
    await eventually(ended(withBookmarks), 30_000, 'the bookmark watch to end at its timeout');
    await eventually(ended(without), 30_000, 'the plain watch to end at its timeout');

    const types = withBookmarks.events.map((e) => e.type);
    expect(types.length).toBeGreaterThan(0);
    expect(new Set(types)).toEqual(new Set(['BOOKMARK'])); // the hidden write itself never shows
    const rvs = withBookmarks.events.map((e) => Number(e.object.metadata?.resourceVersion));
    expect(Math.max(...rvs)).toBeGreaterThanOrEqual(hiddenRv);
    expect(withBookmarks.events[0].object).toMatchObject({ kind: 'ServiceAccount', apiVersion: 'v1' });
    expect(without.events).toEqual([]);
  });

  test('the cluster really ran on the pinned etcd', async () => {
    const version = await fetch(`${c.etcd.endpoint}/version`).then((r) => r.json() as Promise<{ etcdserver: string }>);
    expect(version.etcdserver).toBe(etcd.version);
  });
});
