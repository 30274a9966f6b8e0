// `make bench BENCH_FLAGS=--scale`: how the apiserver's costs grow with the number of objects.
// For each size (default 10k, 30k, 100k ServiceAccounts, filled straight into etcd as the
// apiserver stores them) a fresh apiserver starts on that etcd and is measured: time to ready
// and to a filled watch cache, RSS, a full list (unpaged, and one page of 500 plus the whole paged
// walk), a GET, and with 1,000 idle HTTP/2 watchers (100 streams per connection, upstream's
// default) their memory and one update's p99 delivery. HTTP/1.1 watchers are measured once for
// comparison. Writes a table, JSON and an SVG plot (svgPlot.ts) to bench/results/.
// Memory per object is measured after full GCs (the apiserver runs with node's --inspect, and the
// bench asks it to collect through the inspector), after the lists and GETs filled the served
// memos, as the growth from the smallest to the largest size per object added: RSS, V8 heap plus
// array buffers, and a heap snapshot's self sizes (taken last: a snapshot's own native memory
// stays in RSS). The RSS without a GC, right after the cache fill, is reported as before.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Etcd3 } from 'etcd3';
import { awaitMallocTrim, Cluster, freePort, mallocTrims, startExtraApiserver, steadyRss } from './cluster';
import { etcdClient, renamedValue } from './etcdBaseline';
import type { HttpsClient } from './httpsClient';
import { openH1Watches, openH2Watches, type WatchFleet } from './h2Watchers';
import { percentiles, runLoad, sleep } from './load';
import { objectName, seqLabel, serviceAccount } from './objects';
import { ensureNamespace } from './serverLoad';
import { renderPlot, type Series } from './svgPlot';
import { diffHeapSummaries, type HeapSummary } from './heapSnapshot';
import { Inspector, type MemoryUsage } from './inspector';

export const scaleNamespace = 'scale';
const collection = `/api/v1/namespaces/${scaleNamespace}/serviceaccounts`;

export interface ScaleOptions {
  sizes: number[];
  watchers: number;
  /** HTTP/1.1 watchers opened once (at the first size) to compare idle memory with HTTP/2. */
  h1Watchers: number;
  streamsPerSession: number;
  updates: number;
  pageSize: number;
  pad: number;
  out: string;
  log(msg: string): void;
}

export interface ScalePoint {
  objects: number;
  /** Process spawned → /readyz 200. */
  readyMs: number;
  /** Process spawned → a resourceVersion=0 list (the cache) holds every object. */
  cacheFilledMs: number;
  rssBytes: number;
  unpagedListMs: number;
  unpagedListBytes: number;
  /** One page of pageSize (the first), median. */
  pageMs: number;
  /** Every page in turn. */
  pagedWalkMs: number;
  getMs: { p50: number; p99: number };
  /**
   * RSS growth from opening the HTTP/2 watchers, per watcher (both RSS samples after a full GC),
   * the second time they are opened: the first opening also grows the allocator's and V8's
   * pools once (idleH2WatcherFirstBytes), which later watchers reuse.
   */
  idleH2WatcherBytes: number;
  /** The same for the first opening of the watchers on this server. */
  idleH2WatcherFirstBytes: number;
  /** V8 heap-used growth after full GCs over the same span, per watcher. */
  idleH2WatcherHeapBytes: number;
  /** Served JSON per object: the unpaged list's bytes ÷ objects. */
  jsonItemBytes: number;
  /** After the cache fill, full GCs: process.memoryUsage() and the steady RSS. */
  filledAfterGc: MemoryUsage;
  /** After the lists and GETs (every object served as JSON), full GCs. */
  servedAfterGc: MemoryUsage;
  /** The heap snapshot's summed self sizes, taken last. */
  heapSnapshotBytes: number;
  watchersOpen: number;
  watchDelivery: { expected: number; delivered: number; p50Ms: number; p99Ms: number };
}

export interface ScaleCheck {
  name: string;
  value: string;
  target: string;
  met: boolean;
}

/** Per object added from the smallest to the largest size, after the lists and GETs, after GC. */
export interface PerObjectMemory {
  jsonBytes: number;
  rssBytes: number;
  heapAndBuffersBytes: number;
  heapSnapshotBytes: number;
  /** The heap snapshot's growth by node type and constructor, per object, largest first. */
  heapSnapshotGroups: { key: string; count: number; bytes: number }[];
}

export interface ScaleResult {
  startedAt: string;
  options: Omit<ScaleOptions, 'log' | 'out'>;
  points: ScalePoint[];
  perObject?: PerObjectMemory;
  idleH1WatcherBytes?: number;
  h1WatchersOpen?: number;
  checks: ScaleCheck[];
  error?: string;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round1 = (x: number): number => Math.round(x * 10) / 10;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** Raw puts of the stored template, renamed, for objects [from, to). */
async function fill(etcd: Etcd3, template: Buffer, templateName: string, from: number, to: number): Promise<void> {
  if (to <= from) return;
  const r = await runLoad({ concurrency: 64, count: to - from, pids: { apiserver: 0, etcd: 0 } }, async (i) => {
    const n = from + i;
    await etcd.put(`/registry/serviceaccounts/${scaleNamespace}/${objectName(n)}`).value(renamedValue(template, templateName, n));
  });
  if (r.errors) throw new Error(`filling etcd: ${r.firstError}`);
}

async function waitCacheFilled(client: HttpsClient, objects: number, deadlineMs: number): Promise<void> {
  for (;;) {
    const r = await client.request('GET', `${collection}?resourceVersion=0&limit=1`);
    if (r.status === 200) {
      const m = r.json<{ metadata: { remainingItemCount?: number } }>().metadata;
      if (m.remainingItemCount === undefined || m.remainingItemCount + 1 >= objects) return;
    }
    if (performance.now() > deadlineMs) throw new Error(`the watch cache does not hold ${objects} objects in time`);
    await sleep(50);
  }
}

async function pagedWalk(client: HttpsClient, pageSize: number): Promise<number> {
  let cont = '';
  let items = 0;
  do {
    const r = await client.expect('GET', `${collection}?limit=${pageSize}${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`, [200]);
    const body = r.json<{ items: unknown[]; metadata: { continue?: string } }>();
    items += body.items.length;
    cont = body.metadata.continue ?? '';
  } while (cont);
  return items;
}

/** `updates` merge-patches of object 0, 100 ms apart; delivery = arrival − send, over every watcher. */
async function deliveries(client: HttpsClient, fleet: WatchFleet, updates: number, base: number): Promise<ScalePoint['watchDelivery']> {
  const sent = new Map<number, number>();
  for (let k = 0; k < updates; k++) {
    const seq = base + k;
    sent.set(seq, performance.now());
    await client.expect('PATCH', `${collection}/${objectName(0)}`, [200], { metadata: { labels: { [seqLabel]: String(seq) } } }, 'application/merge-patch+json');
    await sleep(100);
  }
  const expected = updates * fleet.open;
  const count = (): number => [...sent.keys()].reduce((n, s) => n + (fleet.receipts.get(s)?.length ?? 0), 0);
  const deadline = performance.now() + 30_000;
  while (count() < expected && performance.now() < deadline) await sleep(100);
  const lat: number[] = [];
  for (const [seq, at] of sent) for (const t of fleet.receipts.get(seq) ?? []) lat.push(t - at);
  const p = percentiles(lat);
  return { expected, delivered: lat.length, p50Ms: round1(p.p50), p99Ms: round1(p.p99) };
}

/** The steady RSS and process.memoryUsage() after full GCs. */
async function afterGc(inspector: Inspector, api: { client: HttpsClient; pid: number }): Promise<MemoryUsage> {
  const trims = await mallocTrims(api.client);
  const m = await inspector.memoryAfterGc();
  await awaitMallocTrim(api.client, trims);
  return { ...m, rss: await steadyRss(api.pid) };
}

async function measureSize(cluster: Cluster, o: ScaleOptions, n: number, first: boolean, result: ScaleResult, snapshots: Map<number, HeapSummary>): Promise<ScalePoint> {
  const spawnedAt = performance.now();
  const inspectPort = await freePort();
  const api = await startExtraApiserver(cluster, [`--http2-max-streams-per-connection=${o.streamsPerSession}`], 8, undefined, [`--inspect=127.0.0.1:${inspectPort}`]);
  let inspector: Inspector | undefined;
  try {
    const readyMs = performance.now() - spawnedAt;
    await waitCacheFilled(api.client, n, performance.now() + 300_000);
    const cacheFilledMs = performance.now() - spawnedAt;
    await sleep(1000);
    const rss = await steadyRss(api.pid);
    inspector = await Inspector.connect(inspectPort);
    const filledAfterGc = await afterGc(inspector, api);
    o.log(`${n}: ready ${Math.round(readyMs)} ms, cache filled ${Math.round(cacheFilledMs)} ms, RSS ${Math.round(rss / 2 ** 20)} MiB (${Math.round(filledAfterGc.rss / 2 ** 20)} MiB after GC)`);

    // Idle watchers first, on a heap that has only the cache fill behind it.
    const rv = (await api.client.expect('GET', `${collection}?limit=1`, [200])).json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
    const watchPath = `${collection}?watch=true&resourceVersion=${rv}`;
    // HTTP/1.1 first (at the first size only), each kind on memory the other has not freed.
    if (first && o.h1Watchers > 0) {
      const before = await steadyRss(api.pid);
      const h1 = await openH1Watches(api.url, api.client.creds, watchPath, o.h1Watchers);
      await sleep(1000);
      const after = await steadyRss(api.pid);
      result.h1WatchersOpen = h1.open;
      result.idleH1WatcherBytes = Math.round((after - before) / Math.max(1, h1.open));
      h1.close();
      await sleep(1000);
      o.log(`${n}: ${h1.open} HTTP/1.1 watchers idle: ${result.idleH1WatcherBytes} B each`);
    }
    const before = await afterGc(inspector, api);
    const firstFleet = await openH2Watches(api.url, api.client.creds, watchPath, o.watchers, o.streamsPerSession);
    await sleep(1000);
    const afterFirst = await afterGc(inspector, api);
    const idleH2WatcherFirstBytes = Math.round((afterFirst.rss - before.rss) / Math.max(1, firstFleet.open));
    firstFleet.close();
    await sleep(1000);
    const closed = await afterGc(inspector, api);
    const fleet = await openH2Watches(api.url, api.client.creds, watchPath, o.watchers, o.streamsPerSession);
    await sleep(1000);
    const after = await afterGc(inspector, api);
    const idleH2WatcherBytes = Math.round((after.rss - closed.rss) / Math.max(1, fleet.open));
    const idleH2WatcherHeapBytes = Math.round((after.heapUsed - closed.heapUsed) / Math.max(1, fleet.open));
    o.log(`${n}: ${fleet.open} HTTP/2 watchers idle: ${idleH2WatcherBytes} B RSS (${idleH2WatcherFirstBytes} B at the first opening), ${idleH2WatcherHeapBytes} B heap each`);
    const watchDelivery = await deliveries(api.client, fleet, o.updates, n * 1000);
    fleet.close();
    o.log(`${n}: ${watchDelivery.delivered}/${watchDelivery.expected} events delivered, p99 ${watchDelivery.p99Ms} ms`);

    // Lists last: their garbage (a 100k list is ~130 MiB of JSON) would swamp the watchers' RSS.
    let bytes = 0;
    const unpaged: number[] = [];
    for (let i = 0; i < 3; i++) {
      unpaged.push(
        await timed(async () => {
          const r = await api.client.expect('GET', collection, [200]);
          bytes = r.body.length;
        }),
      );
    }
    const pages: number[] = [];
    for (let i = 0; i < 5; i++) pages.push(await timed(() => api.client.expect('GET', `${collection}?limit=${o.pageSize}`, [200])));
    let walked = 0;
    const pagedWalkMs = await timed(async () => {
      walked = await pagedWalk(api.client, o.pageSize);
    });
    if (walked !== n) throw new Error(`paged walk at ${n}: ${walked} items`);
    const gets: number[] = [];
    for (let i = 0; i < 200; i++) gets.push(await timed(() => api.client.expect('GET', `${collection}/${objectName((Math.random() * n) | 0)}`, [200])));
    const g = percentiles(gets);
    o.log(`${n}: unpaged list ${Math.round(median(unpaged))} ms (${Math.round(bytes / 2 ** 20)} MiB), page ${round1(median(pages))} ms, paged walk ${Math.round(pagedWalkMs)} ms, GET p50 ${round1(g.p50)} ms`);
    // Every object has now been served as JSON (its memos are filled): what stays after GC.
    const servedAfterGc = await afterGc(inspector, api);
    // Last: the snapshot's own native memory would stay in RSS.
    const snapshot = await inspector.heapSnapshot();
    snapshots.set(n, snapshot);
    const mib = (b: number): string => (b / 2 ** 20).toFixed(0);
    o.log(`${n}: after lists and GETs, after GC: RSS ${mib(servedAfterGc.rss)} MiB, heap used ${mib(servedAfterGc.heapUsed)} MiB, array buffers ${mib(servedAfterGc.arrayBuffers)} MiB; heap snapshot ${mib(snapshot.bytes)} MiB`);

    return {
      objects: n,
      readyMs: Math.round(readyMs),
      cacheFilledMs: Math.round(cacheFilledMs),
      rssBytes: rss,
      unpagedListMs: round1(median(unpaged)),
      unpagedListBytes: bytes,
      pageMs: round1(median(pages)),
      pagedWalkMs: Math.round(pagedWalkMs),
      getMs: { p50: round1(g.p50), p99: round1(g.p99) },
      idleH2WatcherBytes,
      idleH2WatcherFirstBytes,
      idleH2WatcherHeapBytes,
      jsonItemBytes: Math.round(bytes / n),
      filledAfterGc,
      servedAfterGc,
      heapSnapshotBytes: snapshot.bytes,
      watchersOpen: fleet.open,
      watchDelivery,
    };
  } finally {
    inspector?.close();
    await api.stop();
  }
}

/** Growth from the smallest to the largest size against linear (×1.25 for noise) or flat (×2). */
/** Memory per object added from the smallest to the largest size (after the lists and GETs, after GC). */
export function perObjectMemory(points: readonly ScalePoint[], snapshots: ReadonlyMap<number, HeapSummary>): PerObjectMemory | undefined {
  if (points.length < 2) return undefined;
  const a = points[0];
  const b = points[points.length - 1];
  const k = b.objects - a.objects;
  const sa = snapshots.get(a.objects);
  const sb = snapshots.get(b.objects);
  return {
    jsonBytes: b.jsonItemBytes,
    rssBytes: Math.round((b.servedAfterGc.rss - a.servedAfterGc.rss) / k),
    heapAndBuffersBytes: Math.round((b.servedAfterGc.heapUsed + b.servedAfterGc.arrayBuffers - a.servedAfterGc.heapUsed - a.servedAfterGc.arrayBuffers) / k),
    heapSnapshotBytes: Math.round((b.heapSnapshotBytes - a.heapSnapshotBytes) / k),
    heapSnapshotGroups:
      sa && sb
        ? diffHeapSummaries(sa, sb, k)
            .slice(0, 12)
            .map((g) => ({ key: g.key, count: Math.round(g.count * 100) / 100, bytes: Math.round(g.bytes) }))
        : [],
  };
}

export function scaleChecks(points: readonly ScalePoint[], perObject?: PerObjectMemory): ScaleCheck[] {
  if (points.length < 2) return [];
  const a = points[0];
  const b = points[points.length - 1];
  const k = b.objects / a.objects;
  const growth = (name: string, f: (p: ScalePoint) => number, bound: number, what: string): ScaleCheck => {
    const r = f(b) / f(a);
    return { name, value: `×${r.toFixed(2)} for ×${k.toFixed(0)} objects`, target: `≤ ×${bound.toFixed(1)} (${what})`, met: r <= bound };
  };
  const checks = [
    growth('cache fill time', (p) => p.cacheFilledMs, k * 1.25, 'linear'),
    growth('RSS', (p) => p.rssBytes, k * 1.25, 'linear'),
    growth('unpaged list time', (p) => p.unpagedListMs, k * 1.25, 'linear'),
    growth('paged walk time', (p) => p.pagedWalkMs, k * 1.25, 'linear'),
    growth('one page of a paged list', (p) => p.pageMs, 2, 'independent of the total'),
    growth('GET p50', (p) => p.getMs.p50, 2, 'independent of the total'),
    growth('watch delivery p99', (p) => p.watchDelivery.p99Ms, k * 1.25, 'linear'),
  ];
  // Both must hold, after GC, at the second opening; the first opening's RSS is printed beside.
  const idle = b.idleH2WatcherBytes;
  const heap = b.idleH2WatcherHeapBytes;
  checks.push({
    name: 'idle HTTP/2 watcher (largest size), RSS and heap after GC',
    value: `${idle} B RSS (${b.idleH2WatcherFirstBytes} B at the first opening), ${heap} B heap`,
    target: '≤ 10240 B each',
    met: idle <= 10240 && heap <= 10240,
  });
  if (perObject) {
    const j = perObject.jsonBytes;
    const x = (bytes: number): string => `${bytes} B = ${(bytes / j).toFixed(2)}× the JSON (${j} B)`;
    const target = `≤ 3× JSON (${3 * j} B)`;
    checks.push({ name: 'memory per object, RSS after GC (after lists and GETs, growth per object added)', value: x(perObject.rssBytes), target, met: perObject.rssBytes <= 3 * j });
    checks.push({ name: 'memory per object, heap snapshot (same point)', value: x(perObject.heapSnapshotBytes), target, met: perObject.heapSnapshotBytes <= 3 * j });
  }
  return checks;
}

export function renderScaleTable(r: ScaleResult): string {
  const mib = (b: number): string => (b / 2 ** 20).toFixed(0);
  const rows = [
    ['objects', 'ready ms', 'cache filled ms', 'RSS MiB', 'RSS after GC MiB (filled / served)', 'heap + buffers after GC MiB (served)', 'heap snapshot MiB', 'unpaged list ms (MiB)', `page of ${r.options.pageSize} ms`, 'paged walk ms', 'GET p50/p99 ms', 'idle h2 watcher B RSS / first (heap)', 'watch p99 ms (delivered)'],
    ...r.points.map((p) => [
      String(p.objects),
      String(p.readyMs),
      String(p.cacheFilledMs),
      mib(p.rssBytes),
      `${mib(p.filledAfterGc.rss)} / ${mib(p.servedAfterGc.rss)}`,
      mib(p.servedAfterGc.heapUsed + p.servedAfterGc.arrayBuffers),
      mib(p.heapSnapshotBytes),
      `${p.unpagedListMs} (${mib(p.unpagedListBytes)})`,
      String(p.pageMs),
      String(p.pagedWalkMs),
      `${p.getMs.p50}/${p.getMs.p99}`,
      `${p.idleH2WatcherBytes} / ${p.idleH2WatcherFirstBytes} (${p.idleH2WatcherHeapBytes})`,
      `${p.watchDelivery.p99Ms} (${p.watchDelivery.delivered}/${p.watchDelivery.expected})`,
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (row: string[]): string => `| ${row.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  const out = [line(rows[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)];
  if (r.idleH1WatcherBytes !== undefined) out.push('', `HTTP/1.1 idle watcher (${r.h1WatchersOpen} watchers, one TLS connection each, at ${r.points[0]?.objects} objects): ${r.idleH1WatcherBytes} B`);
  out.push(
    '',
    'RSS MiB: right after the cache fill, no GC (heap high-water of the fill included). "served": after the lists and GETs, every object served as JSON. Idle watchers: growth after GC when opened a second time / the first time (which also grows pools once).',
  );
  const po = r.perObject;
  if (po) {
    out.push('', `Memory per object added (${r.points[0].objects} → ${r.points[r.points.length - 1].objects}), after lists and GETs, after GC; served JSON ${po.jsonBytes} B:`);
    out.push(`  RSS ${po.rssBytes} B (${(po.rssBytes / po.jsonBytes).toFixed(2)}×), V8 heap + array buffers ${po.heapAndBuffersBytes} B (${(po.heapAndBuffersBytes / po.jsonBytes).toFixed(2)}×), heap snapshot ${po.heapSnapshotBytes} B (${(po.heapSnapshotBytes / po.jsonBytes).toFixed(2)}×); by heap snapshot:`);
    for (const g of po.heapSnapshotGroups) out.push(`    ${String(g.bytes).padStart(6)} B  ${g.count.toFixed(2).padStart(5)} × ${g.key}`);
  }
  out.push('', 'Checks (smallest → largest size):');
  for (const c of r.checks) out.push(`  ${c.met ? 'met ' : 'MISS'}  ${c.name}: ${c.value} (target ${c.target})`);
  return out.join('\n');
}

function plot(r: ScaleResult): string {
  const s = (title: string, f: (p: ScalePoint) => number, linear = true): Series => ({ title, points: r.points.map((p) => ({ x: p.objects, y: f(p) })), linearReference: linear });
  return renderPlot('svc-apiserver scale run', [
    s('cache filled (ms)', (p) => p.cacheFilledMs),
    s('RSS (MiB)', (p) => p.rssBytes / 2 ** 20),
    s('RSS after lists, after GC (MiB)', (p) => p.servedAfterGc.rss / 2 ** 20),
    s('unpaged list (ms)', (p) => p.unpagedListMs),
    s(`one page of ${r.options.pageSize} (ms)`, (p) => p.pageMs, false),
    s('GET p50 (ms)', (p) => p.getMs.p50, false),
    s('watch delivery p99 (ms)', (p) => p.watchDelivery.p99Ms, false),
  ]);
}

/** Runs every size in ascending order on the cluster's etcd; writes JSON, the table and the SVG. */
export async function runScale(cluster: Cluster, o: ScaleOptions): Promise<ScaleResult> {
  const sizes = [...o.sizes].sort((a, b) => a - b);
  const { log: _log, out: _out, ...options } = o;
  const result: ScaleResult = { startedAt: new Date().toISOString(), options: { ...options, sizes }, points: [], checks: [] };
  const etcd = etcdClient(cluster.etcd.endpoint);
  const snapshots = new Map<number, HeapSummary>();
  try {
    await ensureNamespace(cluster.client, scaleNamespace);
    const templateName = objectName(0);
    await cluster.client.expect('POST', collection, [201], serviceAccount(templateName, o.pad));
    const template = await etcd.get(`/registry/serviceaccounts/${scaleNamespace}/${templateName}`).buffer();
    if (!template) throw new Error('cannot read the stored template object');
    let have = 1;
    for (const [i, n] of sizes.entries()) {
      o.log(`scale ${n}: filling etcd (${have} → ${n})`);
      await fill(etcd, template, templateName, have, n);
      have = n;
      result.points.push(await measureSize(cluster, o, n, i === 0, result, snapshots));
    }
  } catch (e) {
    result.error = (e as Error).stack ?? String(e);
    o.log(`scale run failed: ${result.error}`);
  } finally {
    etcd.close();
  }
  result.perObject = perObjectMemory(result.points, snapshots);
  result.checks = scaleChecks(result.points, result.perObject);
  mkdirSync(o.out, { recursive: true });
  const stamp = result.startedAt.replace(/[:.]/g, '-');
  writeFileSync(join(o.out, `scale-${stamp}.json`), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(join(o.out, 'scale-latest.json'), `${JSON.stringify(result, null, 2)}\n`);
  if (result.points.length) {
    writeFileSync(join(o.out, 'scale-latest.svg'), plot(result));
    writeFileSync(join(o.out, 'scale-latest.md'), `${renderScaleTable(result)}\n`);
  }
  return result;
}

export interface ScaleMainOptions extends Omit<ScaleOptions, 'log'> {
  timeLimitSeconds: number;
}

/** The whole --scale run: its own etcd and apiserver (startCluster), the sizes, the report; exit code. */
export async function scaleMain(o: ScaleMainOptions, start: () => Promise<Cluster>): Promise<number> {
  const t0 = Date.now();
  const log = (msg: string): void => {
    process.stderr.write(`[scale ${((Date.now() - t0) / 1000).toFixed(0).padStart(3)} s] ${msg}\n`);
  };
  let cluster: Cluster | undefined;
  const watchdog = setTimeout(() => {
    log(`time limit of ${o.timeLimitSeconds} s reached`);
    void (cluster?.stop() ?? Promise.resolve()).finally(() => process.exit(2));
  }, o.timeLimitSeconds * 1000);
  try {
    log(`starting etcd and svc-apiserver; sizes ${o.sizes.join(', ')}, ${o.watchers} watchers`);
    cluster = await start();
    const r = await runScale(cluster, { ...o, log });
    process.stdout.write(`\n${renderScaleTable(r)}\n\nJSON, table and plot: ${join(o.out, 'scale-latest.{json,md,svg}')}\n`);
    return r.error ? 1 : 0;
  } finally {
    clearTimeout(watchdog);
    await cluster?.stop();
  }
}
