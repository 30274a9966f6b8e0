// The spec's §4.5 (list) and §4.6 (watch) resourceVersion tables, row by row, against the
// running server. Each row names what the answer must show.
import { eventually, startCluster, TestCluster } from './support/apiserver';

let c: TestCluster;
let rvOld = 0; // a revision after the first objects, before later writes
let rvNow = 0;
const collection = '/api/v1/namespaces/rv/serviceaccounts';

interface List {
  metadata: { resourceVersion: string; continue?: string };
  items: { metadata: { name: string } }[];
}

beforeAll(async () => {
  c = await startCluster();
  const api = c.apiserver;
  await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'rv' } } });
  for (const n of ['a', 'b', 'c']) await api.request('POST', collection, { body: { metadata: { name: n } } });
  rvOld = Number((await api.request('GET', collection)).json<List>().metadata.resourceVersion);
  for (const n of ['d', 'e']) await api.request('POST', collection, { body: { metadata: { name: n } } });
  rvNow = Number((await api.request('GET', collection)).json<List>().metadata.resourceVersion);
  // "Any" reads may lag the writes by the watch cache's delay: start once the cache has them.
  await eventually(async () => (await api.request('GET', `${collection}?resourceVersion=0`)).json<List>().items.length === 5, 10_000, 'the cache');
});
afterAll(async () => {
  await c?.stop();
});

type Expect =
  | { semantic: 'mostRecent' | 'any' | 'notOlderThan'; names: string[] }
  | { semantic: 'exact'; names: string[] }
  | { status: number };

// [resourceVersionMatch, paging, resourceVersion] → outcome (api-spec.md §4.5 item 4).
const table: [string, string, string, Expect][] = [
  ['', '', '', { semantic: 'mostRecent', names: ['a', 'b', 'c', 'd', 'e'] }],
  ['', '', '0', { semantic: 'any', names: ['a', 'b', 'c', 'd', 'e'] }],
  ['', '', 'OLD', { semantic: 'notOlderThan', names: ['a', 'b', 'c', 'd', 'e'] }],
  ['', 'limit=10', '', { semantic: 'mostRecent', names: ['a', 'b', 'c', 'd', 'e'] }],
  ['', 'limit=10', '0', { semantic: 'any', names: ['a', 'b', 'c', 'd', 'e'] }],
  ['', 'limit=10', 'OLD', { semantic: 'exact', names: ['a', 'b', 'c'] }],
  ['', 'limit=10&continue=TOKEN', 'OLD', { status: 400 }],
  ['Exact', '', '', { status: 422 }],
  ['Exact', '', '0', { status: 422 }],
  ['Exact', '', 'OLD', { semantic: 'exact', names: ['a', 'b', 'c'] }],
  ['Exact', 'limit=10', '', { status: 422 }],
  ['Exact', 'limit=10', 'OLD', { semantic: 'exact', names: ['a', 'b', 'c'] }],
  ['NotOlderThan', '', '', { status: 422 }],
  ['NotOlderThan', '', '0', { semantic: 'any', names: ['a', 'b', 'c', 'd', 'e'] }],
  ['NotOlderThan', '', 'OLD', { semantic: 'notOlderThan', names: ['a', 'b', 'c', 'd', 'e'] }],
  ['NotOlderThan', 'limit=10', '0', { semantic: 'any', names: ['a', 'b', 'c', 'd', 'e'] }],
  ['NotOlderThan', 'limit=10', 'OLD', { semantic: 'notOlderThan', names: ['a', 'b', 'c', 'd', 'e'] }],
];

describe('list resourceVersion table (spec §4.5)', () => {
  test.each(table)('resourceVersionMatch=%j paging=%j resourceVersion=%j', async (rvm, paging, rv, want) => {
    const token = (await c.apiserver.request('GET', `${collection}?limit=1`)).json<List>().metadata.continue ?? '';
    const q = new URLSearchParams();
    if (rv) q.set('resourceVersion', rv === 'OLD' ? String(rvOld) : rv);
    if (rvm) q.set('resourceVersionMatch', rvm);
    for (const [k, v] of new URLSearchParams(paging.replace('TOKEN', encodeURIComponent(token)))) q.set(k, v);
    const r = await c.apiserver.request('GET', `${collection}?${q}`);
    if ('status' in want) {
      expect(r.status).toBe(want.status);
      expect(r.json()).toMatchObject({ kind: 'Status', code: want.status });
      return;
    }
    expect(r.status).toBe(200);
    const l = r.json<List>();
    expect(l.items.map((i) => i.metadata.name)).toEqual(want.names);
    const listRv = Number(l.metadata.resourceVersion);
    if (want.semantic === 'exact') expect(listRv).toBe(rvOld);
    else if (want.semantic === 'any') expect(listRv).toBeGreaterThan(0);
    else expect(listRv).toBeGreaterThanOrEqual(rvNow);
  });

  test('continue token with resourceVersion "0" is treated as the token alone', async () => {
    const first = (await c.apiserver.request('GET', `${collection}?limit=2`)).json<List>();
    const r = await c.apiserver.request('GET', `${collection}?limit=2&resourceVersion=0&continue=${encodeURIComponent(first.metadata.continue ?? '')}`);
    expect(r.status).toBe(200);
    expect(r.json<List>().items.map((i) => i.metadata.name)).toEqual(['c', 'd']);
    expect(r.json<List>().metadata.resourceVersion).toBe(first.metadata.resourceVersion);
  });

  test('get: unset = most recent, "0" = any, N = not older than N, future N = 504', async () => {
    for (const rv of ['', '0', String(rvOld)]) {
      const r = await c.apiserver.request('GET', `${collection}/a${rv ? `?resourceVersion=${rv}` : ''}`);
      expect(r.status).toBe(200);
    }
    const r = await c.apiserver.request('GET', `${collection}/a?resourceVersion=${rvNow + 100000}`);
    expect(r.status).toBe(504);
    expect(r.json()).toMatchObject({ reason: 'Timeout', details: { causes: [{ reason: 'ResourceVersionTooLarge' }] } });
  });
});

describe('watch resourceVersion table (spec §4.6)', () => {
  async function firstEvents(query: string, n: number): Promise<{ type: string; name?: string }[]> {
    const w = c.apiserver.watch(`${collection}?watch=true&${query}`);
    const events = await w.waitFor((e) => e.length >= n);
    w.close();
    return events.slice(0, n).map((e) => ({ type: e.type, name: e.object.metadata?.name }));
  }

  test('unset: synthetic ADDED for every object', async () => {
    expect(await firstEvents('', 5)).toEqual(['a', 'b', 'c', 'd', 'e'].map((name) => ({ type: 'ADDED', name })));
  });
  test('"0": synthetic ADDED for every object', async () => {
    expect(await firstEvents('resourceVersion=0', 5)).toEqual(['a', 'b', 'c', 'd', 'e'].map((name) => ({ type: 'ADDED', name })));
  });
  test('N: only changes after N', async () => {
    expect(await firstEvents(`resourceVersion=${rvOld}`, 2)).toEqual([
      { type: 'ADDED', name: 'd' },
      { type: 'ADDED', name: 'e' },
    ]);
  });
  test.each([
    ['resourceVersionMatch=NotOlderThan', 422],
    ['sendInitialEvents=true', 422],
    ['sendInitialEvents=true&resourceVersionMatch=Exact&resourceVersion=1', 422],
    ['resourceVersion=abc', 422],
  ])('%s → %d', async (q, code) => {
    const r = await c.apiserver.request('GET', `${collection}?watch=true&${q}`);
    expect(r.status).toBe(code);
  });
});
