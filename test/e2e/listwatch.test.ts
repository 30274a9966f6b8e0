// Lists and watches through the real processes: paging over a fixed snapshot, selectors,
// resourceVersion semantics, 410 after compaction, watch resume without loss, clean teardown.
import { compactEtcd } from '../../lib/etcd/testing/compactEtcd';
import { startCluster, TestCluster, eventually } from './support/apiserver';

let c: TestCluster;
beforeAll(async () => {
  c = await startCluster();
  await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'page' } } });
  for (let i = 0; i < 120; i++) {
    const r = await c.apiserver.request('POST', '/api/v1/namespaces/page/serviceaccounts', {
      body: { metadata: { name: `sa-${String(i).padStart(3, '0')}`, labels: { parity: i % 2 ? 'odd' : 'even', tier: i < 10 ? 'top' : 'rest' } } },
    });
    expect(r.status).toBe(201);
  }
}, 120_000);
afterAll(async () => {
  await c?.stop();
});

interface List {
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: { metadata: { name: string; resourceVersion: string } }[];
}

const collection = '/api/v1/namespaces/page/serviceaccounts';

describe('list', () => {
  test('paging over 120 objects is a consistent snapshot while writes happen', async () => {
    const api = c.apiserver;
    const names: string[] = [];
    let token = '';
    let rv = '';
    let page = 0;
    for (;;) {
      const r = await api.request('GET', `${collection}?limit=25${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
      expect(r.status).toBe(200);
      const l = r.json<List>();
      if (page === 0) {
        rv = l.metadata.resourceVersion;
        expect(l.metadata.remainingItemCount).toBe(95);
        // Writes after the first page must not show up in later pages.
        await api.request('POST', collection, { body: { metadata: { name: 'sa-zzz-late' } } });
        await api.request('DELETE', `${collection}/sa-119`);
      }
      expect(l.metadata.resourceVersion).toBe(rv);
      names.push(...l.items.map((i) => i.metadata.name));
      page++;
      if (!l.metadata.continue) break;
      token = l.metadata.continue;
    }
    expect(page).toBe(5);
    expect(names).toHaveLength(120);
    expect(names[119]).toBe('sa-119');
    expect(names).not.toContain('sa-zzz-late');
    // Restore for the other tests.
    await api.request('POST', collection, { body: { metadata: { name: 'sa-119', labels: { parity: 'odd', tier: 'rest' } } } });
    await api.request('DELETE', `${collection}/sa-zzz-late`);
  });

  test.each([
    ['parity=odd', 60],
    ['parity!=odd', 60],
    ['tier in (top)', 10],
    ['tier notin (top),parity=even', 55],
    ['tier', 120],
    ['!tier', 0],
  ])('labelSelector %s → %d items', async (sel, n) => {
    const r = await c.apiserver.request('GET', `${collection}?labelSelector=${encodeURIComponent(sel)}`);
    expect(r.status).toBe(200);
    expect(r.json<List>().items).toHaveLength(n);
  });

  test('selectors with limit fill pages and omit remainingItemCount', async () => {
    const r = await c.apiserver.request('GET', `${collection}?labelSelector=parity%3Dodd&limit=7`);
    const l = r.json<List>();
    expect(l.items).toHaveLength(7);
    expect(l.metadata.continue).toBeTruthy();
    expect(l.metadata.remainingItemCount).toBeUndefined();
  });

  test.each([
    ['fieldSelector=metadata.name%3Dsa-001', 200, 1],
    ['fieldSelector=metadata.namespace%3Dpage', 200, 120],
    ['fieldSelector=spec.nope%3Dx', 400, 0],
    ['labelSelector=%3D%3D%3D', 400, 0],
    ['limit=abc', 400, 0],
    ['resourceVersionMatch=Exact', 422, 0],
    ['resourceVersion=0&resourceVersionMatch=Exact', 422, 0],
    ['resourceVersion=1&continue=abc', 400, 0],
    ['resourceVersionMatch=Bogus&resourceVersion=1', 422, 0],
  ])('%s → %d', async (q, code, n) => {
    const r = await c.apiserver.request('GET', `${collection}?${q}`);
    expect(r.status).toBe(code);
    if (code === 200) expect(r.json<List>().items).toHaveLength(n);
    else expect(r.json()).toMatchObject({ kind: 'Status', code });
  });

  test('the all-namespaces list and a future resourceVersion', async () => {
    const all = await c.apiserver.request('GET', '/api/v1/serviceaccounts?limit=500');
    expect(all.json<List>().items.length).toBeGreaterThanOrEqual(120);
    const rv = Number(all.json<List>().metadata.resourceVersion);
    const future = await c.apiserver.request('GET', `${collection}?resourceVersion=${rv + 100000}&resourceVersionMatch=NotOlderThan`);
    expect(future.status).toBe(504);
    expect(future.headers['retry-after']).toBe('1');
    expect(future.json<{ message: string }>().message).toContain('Too large resource version');
  });

  test('410 Expired after compaction: exact list and continue token', async () => {
    const api = c.apiserver;
    const first = (await api.request('GET', `${collection}?limit=10`)).json<List>();
    const oldRv = first.metadata.resourceVersion;
    await api.request('POST', collection, { body: { metadata: { name: 'sa-compact' } } });
    const cur = Number((await api.request('GET', collection)).json<List>().metadata.resourceVersion);
    await compactEtcd(c.etcd.endpoint, cur);
    const exact = await api.request('GET', `${collection}?resourceVersion=${oldRv}&resourceVersionMatch=Exact&limit=10`);
    expect(exact.status).toBe(410);
    expect(exact.json()).toMatchObject({ reason: 'Expired', message: 'The resourceVersion for the provided list is too old.' });
    const cont = await api.request('GET', `${collection}?limit=10&continue=${encodeURIComponent(first.metadata.continue ?? '')}`);
    expect(cont.status).toBe(410);
    const s = cont.json<{ reason: string; metadata: { continue?: string } }>();
    expect(s.reason).toBe('Expired');
    expect(s.metadata.continue).toBeTruthy();
    await api.request('DELETE', `${collection}/sa-compact`);
  });
});

describe('watch', () => {
  test('RV unset begins with synthetic ADDED events, then streams changes', async () => {
    const api = c.apiserver;
    const w = api.watch(`${collection}?watch=true&labelSelector=tier%3Dtop`);
    await w.waitFor((e) => e.filter((x) => x.type === 'ADDED').length === 10);
    await api.request('PATCH', `${collection}/sa-000`, { body: { metadata: { annotations: { a: '1' } } }, contentType: 'application/merge-patch+json' });
    await w.waitFor((e) => e.some((x) => x.type === 'MODIFIED' && x.object.metadata?.name === 'sa-000'));
    // Leaving the selector is reported as DELETED, entering as ADDED.
    await api.request('PATCH', `${collection}/sa-001`, { body: { metadata: { labels: { tier: 'rest' } } }, contentType: 'application/merge-patch+json' });
    await w.waitFor((e) => e.some((x) => x.type === 'DELETED' && x.object.metadata?.name === 'sa-001'));
    await api.request('PATCH', `${collection}/sa-050`, { body: { metadata: { labels: { tier: 'top' } } }, contentType: 'application/merge-patch+json' });
    await w.waitFor((e) => e.some((x) => x.type === 'ADDED' && x.object.metadata?.name === 'sa-050'));
    w.close();
    await api.request('PATCH', `${collection}/sa-001`, { body: { metadata: { labels: { tier: 'top' } } }, contentType: 'application/merge-patch+json' });
    await api.request('PATCH', `${collection}/sa-050`, { body: { metadata: { labels: { tier: 'rest' } } }, contentType: 'application/merge-patch+json' });
  });

  test('resume from a resourceVersion loses no event', async () => {
    const api = c.apiserver;
    const start = (await api.request('GET', collection)).json<List>().metadata.resourceVersion;
    const first = api.watch(`${collection}?watch=true&resourceVersion=${start}`);
    const names = Array.from({ length: 30 }, (_, i) => `resume-${i}`);
    for (const n of names.slice(0, 10)) await api.request('POST', collection, { body: { metadata: { name: n } } });
    await first.waitFor((e) => e.length >= 10);
    first.close();
    const lastRv = first.events[first.events.length - 1].object.metadata?.resourceVersion ?? '';
    const seen = first.events.map((e) => e.object.metadata?.name);
    // Changes while disconnected.
    for (const n of names.slice(10, 20)) await api.request('POST', collection, { body: { metadata: { name: n } } });
    const second = api.watch(`${collection}?watch=true&resourceVersion=${lastRv}`);
    for (const n of names.slice(20)) await api.request('POST', collection, { body: { metadata: { name: n } } });
    await second.waitFor((e) => e.length >= 20);
    second.close();
    seen.push(...second.events.map((e) => e.object.metadata?.name));
    expect(seen).toEqual(names);
    for (const n of names) await api.request('DELETE', `${collection}/${n}`);
  });

  test('watch-list: initial events end with an annotated BOOKMARK', async () => {
    const w = c.apiserver.watch(
      `${collection}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&labelSelector=tier%3Dtop`,
    );
    const events = await w.waitFor((e) => e.some((x) => x.type === 'BOOKMARK'));
    w.close();
    expect(events.slice(0, 10).every((e) => e.type === 'ADDED')).toBe(true);
    expect(events[10]).toMatchObject({
      type: 'BOOKMARK',
      object: { kind: 'ServiceAccount', apiVersion: 'v1', metadata: { annotations: { 'svc.io/initial-events-end': 'true' } } },
    });
    expect(Number(events[10].object.metadata?.resourceVersion)).toBeGreaterThan(0);
    const bad = await c.apiserver.request('GET', `${collection}?watch=true&sendInitialEvents=true`);
    expect(bad.status).toBe(422);
  });

  test('timeoutSeconds ends the stream', async () => {
    const w = c.apiserver.watch(`${collection}?watch=true&resourceVersion=0&timeoutSeconds=1&fieldSelector=metadata.name%3Dsa-002`);
    await eventually(async () => w.ended, 5000, 'the watch to end');
    expect(w.events.map((e) => e.type)).toEqual(['ADDED']);
  });

  test('closed watches leave no watchers behind; API watches add no etcd watchers (watch cache)', async () => {
    const before = await longRunning();
    const etcdBefore = await etcdWatchers();
    const ws = Array.from({ length: 5 }, () => c.apiserver.watch(`${collection}?watch=true&resourceVersion=0`));
    await eventually(async () => (await longRunning()) >= before + 5, 5000, 'watchers registered');
    expect(await etcdWatchers()).toBe(etcdBefore);
    ws.forEach((w) => w.close());
    await eventually(async () => (await longRunning()) === before, 5000, 'watchers released');
    expect(await etcdWatchers()).toBe(etcdBefore);
  });
});

async function longRunning(): Promise<number> {
  const text = (await c.apiserver.request('GET', '/metrics')).body;
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('apiserver_longrunning_requests{')) total += Number(line.split(' ').pop());
  }
  return total;
}

/** etcd's own gauge of registered watchers. */
async function etcdWatchers(): Promise<number> {
  const text = await (await fetch(`${c.etcd.endpoint}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('etcd_debugging_mvcc_watcher_total '));
  return Number(line?.split(' ')[1] ?? NaN);
}

describe('large bodies over HTTP/1.1', () => {
  test('a list over 1 MiB (written in pieces, each after a drain) arrives whole', async () => {
    const api = c.apiserver;
    await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'big' } } });
    const data = 'x'.repeat(400 * 1024);
    for (let i = 0; i < 4; i++) {
      const r = await api.request('POST', '/api/v1/namespaces/big/configmaps', { body: { metadata: { name: `cm-${i}` }, data: { d: `${i}${data}` } } });
      expect(r.status).toBe(201);
    }
    for (const rv of ['', '?resourceVersion=0']) {
      const r = await api.request('GET', `/api/v1/namespaces/big/configmaps${rv}`);
      expect(r.status).toBe(200);
      expect(Number(r.headers['content-length'])).toBe(r.bytes.length);
      expect(r.bytes.length).toBeGreaterThan(1024 * 1024 + 1);
      const l = r.json<{ items: { metadata: { name: string }; data: { d: string } }[] }>();
      expect(l.items.map((i) => [i.metadata.name, i.data.d.length, i.data.d[0]])).toEqual([0, 1, 2, 3].map((i) => [`cm-${i}`, data.length + 1, String(i)]));
    }
  });
});
