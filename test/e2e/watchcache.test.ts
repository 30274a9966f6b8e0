// The watch cache seen from outside: watches older than its window are rebuilt from etcd's
// history (no spurious 410), compacted history is 410, cached reads do not touch etcd ranges,
// and its metrics.
import { fetchEtcdVersion, progressRequestsAreOrdered } from '../../lib/etcd/etcdVersion';
import { compactEtcd } from '../../lib/etcd/testing/compactEtcd';
import { startCluster, TestCluster } from './support/apiserver';

let c: TestCluster;
const ns = 'cache';
const collection = `/api/v1/namespaces/${ns}/serviceaccounts`;

beforeAll(async () => {
  c = await startCluster();
  await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
});
afterAll(async () => {
  await c?.stop();
});

async function rv(): Promise<number> {
  return Number((await c.apiserver.request('GET', collection)).json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion);
}

async function metric(name: string): Promise<number> {
  const text = (await c.apiserver.request('GET', '/metrics')).body;
  return text
    .split('\n')
    .filter((l) => l.startsWith(name))
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

test('a watch from before the cache window is served from etcd history, without 410', async () => {
  const api = c.apiserver;
  await api.request('POST', collection, { body: { metadata: { name: 'early' } } });
  const from = await rv();
  for (const n of ['x1', 'x2', 'x3']) await api.request('POST', collection, { body: { metadata: { name: n } } });
  // A restarted apiserver's cache window begins now, after `from`.
  await api.stop();
  await api.start();
  const w = api.watch(`${collection}?watch=true&resourceVersion=${from}`);
  const events = await w.waitFor((e) => e.length >= 3);
  w.close();
  expect(events.map((e) => `${e.type}/${e.object.metadata?.name}`)).toEqual(['ADDED/x1', 'ADDED/x2', 'ADDED/x3']);
});

test('a watch from history compacted in etcd and outside the window gets 410 Expired', async () => {
  const api = c.apiserver;
  const old = await rv();
  await api.request('POST', collection, { body: { metadata: { name: 'after-old' } } });
  await api.request('POST', collection, { body: { metadata: { name: 'after-old-2' } } });
  await compactEtcd(c.etcd.endpoint, await rv());
  await api.stop();
  await api.start();
  const w = api.watch(`${collection}?watch=true&resourceVersion=${old}`);
  const events = await w.waitFor((e) => e.some((x) => x.type === 'ERROR'));
  w.close();
  expect(events[0].object).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
});

test('resourceVersion=0 lists are served from the cache, not etcd ranges', async () => {
  const api = c.apiserver;
  await rv(); // warm: the cache is ready
  const ranges = (): Promise<number> => metric('etcd_request_duration_seconds_count{operation="list",type="serviceaccounts"}');
  const before = await ranges();
  // (Consistent lists also come from the cache, but only on an etcd that orders progress
  // replies after pending events — 3.4.25+/3.5.8+; older ones, like Debian's 3.4.23, read etcd.)
  for (let i = 0; i < 10; i++) {
    expect((await api.request('GET', `${collection}?resourceVersion=0`)).status).toBe(200);
  }
  expect(await ranges()).toBe(before);
  // Exact reads of a revision the cache's state no longer reflects read etcd at that revision.
  const past = await rv();
  await api.request('POST', collection, { body: { metadata: { name: 'newer' } } });
  await api.request('GET', `${collection}?resourceVersion=${past}&resourceVersionMatch=Exact`);
  expect(await ranges()).toBeGreaterThan(before);
});

test('a GET without resourceVersion sees the write just acknowledged; from the cache where etcd orders progress replies', async () => {
  const api = c.apiserver;
  const ordered = progressRequestsAreOrdered(await fetchEtcdVersion(c.etcd.endpoint));
  const path = `${collection}/rmw`;
  await api.request('POST', collection, { body: { metadata: { name: 'rmw', labels: { n: '0' } } } });
  const gets = (): Promise<number> => metric('etcd_request_duration_seconds_count{operation="get",type="serviceaccounts"}');
  await api.request('GET', path);
  const before = await gets();
  for (let n = 1; n <= 10; n++) {
    const put = await api.request('PATCH', path, { body: { metadata: { labels: { n: String(n) } } }, contentType: 'application/merge-patch+json' });
    expect(put.status).toBe(200);
    const got = await api.request('GET', path);
    expect(got.json<{ metadata: { labels: Record<string, string>; resourceVersion: string } }>().metadata).toMatchObject({
      labels: { n: String(n) },
      resourceVersion: put.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion,
    });
  }
  // (A PATCH reads etcd inside its guaranteed update, counted as operation "update".)
  if (ordered) expect(await gets()).toBe(before);
  else expect(await gets()).toBeGreaterThanOrEqual(before + 10);
  // Upstream's counter: reads served from the cache (none where they go to etcd at once).
  const text = (await api.request('GET', '/metrics')).body;
  const served = text
    .split('\n')
    .filter((l) => l.startsWith('apiserver_watch_cache_consistent_read_total{') && l.includes('resource="serviceaccounts"') && l.includes('success="true"') && l.includes('fallback="false"'))
    .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
  if (ordered) expect(served).toBeGreaterThanOrEqual(10);
  else expect(served).toBe(0);
});

test('watch cache metrics', async () => {
  await c.apiserver.request('POST', collection, { body: { metadata: { name: 'metric' } } });
  expect(await metric('apiserver_watch_cache_events_received_total{group="",resource="serviceaccounts"}')).toBeGreaterThan(0);
  expect(await metric('apiserver_watch_cache_resource_version{group="",resource="serviceaccounts"}')).toBeGreaterThan(0);
  const w = c.apiserver.watch(`${collection}?watch=true&resourceVersion=0`);
  await w.waitFor((e) => e.length > 0);
  w.close();
  expect(await metric('apiserver_watch_events_total{group="",version="v1",kind="ServiceAccount"}')).toBeGreaterThan(0);
  expect(await metric('apiserver_watch_events_sizes_count{group="",version="v1",kind="ServiceAccount"}')).toBeGreaterThan(0);
});
