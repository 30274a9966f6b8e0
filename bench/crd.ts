// The crd phase: custom resources of a realistic operator CRD (bench/crdObjects.ts) against a
// built-in kind on the same apiserver, in the same run, through the same load functions as the
// object and watch phases: creates, GETs, read-modify-write updates (median of alternating
// rounds, built-in then custom, then custom then built-in, …), full lists (unpaged, paged,
// resourceVersion=0) and watch fan-out. The built-in kind is ServiceAccounts padded (their
// annotation) to the custom resource's served JSON size, so both sides move and store the same
// bytes. Before those, the memory an object of each kind keeps after full GCs against its JSON
// size; after them, CRD install times (bench/crdInstall.ts). The targets: each
// custom-resource figure within 10% of the built-in one, memory ≤ 3× the JSON, 100 CRDs created
// at once Established ≤ 5 s.
import { performance } from 'node:perf_hooks';
import { awaitMallocTrim, mallocTrims, steadyRss } from './cluster';
import { crdName, crdsPath, benchCrdGroup, databaseCrd, databases } from './crdObjects';
import { awaitCrdUsable, runCrdInstall, type CrdInstallResult } from './crdInstall';
import type { HttpsClient } from './httpsClient';
import { Inspector, type MemoryUsage } from './inspector';
import { sleep, type LoadResult, type Pids } from './load';
import { serviceAccounts, type BenchKind } from './objects';
import { alternateOnServer, type Rounds } from './rounds';
import { ensureNamespace, serverCreates, serverGets, serverListOnce, serverLists, type ListMode, type ListOutcome } from './serverLoad';
import { serverUpdates } from './updates';
import { serverWatchers, type WatchOptions, type WatchResult } from './watchers';

export const crdNamespaces = { measured: 'bench-crd', warmup: 'bench-crd-warmup', watch: 'bench-crd-watch', memory: 'bench-crd-memory' } as const;

/** A custom resource's figure may be this much worse than the built-in one's (the 10%). */
export const crdTolerance = 0.1;
/** Retained memory per custom resource, as a multiple of its served JSON. */
export const crdMemoryTarget = 3;
/** CRDs created at once: all Established within (ms). */
export const crdBurstTargetMs = 5000;

export interface CrdOptions {
  client: HttpsClient;
  pids: Pids;
  /** The apiserver's node inspector, for full GCs before the memory figures. */
  inspectPort: number;
  objects: number;
  concurrency: number;
  rounds: number;
  /** Creates (listed once) per kind before the memory points: each kind's path has run before them. */
  warmupCreates: number;
  /** Creates and updates per kind after the memory points' full GCs, before anything is measured. */
  rewarmCreates: number;
  warmupSeconds: number;
  getSeconds: number;
  rmwUpdates: number;
  listIterations: number;
  pageSize: number;
  watch: Omit<WatchOptions, 'pad'>;
  /** Objects of each kind created between the memory phase's two after-GC points. */
  memoryObjects: number;
  /** CRDs installed one at a time, and as many again at once. */
  installCrds: number;
  installPollMs: number;
  log(msg: string): void;
}

export interface ByKind<T> {
  builtin: T;
  custom: T;
}

export interface RetainedMemory {
  objects: number;
  /** Served JSON per object: an unpaged list's bytes ÷ objects. */
  jsonBytes: number;
  /** RSS after full GCs (once the server's malloc_trim ran), growth ÷ objects. */
  rssPerObjectBytes: number;
  /** V8 heap used plus array buffers after full GCs, growth ÷ objects. */
  heapPerObjectBytes: number;
  before: MemoryUsage & { steadyRss: number };
  after: MemoryUsage & { steadyRss: number };
}

export interface CrdResult {
  crd: string;
  builtinKind: string;
  /** The padding annotation's length that gives a ServiceAccount the custom resource's JSON size. */
  builtinPad: number;
  /** One object as a GET serves it, each kind (before the measured updates add their label). */
  getJsonBytes: ByKind<number>;
  objects: number;
  pageSize: number;
  /** The bench CRD: create sent → Established, discovery and OpenAPI v3 answered (ms). */
  benchCrdServedMs: number;
  creates: ByKind<Rounds>;
  gets: ByKind<Rounds>;
  updates: ByKind<Rounds>;
  /** Rounds of one list each (the median list's time is its latency). */
  lists: Record<ListMode, ByKind<Rounds & ListOutcome>>;
  watch: ByKind<WatchResult>;
  memory: ByKind<RetainedMemory>;
  install: CrdInstallResult;
}

async function memoryPoint(o: CrdOptions): Promise<MemoryUsage & { steadyRss: number }> {
  const trims = await mallocTrims(o.client);
  const m = await Inspector.memoryAfterGcAt(o.inspectPort);
  await awaitMallocTrim(o.client, trims);
  return { ...m, steadyRss: await steadyRss(o.pids.apiserver) };
}

/** What `count` more objects of kind keep after full GCs, once each was created and served in a full list. */
async function retained(o: CrdOptions, kind: BenchKind, pad: number, count: number): Promise<RetainedMemory> {
  const before = await memoryPoint(o);
  const created = await serverCreates(o.client, o.pids, crdNamespaces.memory, 0, count, o.concurrency, pad, kind);
  if (created.errors) throw new Error(`memory: ${kind.name} create errors: ${created.firstError}`);
  const listed = await serverListOnce(o.client, crdNamespaces.memory, 'unpaged', true, o.pageSize, kind);
  if (listed.items !== count) throw new Error(`memory: listed ${listed.items} ${kind.name} objects, expected ${count}`);
  await sleep(1000);
  const after = await memoryPoint(o);
  return {
    objects: count,
    jsonBytes: Math.round(listed.bytes / count),
    rssPerObjectBytes: Math.round((after.steadyRss - before.steadyRss) / count),
    heapPerObjectBytes: Math.round((after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / count),
    before,
    after,
  };
}

function noErrors(what: string, x: ByKind<Rounds>): void {
  const bad = [...x.builtin.rounds, ...x.custom.rounds].find((r) => r.errors);
  if (bad) throw new Error(`${what} errors: ${bad.firstError}`);
}

export async function runCrd(o: CrdOptions): Promise<CrdResult> {
  const { client, pids, concurrency: C, objects: N, rounds: R } = o;
  for (const ns of Object.values(crdNamespaces)) await ensureNamespace(client, ns);

  o.log(`crd: installing ${crdName(benchCrdGroup)}`);
  const crdStart = performance.now();
  await client.expect('POST', crdsPath, [201], databaseCrd(benchCrdGroup, 'bench'));
  const usable = await awaitCrdUsable(client, benchCrdGroup, crdStart, { pollMs: o.installPollMs, timeoutSeconds: 60 });
  const benchCrdServedMs = Math.round(Math.max(usable.established, usable.discovery, usable.openapi) * 10) / 10;

  // The built-in objects' padding: a ServiceAccount's JSON grows by exactly its annotation's length.
  const probe = async (kind: BenchKind, pad: number): Promise<number> => {
    await client.expect('POST', kind.collection(crdNamespaces.warmup), [201], kind.object('size-probe', pad));
    const size = (await client.expect('GET', `${kind.collection(crdNamespaces.warmup)}/size-probe`, [200])).body.length;
    await client.expect('DELETE', `${kind.collection(crdNamespaces.warmup)}/size-probe`, [200]);
    return size;
  };
  const customBytes = await probe(databases, 0);
  const builtinPad = Math.max(0, customBytes - (await probe(serviceAccounts, 0)));
  const builtinBytes = await probe(serviceAccounts, builtinPad);
  const pad: ByKind<number> = { builtin: builtinPad, custom: 0 };
  const kinds: ByKind<BenchKind> = { builtin: serviceAccounts, custom: databases };
  o.log(`crd: a ${databases.name} is ${customBytes} B of JSON; ServiceAccounts padded by ${builtinPad} B to ${builtinBytes} B`);

  // Each kind's write and list paths run once before the memory points, so their one-time growth
  // (compiled code, the first objects of a watch cache) is not counted per object.
  const W0 = o.warmupCreates;
  o.log(`crd: warm-up of each kind: ${W0} creates and a list`);
  for (const k of ['builtin', 'custom'] as const) {
    const c = await serverCreates(client, pids, crdNamespaces.warmup, 0, W0, C, pad[k], kinds[k]);
    if (c.errors) throw new Error(`crd warm-up: ${kinds[k].name} create errors: ${c.firstError}`);
    await serverListOnce(client, crdNamespaces.warmup, 'unpaged', false, o.pageSize, kinds[k]);
  }

  const M = o.memoryObjects;
  // Before the measured load raises the heap's high-water mark (RSS a later full GC does not always
  // give back, which new objects would then fill without growing RSS).
  o.log(`crd: memory: ${M} objects of each kind between two points after full GCs`);
  const memory: ByKind<RetainedMemory> = {
    custom: await retained(o, kinds.custom, pad.custom, M),
    builtin: await retained(o, kinds.builtin, pad.builtin, M),
  };
  o.log(`crd: memory per ${databases.name}: ${memory.custom.rssPerObjectBytes} B RSS for ${memory.custom.jsonBytes} B of JSON (ServiceAccount: ${memory.builtin.rssPerObjectBytes} B for ${memory.builtin.jsonBytes} B)`);

  // The memory points' full GCs drop optimized code (V8's last-resort GCs): the paths are compiled
  // again on more warm-up objects before anything is measured, as the object phases' re-warm does.
  const W = o.rewarmCreates;
  const warmed = W0 + W;
  o.log(`crd: re-warm of each kind: ${W} creates, ${o.warmupSeconds} s of GETs, ${warmed} updates`);
  for (const k of ['builtin', 'custom'] as const) {
    const ns = crdNamespaces.warmup;
    const c = await serverCreates(client, pids, ns, W0, W, C, pad[k], kinds[k]);
    if (c.errors) throw new Error(`crd re-warm: ${kinds[k].name} create errors: ${c.firstError}`);
    await serverGets(client, pids, ns, warmed, C, o.warmupSeconds, kinds[k]);
    await serverUpdates(client, pids, ns, warmed, 0, warmed, C, kinds[k]);
  }

  const both = async (run: (kind: BenchKind, pad: number, round: number) => Promise<LoadResult>, rounds = R): Promise<ByKind<Rounds>> => {
    const x = await alternateOnServer(
      rounds,
      (r) => run(kinds.builtin, pad.builtin, r),
      (r) => run(kinds.custom, pad.custom, r),
    );
    return { builtin: x.a, custom: x.b };
  };
  const ns = crdNamespaces.measured;
  const first = (r: number): number => Math.floor((r * N) / R);
  o.log(`crd: creates: ${N} of each kind in ${R} alternating rounds, ${C} in flight`);
  const creates = await both((kind, p, r) => serverCreates(client, pids, ns, first(r), first(r + 1) - first(r), C, p, kind));
  noErrors('crd creates', creates);

  o.log(`crd: GETs: an unmeasured round per kind, then ${R} alternating rounds of ${o.getSeconds} s`);
  for (const k of ['builtin', 'custom'] as const) await serverGets(client, pids, ns, N, C, o.warmupSeconds, kinds[k]);
  const gets = await both((kind) => serverGets(client, pids, ns, N, C, o.getSeconds, kind));
  noErrors('crd GETs', gets);

  const U = o.rmwUpdates;
  o.log(`crd: read-modify-write updates: a warm-up round of ${U} per kind, then ${R} alternating rounds of ${U}`);
  for (const k of ['builtin', 'custom'] as const) await serverUpdates(client, pids, ns, N, R * U, U, C, kinds[k]);
  const updates = await both((kind, _p, r) => serverUpdates(client, pids, ns, N, r * U, U, C, kind));
  noErrors('crd updates', updates);

  // Each list alone is a round: built-in and custom take turns, list by list; the median list is reported.
  const lists = {} as CrdResult['lists'];
  for (const mode of ['unpaged', 'paged', 'rv0'] as ListMode[]) {
    o.log(`crd: lists ${mode}: 1 checked per kind, then ${o.listIterations} alternating`);
    const check = async (kind: BenchKind): Promise<ListOutcome> => {
      const c = await serverListOnce(client, ns, mode, true, o.pageSize, kind);
      if (c.items !== N) throw new Error(`crd list ${mode}: ${kind.name}: ${c.items} items, expected ${N}`);
      return c;
    };
    const outcome: ByKind<ListOutcome> = { builtin: await check(kinds.builtin), custom: await check(kinds.custom) };
    const x = await both((kind) => serverLists(client, pids, ns, mode, 1, o.pageSize, kind), o.listIterations);
    lists[mode] = { builtin: { ...x.builtin, ...outcome.builtin }, custom: { ...x.custom, ...outcome.custom } };
  }

  const wo = (p: number): WatchOptions => ({ ...o.watch, pad: p });
  o.log(`crd: watch: ${o.watch.watchers} HTTPS watchers, ${o.watch.updates} merge-patches at ${o.watch.rate}/s, per kind`);
  const watch: ByKind<WatchResult> = {
    builtin: await serverWatchers(client, pids, wo(pad.builtin), undefined, { namespace: crdNamespaces.watch, kind: kinds.builtin }),
    custom: await serverWatchers(client, pids, wo(pad.custom), undefined, { namespace: crdNamespaces.watch, kind: kinds.custom }),
  };

  const install = await runCrdInstall({ client, crds: o.installCrds, pollMs: o.installPollMs, timeoutSeconds: 120, log: o.log });

  return {
    crd: `${crdName(benchCrdGroup)} (${databases.name}, namespaced)`,
    builtinKind: `${serviceAccounts.name} padded to the same JSON size`,
    builtinPad,
    getJsonBytes: { builtin: builtinBytes, custom: customBytes },
    objects: N,
    pageSize: o.pageSize,
    benchCrdServedMs,
    creates,
    gets,
    updates,
    lists,
    watch,
    memory,
    install,
  };
}

export interface CrdTarget {
  name: string;
  target: string;
  value: string;
  met: boolean;
}

/** custom ÷ built-in for a figure where more is better (throughput). */
const higher = (name: string, builtin: number, custom: number): CrdTarget => {
  const x = custom / builtin;
  return { name, target: `≥ ${1 - crdTolerance} × built-in`, value: `${x.toFixed(3)} × built-in`, met: x >= 1 - crdTolerance };
};

/** custom ÷ built-in for a figure where less is better (latency). */
const lower = (name: string, builtin: number, custom: number): CrdTarget => {
  const x = custom / builtin;
  return { name, target: `≤ ${1 + crdTolerance} × built-in`, value: `${x.toFixed(3)} × built-in`, met: x <= 1 + crdTolerance };
};

export function crdTargets(r: CrdResult): CrdTarget[] {
  const t: CrdTarget[] = [
    higher('custom resources: creates/s', r.creates.builtin.opsPerSec, r.creates.custom.opsPerSec),
    higher('custom resources: GETs/s', r.gets.builtin.opsPerSec, r.gets.custom.opsPerSec),
    higher('custom resources: updates/s (GET + PUT)', r.updates.builtin.opsPerSec, r.updates.custom.opsPerSec),
  ];
  for (const mode of ['unpaged', 'paged', 'rv0'] as const) t.push(lower(`custom resources: ${listLabel(mode, r)} median ms`, r.lists[mode].builtin.latencyMs.p50, r.lists[mode].custom.latencyMs.p50));
  t.push(lower('custom resources: watch delivery p99', r.watch.builtin.latencyMs.p99, r.watch.custom.latencyMs.p99));
  t.push({ name: 'custom resources: watch events lost', target: '0', value: String(r.watch.custom.lost), met: r.watch.custom.lost === 0 });
  const m = r.memory.custom;
  const x = m.rssPerObjectBytes / m.jsonBytes;
  t.push({ name: 'memory per custom resource, retained (RSS after GC)', target: `≤ ${crdMemoryTarget} × JSON`, value: `${x.toFixed(3)} × ${m.jsonBytes} B`, met: x <= crdMemoryTarget });
  const b = r.install.burst;
  t.push({ name: `${b.crds} CRDs created at once: all Established`, target: `≤ ${crdBurstTargetMs} ms`, value: `${b.allEstablishedMs} ms`, met: b.allEstablishedMs <= crdBurstTargetMs });
  return t;
}

const listLabel = (mode: ListMode, r: CrdResult): string => (mode === 'unpaged' ? 'unpaged list' : mode === 'paged' ? `paged list (limit ${r.pageSize})` : 'resourceVersion=0 list');

/** The side-by-side table: built-in, custom, custom ÷ built-in, target, met. */
export function renderCrd(r: CrdResult, targets: readonly CrdTarget[], table: (rows: string[][]) => string): string {
  const rows: string[][] = [['measurement', 'built-in', 'custom resource', 'custom ÷ built-in', 'target', 'met']];
  const tgt = (name: string): [string, string] => {
    const t = targets.find((x) => x.name === name);
    return t ? [t.target, t.met ? 'yes' : 'NO'] : ['', ''];
  };
  // Ratios to 4 decimals; figures as measured (CPU sums only rid of float noise: ticks are 10 ms).
  const ratio = (b: number, c: number): string => (b === 0 ? '' : (c / b).toFixed(4));
  const row = (label: string, b: number, c: number, target = ''): void => {
    rows.push([label, String(b), String(c), ratio(b, c), ...(target ? tgt(target) : ['', ''])]);
  };
  const rounds = (label: string, one: string, x: ByKind<Rounds>, target: string): void => {
    row(`${label}/s (median of ${x.builtin.rounds.length} rounds, ${x.builtin.ops} each)`, x.builtin.opsPerSec, x.custom.opsPerSec, target);
    row(`  ${one} latency p50 ms`, x.builtin.latencyMs.p50, x.custom.latencyMs.p50);
    row(`  ${one} latency p99 ms`, x.builtin.latencyMs.p99, x.custom.latencyMs.p99);
    row(`  apiserver CPU ms per ${one} (median over rounds)`, x.builtin.cpuMsPerOp, x.custom.cpuMsPerOp);
    rows.push([`  ${label}/s per round`, x.builtin.rounds.map((y) => y.opsPerSec).join(', '), x.custom.rounds.map((y) => y.opsPerSec).join(', '), '', '', '']);
  };
  rounds('creates', 'create', r.creates, 'custom resources: creates/s');
  rounds('GETs', 'GET', r.gets, 'custom resources: GETs/s');
  rounds('updates', 'update (GET + PUT)', r.updates, 'custom resources: updates/s (GET + PUT)');
  for (const mode of ['unpaged', 'paged', 'rv0'] as const) {
    const l = r.lists[mode];
    const name = `custom resources: ${listLabel(mode, r)} median ms`;
    row(`${listLabel(mode, r)} of ${l.builtin.items}: median ms (${l.builtin.rounds.length} lists each, alternating)`, l.builtin.latencyMs.p50, l.custom.latencyMs.p50, name);
    row(`  ${listLabel(mode, r)}: bytes`, l.builtin.bytes, l.custom.bytes);
    // One list is about one 10 ms CPU tick: the CPU over all of them ÷ their number.
    const cpuPerList = (x: Rounds): number => Math.round((x.rounds.reduce((a, y) => a + y.cpu.apiserver, 0) * 1e6) / x.rounds.length) / 1000;
    row(`  ${listLabel(mode, r)}: apiserver CPU ms per list (all lists)`, cpuPerList(l.builtin), cpuPerList(l.custom));
  }
  const w = r.watch;
  row(`watch, ${w.builtin.watchers} watchers × ${w.builtin.updates} updates at ${w.builtin.ratePerSec}/s: delivery p99 ms`, w.builtin.latencyMs.p99, w.custom.latencyMs.p99, 'custom resources: watch delivery p99');
  row('  delivery p50 ms', w.builtin.latencyMs.p50, w.custom.latencyMs.p50);
  row('  events lost', w.builtin.lost, w.custom.lost, 'custom resources: watch events lost');
  row('  apiserver CPU s over the fan-out', w.builtin.cpu.apiserver, w.custom.cpu.apiserver);
  const m = r.memory;
  row(`memory: RSS per object after GC, B (${m.custom.objects} objects each)`, m.builtin.rssPerObjectBytes, m.custom.rssPerObjectBytes, 'memory per custom resource, retained (RSS after GC)');
  row('  served JSON per object, B', m.builtin.jsonBytes, m.custom.jsonBytes);
  row('  RSS per object ÷ JSON', m.builtin.rssPerObjectBytes / m.builtin.jsonBytes, m.custom.rssPerObjectBytes / m.custom.jsonBytes);
  row('  V8 heap + array buffers per object after GC, B', m.builtin.heapPerObjectBytes, m.custom.heapPerObjectBytes);
  row('  V8 heap + array buffers per object ÷ JSON', m.builtin.heapPerObjectBytes / m.builtin.jsonBytes, m.custom.heapPerObjectBytes / m.custom.jsonBytes);
  let out = `Custom resources: ${r.crd} against ${r.builtinKind} (+${r.builtinPad} B annotation; GET JSON ${r.getJsonBytes.builtin} B vs ${r.getJsonBytes.custom} B), ${r.objects} of each, same apiserver, alternating rounds:\n`;
  out += table(rows);
  const s = r.install.sequential;
  const b = r.install.burst;
  const pct = (x: { p50: number; p99: number; max: number }): string => `${x.p50} / ${x.p99} / ${x.max}`;
  out += `\n\nCRD install (polled every ${r.install.pollMs} ms; each CRD its own group; the bench CRD itself: ${r.benchCrdServedMs} ms):\n`;
  out += table([
    ['', 'p50 / p99 / max ms', 'target', 'met'],
    [`${s.crds} CRDs one at a time: create → Established`, pct(s.establishedMs), '', ''],
    ['  create → discovery /apis/<group>/<version> 200', pct(s.discoveryMs), '', ''],
    ['  create → /openapi/v3/apis/<group>/<version> 200', pct(s.openapiMs), '', ''],
    ['  create → all three', pct(s.servedMs), '', ''],
    [`${b.crds} more created at once: every create answered`, String(b.createdMs), '', ''],
    ['  all Established', String(b.allEstablishedMs), ...tgt(`${b.crds} CRDs created at once: all Established`)],
    ['  all Established, in discovery and OpenAPI v3', String(b.allServedMs), '', ''],
  ]);
  out += `\n  ${r.install.installedAtEnd} CRDs installed at the end`;
  return out;
}
