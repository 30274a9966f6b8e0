// The results document (written as JSON) and the side-by-side table printed at the end.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuthzResult } from './authz';
import type { CsrResult } from './csr';
import { crdTargets, renderCrd, type CrdResult } from './crd';
import { fieldTrackingTargets, renderFieldTracking, type FieldTrackingResult } from './fieldTracking';
import { formats, maxSlowdownVsJson, type FormatsResult } from './formats';
import type { PoliciesResult } from './policies';
import type { HostileRegexResult } from './hostileRegex';
import type { StartupResult } from './startup';
import type { LoadResult, CpuUse } from './load';
import type { Machine } from './machine';
import type { MemoryUsage } from './inspector';
import type { Rounds } from './rounds';
import type { ListOutcome } from './serverLoad';
import type { WatchResult } from './watchers';

export type ListResult = LoadResult & ListOutcome;

export interface MemoryPerObject {
  objects: number;
  /** Average size of one object as served in a list (JSON bytes). */
  objectJsonBytes: number;
  /** Size of one stored value in etcd (JSON without resourceVersion). */
  storedValueBytes: number;
  rssBeforeBytes: number;
  rssAfterCreatesBytes: number;
  rssAfterBytes: number;
  perObjectBytes: number;
  heapUsedBeforeBytes: number;
  heapUsedAfterBytes: number;
  heapPerObjectBytes: number;
  etcdPerObjectBytes: number;
  /** RSS after full GCs (through the inspector) before the creates and after the lists. */
  rssAfterGcBeforeBytes: number;
  rssAfterGcAfterBytes: number;
  /** RSS growth between those two points ÷ N: what the objects and their memos keep. */
  retainedRssPerObjectBytes: number;
  /** V8 heap used plus array buffers (the stored values), after GC, growth ÷ N. */
  retainedHeapPerObjectBytes: number;
  /** process.memoryUsage() of the server at the two points after full GCs (heapTotal: what V8 keeps committed). */
  memoryAfterGc?: { before: MemoryUsage; after: MemoryUsage };
  /** The server's malloc_trim calls after full GCs and their time, over its life (absent without the module). */
  mallocTrims?: { calls: number; seconds: number };
  /** What the number is, in words. */
  note: string;
}

export interface Results {
  startedAt: string;
  durationSeconds: number;
  environment: { node: string; cpus: number; etcd: string; etcdDataDir: string; machine: Machine; apiserverRevision?: string };
  config: Record<string, number | string | boolean>;
  /** Medians of alternating rounds (every round inside). */
  creates?: { server: Rounds; etcd: Rounds };
  gets?: { server: Rounds; etcd: Rounds };
  /** Read-modify-write: GET then PUT (server), range then compare-mod-revision txn (etcd). */
  updates?: { server: Rounds; etcd: Rounds };
  bareHttpGets?: { server: LoadResult; bare: LoadResult };
  lists?: Record<'unpaged' | 'paged' | 'rv0', { server: ListResult; etcd: ListResult }>;
  /** GET and full-list passes per response format (JSON, Protobuf, CBOR). */
  formats?: FormatsResult;
  memoryPerObject?: MemoryPerObject;
  watch?: { server: WatchResult; etcd: WatchResult };
  /** A non-masters user's GETs: RBAC vs a second apiserver with AlwaysAllow. */
  authz?: AuthzResult;
  /** Certificate issuance through svc-controller-manager, and CsrSigner.sign in-process. */
  csr?: CsrResult;
  /** managedFields on every write vs the previous release; the apply round trip. */
  fieldTracking?: FieldTrackingResult;
  /** Creates with 0, 10 and 100 bound admission policies. */
  policies?: PoliciesResult;
  /** /livez idle and under creates carrying a regex-hostile value. */
  hostileRegex?: HostileRegexResult;
  /** Custom resources beside a built-in kind of the same size, their memory, CRD install times. */
  crd?: CrdResult;
  /** Time to ready: --ephemeral, the in-process test server, etcd + server; envtest's published figures. */
  startup?: StartupResult;
  targets?: Target[];
  error?: string;
}

export interface Target {
  name: string;
  target: string;
  value: string;
  met: boolean;
}

/** Issue 14's budgets of apiserver CPU per operation (ms), as measured by the bench. */
export const cpuTargetsMs = { create: 0.16, get: 0.08, update: 0.3 } as const;

const cpuTarget = (op: keyof typeof cpuTargetsMs, x: Rounds): Target => ({
  name: `apiserver CPU per ${op === 'update' ? 'update (GET + PUT)' : op}`,
  target: `≤ ${cpuTargetsMs[op]} ms`,
  value: `${x.cpuMsPerOp.toFixed(3)} ms`,
  met: x.cpuMsPerOp <= cpuTargetsMs[op],
});

export function evaluateTargets(r: Results): Target[] {
  const t: Target[] = [];
  const ratio = (a: number, b: number): number => a / b;
  if (r.creates) {
    const x = ratio(r.creates.server.opsPerSec, r.creates.etcd.opsPerSec);
    t.push({ name: 'creates/s vs etcd create-if-absent txns', target: '≥ 0.5 × etcd', value: `${x.toFixed(2)} × etcd`, met: x >= 0.5 });
    t.push(cpuTarget('create', r.creates.server));
  }
  if (r.gets) {
    const x = ratio(r.gets.server.opsPerSec, r.gets.etcd.opsPerSec);
    t.push({ name: 'GETs/s vs etcd get', target: '≥ 1 × etcd', value: `${x.toFixed(2)} × etcd`, met: x >= 1 });
    t.push(cpuTarget('get', r.gets.server));
  }
  if (r.updates) t.push(cpuTarget('update', r.updates.server));
  if (r.lists) {
    const x = ratio(r.lists.rv0.server.opsPerSec, r.lists.rv0.etcd.opsPerSec);
    t.push({ name: 'resourceVersion=0 lists/s vs etcd range', target: '≥ 1 × etcd', value: `${x.toFixed(2)} × etcd`, met: x >= 1 });
  }
  if (r.formats) t.push(...formatTargets(r.formats));
  if (r.watch) {
    const w = r.watch.server;
    t.push({ name: `${w.watchers} watchers: p99 delivery latency`, target: '≤ 100 ms', value: `${w.latencyMs.p99.toFixed(1)} ms`, met: w.latencyMs.p99 <= 100 });
    t.push({ name: `${w.watchers} watchers: events lost`, target: '0', value: String(w.lost), met: w.lost === 0 });
    // These watchers are HTTP/1.1, one TLS connection each (the scale run measures HTTP/2 streams).
    // The target is judged after GC only: without one, a collection in between can give a negative figure.
    const g = w.idle.afterGc;
    if (g) {
      t.push({ name: 'RSS per idle HTTP/1.1 watcher (own TLS connection), after GC', target: '≤ 10 KiB', value: kib(g.rssPerWatcherBytes), met: g.rssPerWatcherBytes > 0 && g.rssPerWatcherBytes <= 10 * 1024 });
      t.push({ name: 'heap per idle HTTP/1.1 watcher (own TLS connection), after GC', target: '≤ 10 KiB', value: kib(g.heapPerWatcherBytes), met: g.heapPerWatcherBytes > 0 && g.heapPerWatcherBytes <= 10 * 1024 });
    }
  }
  if (r.policies && Number.isFinite(r.policies.tenPoliciesPercent)) {
    const x = r.policies.tenPoliciesPercent;
    t.push({ name: '10 admission policies: apiserver CPU per create', target: '< 20% of a create', value: `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`, met: x < 20 });
  }
  if (r.memoryPerObject) {
    const m = r.memoryPerObject;
    const x = (bytes: number): number => bytes / m.objectJsonBytes;
    const value = (bytes: number): string => `${x(bytes).toFixed(2)} × ${m.objectJsonBytes} B`;
    t.push({ name: 'memory per stored object, retained (RSS after GC, after a full list)', target: '≤ 3 × JSON size', value: value(m.retainedRssPerObjectBytes), met: x(m.retainedRssPerObjectBytes) <= 3 });
    t.push({ name: 'memory per stored object, retained (V8 heap + array buffers after GC)', target: '≤ 3 × JSON size', value: value(m.retainedHeapPerObjectBytes), met: x(m.retainedHeapPerObjectBytes) <= 3 });
  }
  if (r.fieldTracking) t.push(...fieldTrackingTargets(r.fieldTracking));
  if (r.crd) t.push(...crdTargets(r.crd));
  return t;
}

/** Each binary format's GET and list p50 against JSON's: at most 20% slower. */
function formatTargets(f: FormatsResult): Target[] {
  const json = f.results.JSON;
  if (!json) return [];
  const out: Target[] = [];
  for (const { name } of formats) {
    const r = f.results[name];
    if (!r || name === 'JSON') continue;
    for (const pass of ['get', 'list'] as const) {
      const x = r[pass].latencyMs.p50 / json[pass].latencyMs.p50;
      out.push({
        name: `${name} ${pass === 'get' ? 'GET' : `list of ${f.objects}`}: p50 ms vs JSON`,
        target: `≤ ${maxSlowdownVsJson} × JSON`,
        value: `${x.toFixed(2)} × JSON`,
        met: x <= maxSlowdownVsJson,
      });
    }
  }
  return out;
}

/** Bytes and ms per pass in each format, with the ≤ 20%-slower target beside each binary figure. */
function formatsTable(r: Results): string {
  const f = r.formats!;
  const rows: string[][] = [
    ['format', 'GET bytes', 'GET p50 ms', 'GETs/s', 'srv CPU µs/GET', 'GET vs JSON', 'met', `list ${f.objects} bytes`, 'list p50 ms', 'srv CPU ms/list', 'list vs JSON', 'met'],
  ];
  const cpuPer = (p: { cpu: { apiserver: number }; ops: number }, scale: number): string => (p.ops ? ((p.cpu.apiserver / p.ops) * scale).toFixed(scale === 1e6 ? 0 : 1) : '');
  const json = f.results.JSON;
  for (const { name } of formats) {
    const x = f.results[name];
    if (!x) continue;
    const cmp = (pass: 'get' | 'list'): [string, string] => {
      if (name === 'JSON' || !json) return ['', ''];
      const ratio = x[pass].latencyMs.p50 / json[pass].latencyMs.p50;
      return [`${ratio.toFixed(2)} ×`, ratio <= maxSlowdownVsJson ? 'yes' : 'NO'];
    };
    rows.push([
      name,
      String(x.get.bytes),
      String(x.get.latencyMs.p50),
      num(x.get.opsPerSec),
      cpuPer(x.get, 1e6),
      ...cmp('get'),
      String(x.list.bytes),
      String(x.list.latencyMs.p50),
      cpuPer(x.list, 1e3),
      ...cmp('list'),
    ]);
  }
  return `Response formats (same objects; target: each binary format ≤ ${maxSlowdownVsJson} × JSON's p50 ms):\n${table(rows)}`;
}

const kib = (b: number): string => `${(b / 1024).toFixed(1)} KiB`;
const num = (x: number): string => (x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(1));

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]): string => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
  const sep = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(rows[0]), sep, ...rows.slice(1).map(line)].join('\n');
}

const cpuCell = (c: CpuUse): string => `${c.apiserver.toFixed(1)}/${c.etcd.toFixed(1)}/${c.bench.toFixed(1)}`;

export function renderTable(r: Results): string {
  const rows: string[][] = [['measurement', 'svc-apiserver', 'etcd (etcd3)', 'srv ÷ etcd', 'target', 'met']];
  const targetFor = (name: string): [string, string] => {
    const t = r.targets?.find((x) => x.name === name);
    return t ? [t.target, t.met ? 'yes' : 'NO'] : ['', ''];
  };
  const cpuRows: string[][] = [['measurement (CPU seconds: apiserver/etcd/bench)', 'svc-apiserver run', 'etcd run']];
  // Median round; the CPU row is each side's own process per op (apiserver / etcd), median over rounds.
  const cpuPerOpRow = (label: string, s: Rounds, e: Rounds, op: keyof typeof cpuTargetsMs): string[] => [
    `  ${label}: CPU per op, apiserver / etcd (ms; rounds ${s.roundsCpuMsPerOp.join(', ')}${s.workerCpuMsPerOp === undefined ? '' : `; off the main thread ${s.workerCpuMsPerOp.toFixed(3)}`})`,
    s.cpuMsPerOp.toFixed(3),
    e.cpuMsPerOp.toFixed(3),
    '',
    ...targetFor(cpuTarget(op, s).name),
  ];
  const rates = (x: Rounds): string => x.rounds.map((y) => num(y.opsPerSec)).join(', ');
  if (r.creates) {
    const { server: s, etcd: e } = r.creates;
    rows.push([`creates/s (${r.config.concurrency} in flight, ${s.rounds.length} rounds of ~${s.ops})`, num(s.opsPerSec), num(e.opsPerSec), (s.opsPerSec / e.opsPerSec).toFixed(2), ...targetFor('creates/s vs etcd create-if-absent txns')]);
    rows.push(['  create latency p50 / p99 (ms)', `${s.latencyMs.p50} / ${s.latencyMs.p99}`, `${e.latencyMs.p50} / ${e.latencyMs.p99}`, '', '', '']);
    rows.push(cpuPerOpRow('create', s, e, 'create'));
    rows.push(['  creates/s per round', rates(s), rates(e), '', '', '']);
    cpuRows.push(['creates (median round)', cpuCell(s.cpu), cpuCell(e.cpu)]);
  }
  if (r.gets) {
    const { server: s, etcd: e } = r.gets;
    rows.push([`GETs/s (${r.config.concurrency} in flight, ${s.rounds.length} rounds of ${r.config.getSeconds} s)`, num(s.opsPerSec), num(e.opsPerSec), (s.opsPerSec / e.opsPerSec).toFixed(2), ...targetFor('GETs/s vs etcd get')]);
    rows.push(['  GET latency p50 / p99 (ms)', `${s.latencyMs.p50} / ${s.latencyMs.p99}`, `${e.latencyMs.p50} / ${e.latencyMs.p99}`, '', '', '']);
    rows.push(cpuPerOpRow('GET', s, e, 'get'));
    rows.push(['  GETs/s per round', rates(s), rates(e), '', '', '']);
    cpuRows.push(['GETs (median round)', cpuCell(s.cpu), cpuCell(e.cpu)]);
  }
  if (r.updates) {
    const { server: s, etcd: e } = r.updates;
    rows.push([`read-modify-write updates/s (${r.config.concurrency} in flight, ${s.rounds.length} rounds of ${s.ops})`, num(s.opsPerSec), num(e.opsPerSec), (s.opsPerSec / e.opsPerSec).toFixed(2), '', '']);
    rows.push(['  update latency p50 / p99 (ms)', `${s.latencyMs.p50} / ${s.latencyMs.p99}`, `${e.latencyMs.p50} / ${e.latencyMs.p99}`, '', '', '']);
    rows.push(cpuPerOpRow('update (GET + PUT)', s, e, 'update'));
    rows.push(['  updates/s per round', rates(s), rates(e), '', '', '']);
    cpuRows.push(['updates (median round)', cpuCell(s.cpu), cpuCell(e.cpu)]);
  }
  if (r.lists) {
    const names = { unpaged: 'unpaged', paged: `paged limit=${r.config.pageSize}`, rv0: 'resourceVersion=0' } as const;
    for (const mode of ['unpaged', 'paged', 'rv0'] as const) {
      const { server: s, etcd: e } = r.lists[mode];
      const t = mode === 'rv0' ? targetFor('resourceVersion=0 lists/s vs etcd range') : ['', ''];
      rows.push([`list ${s.items} objects ${names[mode]}: lists/s (p50 ms)`, `${num(s.opsPerSec)} (${s.latencyMs.p50})`, `${num(e.opsPerSec)} (${e.latencyMs.p50})`, (s.opsPerSec / e.opsPerSec).toFixed(2), ...t]);
      cpuRows.push([`list ${names[mode]} ×${s.ops}`, cpuCell(s.cpu), cpuCell(e.cpu)]);
    }
  }
  if (r.watch) {
    const { server: s, etcd: e } = r.watch;
    const head = `${s.watchers} watchers × ${s.updates} updates @${s.ratePerSec}/s`;
    rows.push([`${head}: delivery p50 (ms)`, s.latencyMs.p50.toFixed(1), e.latencyMs.p50.toFixed(1), (s.latencyMs.p50 / e.latencyMs.p50).toFixed(2), '', '']);
    rows.push([`${head}: delivery p99 (ms)`, s.latencyMs.p99.toFixed(1), e.latencyMs.p99.toFixed(1), (s.latencyMs.p99 / e.latencyMs.p99).toFixed(2), ...targetFor(`${s.watchers} watchers: p99 delivery latency`)]);
    rows.push([`${head}: delivery max (ms)`, s.latencyMs.max.toFixed(1), e.latencyMs.max.toFixed(1), (s.latencyMs.max / e.latencyMs.max).toFixed(2), '', '']);
    rows.push([`${head}: events lost (of ${s.expected})`, String(s.lost), String(e.lost), '', ...targetFor(`${s.watchers} watchers: events lost`)]);
    rows.push([`  write latency p50 / p99 (ms)`, `${s.writeLatencyMs.p50} / ${s.writeLatencyMs.p99}`, `${e.writeLatencyMs.p50} / ${e.writeLatencyMs.p99}`, '', '', '']);
    rows.push([
      `RSS per idle watcher without GC (${s.idle.process} / etcd process)`,
      kib(s.idle.perWatcherBytes),
      kib(e.idle.perWatcherBytes),
      s.idle.perWatcherBytes > 0 && e.idle.perWatcherBytes > 0 ? (s.idle.perWatcherBytes / e.idle.perWatcherBytes).toFixed(2) : '',
      '',
      '',
    ]);
    const g = s.idle.afterGc;
    if (g) {
      rows.push(['  RSS per idle HTTP/1.1 watcher, after GC', kib(g.rssPerWatcherBytes), '', '', ...targetFor('RSS per idle HTTP/1.1 watcher (own TLS connection), after GC')]);
      rows.push(['  heap + array buffers per idle HTTP/1.1 watcher, after GC', kib(g.heapPerWatcherBytes), '', '', ...targetFor('heap per idle HTTP/1.1 watcher (own TLS connection), after GC')]);
      const f = s.idle.firstOpeningAfterGc;
      if (f) rows.push(['  the first opening of as many on this process: RSS / heap, after GC', `${kib(f.rssPerWatcherBytes)} / ${kib(f.heapPerWatcherBytes)}`, '', '', '', '']);
      const b = s.idle.bareAfterGc;
      if (b) {
        rows.push(["  bare node:https (Node's floor), second opening: RSS / heap, after GC", `${kib(b.second.rssPerWatcherBytes)} / ${kib(b.second.heapPerWatcherBytes)}`, '', '', '', '']);
        rows.push(["  bare node:https, first opening: RSS / heap, after GC", `${kib(b.first.rssPerWatcherBytes)} / ${kib(b.first.heapPerWatcherBytes)}`, '', '', '', '']);
      }
    }
    cpuRows.push([`watch fan-out (${s.watchers * s.updates} events)`, cpuCell(s.cpu), cpuCell(e.cpu)]);
  }
  if (r.memoryPerObject) {
    const m = r.memoryPerObject;
    const of = (bytes: number): string => `${bytes} B (${(bytes / m.objectJsonBytes).toFixed(2)}×)`;
    rows.push([`memory per stored object, retained: RSS after GC (JSON ${m.objectJsonBytes} B)`, of(m.retainedRssPerObjectBytes), '', '', ...targetFor('memory per stored object, retained (RSS after GC, after a full list)')]);
    rows.push(['  retained: V8 heap + array buffers after GC', of(m.retainedHeapPerObjectBytes), '', '', ...targetFor('memory per stored object, retained (V8 heap + array buffers after GC)')]);
    // The figure reported before: peak, not retention (no target of its own).
    rows.push(['  RSS growth per object without GC (load phases\' heap high-water included)', of(m.perObjectBytes), `${m.etcdPerObjectBytes} B`, '', '', '']);
    rows.push(['  apiserver heap-used growth per object, no GC', `${m.heapPerObjectBytes} B`, '', '', '', '']);
    const t = m.mallocTrims;
    rows.push(['  malloc_trim after full GCs (cmd/freedMemory.ts)', t ? `${t.calls} calls, ${(t.seconds * 1000).toFixed(1)} ms in all` : 'not built', '', '', '', '']);
  }
  const m = r.environment.machine;
  let out = `${m.cpuModel}, ${m.cpus} cores, ${(m.memoryBytes / 2 ** 30).toFixed(1)} GiB, Linux ${m.kernel}; node ${r.environment.node}; ${r.environment.etcd}; commit ${m.commit.slice(0, 12)}${m.dirty ? ' (with uncommitted changes)' : ''}\n`;
  if (r.environment.apiserverRevision) out += `the measured svc-apiserver runs the earlier revision ${r.environment.apiserverRevision} (--apiserverRevision)\n`;
  out += `load average (1/5/15 min) at start ${m.loadAtStart.join(' / ')}, at end ${(m.loadAtEnd ?? []).join(' / ')}: above ${m.cpus} means others' work shared the cores\n\n`;
  // Only the header when no side-by-side phase ran (e.g. --phases=authz).
  out += rows.length > 1 ? table(rows) : '';
  if (r.watch) {
    const tenths = (w: WatchResult): string => w.latencyByTenthMs.map((p) => Math.round(p.p99)).join(' ');
    out += `\n\nWatch delivery p99 (ms) per tenth of the updates, in send order:\n  svc-apiserver: ${tenths(r.watch.server)}\n  etcd:          ${tenths(r.watch.etcd)}`;
  }
  if (r.bareHttpGets) {
    const { server: s, bare: b } = r.bareHttpGets;
    out += `\n\nHTTP framework overhead (same GET, same TLS and client certificate, ${r.config.concurrency} in flight):\n`;
    out += table([
      ['', 'svc-apiserver', 'bare node:https', 'srv ÷ bare'],
      ['GETs/s', num(s.opsPerSec), num(b.opsPerSec), (s.opsPerSec / b.opsPerSec).toFixed(2)],
      ['latency p50 / p99 (ms)', `${s.latencyMs.p50} / ${s.latencyMs.p99}`, `${b.latencyMs.p50} / ${b.latencyMs.p99}`, ''],
      ['server CPU seconds', s.cpu.apiserver.toFixed(1), b.cpu.apiserver.toFixed(1), ''],
    ]);
  }
  if (r.fieldTracking) out += `\n\n${renderFieldTracking(r.fieldTracking, table)}`;
  if (r.formats) out += `\n\n${formatsTable(r)}`;
  if (r.policies) out += `\n\n${policiesTable(r.policies, r.config)}`;
  if (r.hostileRegex) out += `\n\n${hostileRegexTable(r.hostileRegex, r.config)}`;
  if (r.crd) out += `\n\n${renderCrd(r.crd, r.targets ?? [], table)}`;
  if (r.authz) out += `\n\n${authzTable(r.authz, r.config)}`;
  if (r.csr) out += `\n\n${csrTable(r.csr)}`;
  if (r.startup) out += `\n\n${startupTable(r.startup)}`;
  if (cpuRows.length > 1) out += `\n\n${table(cpuRows)}`;
  out += `\n\n${notes.map((n) => `* ${n}`).join('\n')}`;
  return out.trimStart();
}

function hostileRegexTable(h: HostileRegexResult, config: Results['config']): string {
  const ms = (p: { p50: number; p99: number; max: number }): string => `${p.p50} / ${p.p99} / ${p.max}`;
  let out = `Hostile regex: ConfigMap creates whose value is 'a'×${h.inputLength}+'!' against ^(a+)+$ and ^([a-z0-9]+)+$ in a bound policy (exponential on a backtracking engine), ${config.hostileRegexConcurrency} in flight, /livez probed every 20 ms:\n`;
  out += table([
    ['', '/livez p50 / p99 / max (ms)', 'probes', 'creates/s', 'create p50 / p99 (ms)', 'not denied (422)'],
    ['idle', ms(h.idleLivezMs), '', '', '', ''],
    ['under hostile creates', ms(h.loadedLivezMs), String(h.livezProbes), num(h.creates.opsPerSec), `${h.creates.latencyMs.p50} / ${h.creates.latencyMs.p99}`, String(h.unexpectedAnswers)],
  ]);
  return out;
}

function policiesTable(p: PoliciesResult, config: Results['config']): string {
  let out = `Admission policies: ServiceAccount creates with N bound ValidatingAdmissionPolicies (3 validations each, Deny), ${config.concurrency} in flight:\n`;
  // Results written before the slices were kept have no spread and no median throughput.
  const spread = (c: PoliciesResult['counts'][number]): string => (c.sliceCpuUsPerCreate?.length ? `${Math.min(...c.sliceCpuUsPerCreate).toFixed(0)} – ${Math.max(...c.sliceCpuUsPerCreate).toFixed(0)}` : '');
  out += table([
    ['policies', 'creates', 'creates/s (median)', 'latency p50 / p99 (ms)', 'apiserver CPU µs per create (median)', 'slices (min – max)'],
    ...p.counts.map((c) => [String(c.policies), String(c.creates.ops), num(c.opsPerSec ?? c.creates.opsPerSec), `${c.creates.latencyMs.p50} / ${c.creates.latencyMs.p99}`, c.cpuUsPerCreate.toFixed(1), spread(c)]),
  ]);
  const met = p.tenPoliciesPercent < 20 ? 'met' : 'MISSED';
  out += `\n  10 policies cost ${p.tenPoliciesPercent.toFixed(1)}% of a create in apiserver CPU (target < 20%: ${met}); by throughput ${p.tenPoliciesThroughputPercent.toFixed(1)}%`;
  out += `\n  ${config.policyRounds} rounds, the counts rotating through each place; one unmeasured warm-up round, each slice's objects deleted after it; bindings in force after (ms, per slice): ${p.enforcedAfterMs.join(' ')}`;
  return out;
}

function startupTable(st: StartupResult): string {
  const row = (name: string, x: StartupResult['ephemeral']): string[] => [name, String(x.p50Ms), `${x.minMs} – ${x.maxMs}`, String(x.runs)];
  let out = 'Time to ready (/readyz 200, post-start hooks done):\n';
  out += table([
    ['', 'p50 ms', 'min – max ms', 'runs'],
    row('svc-apiserver --ephemeral (process, memory storage)', st.ephemeral),
    row('startTestServer() in-process (worker thread, memory storage)', st.inProcess),
    row('fresh etcd + svc-apiserver process', st.etcdAndServer),
  ]);
  out += `\n  envtest (kube-apiserver + etcd): ${st.envtestReference}`;
  return out;
}

function authzTable(a: AuthzResult, config: Results['config']): string {
  const p = a.policy;
  const lat = (x: LoadResult): string => `${x.latencyMs.p50} / ${x.latencyMs.p99}`;
  const signed = (x: number, unit: string): string => `${x >= 0 ? '+' : ''}${x}${unit}`;
  let out = `Authorization overhead: GET ${a.path} as ${a.user} (groups ${a.groups.join(',')}), ${config.concurrency} in flight, ${config.getSeconds} s each in ${a.rounds} alternating slices;\n`;
  out += `  policy: ${p.clusterRoles} ClusterRoles, ${p.clusterRoleBindings} ClusterRoleBindings, ${p.roles} Roles and ${p.roleBindings} RoleBindings in the namespace (${p.added} added); grant visible after ${a.grantVisibleAfterMs} ms\n`;
  out += table([
    ['', 'RBAC', 'AlwaysAllow', 'RBAC vs AlwaysAllow', 'system:masters on RBAC', 'RBAC vs masters'],
    ['GETs/s', num(a.rbac.opsPerSec), num(a.alwaysAllow.opsPerSec), `${a.rbacPerAllow.toFixed(3)}×`, num(a.masters.opsPerSec), `${a.rbacPerMasters.toFixed(3)}×`],
    ['latency p50 / p99 (ms)', lat(a.rbac), lat(a.alwaysAllow), `p50 ${signed(a.p50DifferenceUs, ' µs')}`, lat(a.masters), ''],
    [
      'apiserver CPU µs per GET',
      a.cpuUsPerGet.rbac.toFixed(1),
      a.cpuUsPerGet.alwaysAllow.toFixed(1),
      signed(a.cpuDifferenceUs.vsAlwaysAllow, ' µs'),
      a.cpuUsPerGet.masters.toFixed(1),
      signed(a.cpuDifferenceUs.vsMasters, ' µs'),
    ],
  ]);
  const slices = (v: number[]): string => v.map((x) => Math.round(x)).join(' ');
  out += `\n  GETs/s per slice, in time order: RBAC ${slices(a.sliceOpsPerSec.rbac)}; AlwaysAllow ${slices(a.sliceOpsPerSec.alwaysAllow)}; masters ${slices(a.sliceOpsPerSec.masters)}`;
  return out;
}

function csrTable(c: CsrResult): string {
  const { sequential: s, burst: b, inProcess: p, verification: v } = c;
  const ms = (x: number): string => (x >= 100 ? String(Math.round(x)) : x.toFixed(x >= 10 ? 1 : 2));
  const lat = (x: { p50: number; p99: number; max: number }): string[] => [ms(x.p50), ms(x.p99), ms(x.max)];
  let out = `Certificate issuance: ${c.signerName} node client CSRs (${c.requestKey} keys) from a bootstrap identity, auto-approved and signed by svc-controller-manager (CA ${c.caKey}; Lease held ${c.controllerManager.leaseHeldAfterMs} ms after start):\n`;
  out += table([
    ['', 'p50 ms', 'p99 ms', 'max ms', 'throughput'],
    [`sequential, ${s.csrs} one at a time: created → issued`, ...lat(s.latencyMs), `${s.seconds} s in all`],
    ['  create answered', ...lat(s.createMs), ''],
    ['  created → approved', ...lat(s.toApprovedMs), ''],
    ['  approved → issued', ...lat(s.approvedToIssuedMs), ''],
    [`burst, ${b.csrs} with ${b.concurrency} creates in flight: created → issued`, ...lat(b.latencyMs), `${num(b.issuedPerSec)} issued/s (${b.seconds} s first create → last issued)`],
    [`CsrSigner.sign in-process, ${p.ecdsaP256.signatures} ECDSA P-256 requests`, ...lat(p.ecdsaP256.latencyMs), `${num(p.ecdsaP256.perSec)} signatures/s`],
    [`CsrSigner.sign in-process, ${p.rsa2048.signatures} RSA-2048 requests`, ...lat(p.rsa2048.latencyMs), `${num(p.rsa2048.perSec)} signatures/s`],
    ['through the controller (burst)', '', '', '', `${num(b.issuedPerSec)} certificates/s`],
  ]);
  const cpu = b.cpuMsPerCertificate;
  out += `\n  burst: the controller's signing took ${ms(b.controllerSign.meanMs)} ms on average (its histogram, ${b.controllerSign.count} signatures); CPU per certificate: controller manager ${cpu.controllerManager} ms, apiserver ${cpu.apiserver} ms, etcd ${cpu.etcd} ms`;
  out += `\n  verified: ${v.chainsToCa}/${v.certificates} chain to the CA, ${v.matchesRequest}/${v.certificates} match their request, ${v.autoApproved}/${v.certificates} AutoApproved`;
  return out;
}

const notes = [
  'Creates, GETs and updates: the median of alternating rounds (server then etcd, then etcd then server, …); CPU per op is the process\'s CPU time (/proc, 10 ms ticks) over the round ÷ its operations, median over rounds. An update is a GET plus a PUT.',
  'One etcd (data dir on tmpfs) serves both sides; the raw side uses /bench-raw/ keys and the apiserver\'s own stored bytes.',
  'Both clients run in the bench process on the same cores: CPU seconds show when the bench itself (e.g. the etcd3 client) is the limit.',
  'resourceVersion=0: the server answers from its watch cache (decoding and encoding every item); the etcd side is a serializable range.',
  'Watch latency = event arrival in the bench − time the write was sent (open loop, fixed rate), so it includes the write and the bench\'s own decoding.',
  'Authorization overhead: closed loop, so the p50 difference includes queueing; apiserver CPU µs per GET is the per-request cost. AlwaysAllow is a second, freshly started apiserver on the same etcd; system:masters skips RBAC in the same process.',
  'Certificate issuance: latency is create sent → the certificate\'s watch event in the bench (approval SubjectAccessReview, /approval, signature, /status and watch deliveries included); in-process signing is CsrSigner.sign alone, one at a time.',
  'Response formats: JSON, Protobuf and CBOR take turns (1 s GET slices, single lists; p50 = median of the slices\' p50s) on the same objects, so load from elsewhere falls on each alike, but on a shared machine the ratios stay noisy; apiserver CPU per request is the steadier figure. The apiserver runs with CBORServingAndStorage=true for them.',
  'Memory per stored object, retained: the apiserver\'s RSS (and V8 heap plus array buffers) after full GCs (through node\'s inspector), from before the creates to after the GETs and full lists, ÷ the objects created in between (the N measured and the re-warm\'s, which follows the memory point because its GCs drop optimized code). "Without GC" is the figure reported before: the same span without a GC, so it includes the load phases\' heap high-water that RSS does not give back; it is not a retention figure.',
  'Idle watchers here are HTTP/1.1 watches, one TLS connection each (what a client without HTTP/2 pays); their target is judged after full GCs through the inspector, on the second opening of as many watches in the process (the first, also printed, grows the allocator\'s and TLS pools once). Bare node:https answering the same watches with headers only, opened the same way, shows what Node itself keeps per TLS connection. HTTP/2 streams sharing one connection (kubectl, Go clients) are measured by the scale run (--scale).',
];

export function writeResults(dir: string, r: Results): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `bench-${r.startedAt.replace(/[:.]/g, '-')}.json`);
  const text = `${JSON.stringify(r, null, 2)}\n`;
  writeFileSync(file, text);
  writeFileSync(join(dir, 'latest.json'), text);
  return file;
}
