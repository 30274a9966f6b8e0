// The svc-apiserver side: creates, GETs and lists over HTTPS with the admin certificate, of
// ServiceAccounts unless another kind is given (the crd phase's custom resources).
import type { HttpsClient } from './httpsClient';
import { runLoad, LoadResult, Pids } from './load';
import { objectName, serviceAccounts, type BenchKind } from './objects';

export async function ensureNamespace(client: HttpsClient, name: string): Promise<void> {
  await client.expect('POST', '/api/v1/namespaces', [201, 409], { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

/** POSTs `count` objects named from `first` on, `concurrency` in flight. */
export function serverCreates(client: HttpsClient, pids: Pids, ns: string, first: number, count: number, concurrency: number, pad: number, kind: BenchKind = serviceAccounts): Promise<LoadResult> {
  // Bodies are built before the clock starts.
  const bodies = Array.from({ length: count }, (_, i) => Buffer.from(JSON.stringify(kind.object(objectName(first + i), pad))));
  const path = kind.collection(ns);
  return runLoad({ concurrency, count, pids }, async (i) => {
    const r = await client.request('POST', path, bodies[i]);
    if (r.status !== 201) throw new Error(`create: HTTP ${r.status}: ${r.text().slice(0, 300)}`);
  });
}

/** GETs random existing objects (0 … objects-1) for a fixed time. */
export function serverGets(client: HttpsClient, pids: Pids, ns: string, objects: number, concurrency: number, seconds: number, kind: BenchKind = serviceAccounts): Promise<LoadResult> {
  const paths = Array.from({ length: objects }, (_, i) => `${kind.collection(ns)}/${objectName(i)}`);
  return runLoad({ concurrency, seconds, pids }, async () => {
    const r = await client.request('GET', paths[(Math.random() * objects) | 0]);
    if (r.status !== 200) throw new Error(`get: HTTP ${r.status}: ${r.text().slice(0, 300)}`);
  });
}

export type ListMode = 'unpaged' | 'paged' | 'rv0';

export interface ListOutcome {
  items: number;
  bytes: number;
}

const continueRe = /"continue":"([^"]+)"/;

/** One full list of a namespace; items are counted only when `count` (parsing costs client CPU). */
export async function serverListOnce(client: HttpsClient, ns: string, mode: ListMode, count = false, pageSize = 500, kind: BenchKind = serviceAccounts): Promise<ListOutcome> {
  const collection = kind.collection(ns);
  const countItems = (body: Buffer): number => {
    if (!count) return 0;
    return (JSON.parse(body.toString('utf8')) as { items: unknown[] }).items.length;
  };
  if (mode !== 'paged') {
    const r = await client.request('GET', mode === 'rv0' ? `${collection}?resourceVersion=0` : collection);
    if (r.status !== 200) throw new Error(`list: HTTP ${r.status}: ${r.text().slice(0, 300)}`);
    return { items: countItems(r.body), bytes: r.body.length };
  }
  let items = 0;
  let bytes = 0;
  let token = '';
  for (;;) {
    const q = `limit=${pageSize}${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
    const r = await client.request('GET', `${collection}?${q}`);
    if (r.status !== 200) throw new Error(`list page: HTTP ${r.status}: ${r.text().slice(0, 300)}`);
    bytes += r.body.length;
    items += countItems(r.body);
    // metadata precedes items, so the token is near the start.
    const m = continueRe.exec(r.body.subarray(0, 2048).toString('utf8'));
    if (!m) return { items, bytes };
    token = m[1];
  }
}

export async function serverLists(client: HttpsClient, pids: Pids, ns: string, mode: ListMode, iterations: number, pageSize: number, kind: BenchKind = serviceAccounts): Promise<LoadResult & ListOutcome> {
  let last: ListOutcome = { items: 0, bytes: 0 };
  const r = await runLoad({ concurrency: 1, count: iterations, pids }, async () => {
    last = await serverListOnce(client, ns, mode, false, pageSize, kind);
  });
  return { ...r, ...last };
}
