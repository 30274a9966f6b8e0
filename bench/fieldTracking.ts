// What field ownership (metadata.managedFields on every write) costs: creates and read-modify-write
// updates against this build and against the previous release (the last revision before field
// tracking, built by previousRelease.ts) on the same etcd, in alternating rounds with the median
// reported; and the server-side apply round trip of a ~1.5 KB ServiceAccount.
import type { Cluster } from './cluster';
import { startExtraApiserver } from './cluster';
import type { HttpsClient } from './httpsClient';
import { percentiles, round, runLoad, type LoadResult, type Percentiles } from './load';
import { buildRevision } from './previousRelease';
import { objectName, serviceAccount } from './objects';
import { ensureNamespace } from './serverLoad';

/** The commit before managedFields were recorded on writes (a79a87d started it). */
export const defaultTrackingBaseline = 'a79a87d^';

export interface SideFigures {
  /** Median over the rounds. */
  opsPerSec: number;
  /** Median apiserver CPU milliseconds per operation. */
  cpuMsPerOp: number;
  latencyMs: Percentiles;
  perRound: number[];
}

export interface FieldTrackingResult {
  baseline: { commit: string; subject: string };
  rounds: number;
  objectsPerRound: number;
  concurrency: number;
  creates: { current: SideFigures; baseline: SideFigures; ratio: number };
  /** GET + PUT of one object, counted as one update. */
  updates: { current: SideFigures; baseline: SideFigures; ratio: number };
  /** Stored bytes of one created object: with managedFields, and as the baseline stored it. */
  storedBytes: { current: number; baseline: number };
  apply: {
    bodyBytes: number;
    /** One at a time: each apply changes one annotation, so each is a real write. */
    sequential: { applies: number; latencyMs: Percentiles };
    /** Concurrent applies, each to its own object. */
    concurrent: { applies: number; opsPerSec: number; latencyMs: Percentiles; cpuMsPerOp: number };
  };
}

export interface FieldTrackingOptions {
  cluster: Cluster;
  admin: HttpsClient;
  baselineRevision: string;
  rounds: number;
  objects: number;
  concurrency: number;
  pad: number;
  log: (msg: string) => void;
}

const saPath = (ns: string): string => `/api/v1/namespaces/${ns}/serviceaccounts`;

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function figures(runs: LoadResult[]): SideFigures {
  const cpu = runs.map((r) => (r.cpu.apiserver * 1000) / r.ops);
  const best = runs[runs.map((r) => r.opsPerSec).indexOf(median(runs.map((r) => r.opsPerSec)))];
  return { opsPerSec: median(runs.map((r) => r.opsPerSec)), cpuMsPerOp: round(median(cpu), 3), latencyMs: best.latencyMs, perRound: runs.map((r) => r.opsPerSec) };
}

function check(r: LoadResult, what: string): LoadResult {
  if (r.errors) throw new Error(`${what}: ${r.errors} errors, first: ${r.firstError}`);
  return r;
}

async function creates(client: HttpsClient, pids: { apiserver: number; etcd: number }, ns: string, n: number, c: number, pad: number): Promise<LoadResult> {
  await ensureNamespace(client, ns);
  const bodies = Array.from({ length: n }, (_, i) => Buffer.from(JSON.stringify(serviceAccount(objectName(i), pad))));
  return runLoad({ concurrency: c, count: n, pids }, async (i) => {
    const r = await client.request('POST', saPath(ns), bodies[i]);
    if (r.status !== 201) throw new Error(`create: HTTP ${r.status}: ${r.text().slice(0, 300)}`);
  });
}

/** Read-modify-write, as a controller does: GET, change one annotation, PUT with the resourceVersion. */
async function updates(client: HttpsClient, pids: { apiserver: number; etcd: number }, ns: string, n: number, c: number): Promise<LoadResult> {
  return runLoad({ concurrency: c, count: n, pids }, async (i) => {
    const path = `${saPath(ns)}/${objectName(i)}`;
    const got = await client.request('GET', path);
    if (got.status !== 200) throw new Error(`get: HTTP ${got.status}`);
    const obj = got.json<{ metadata: { annotations?: Record<string, string> } }>();
    obj.metadata.annotations = { ...obj.metadata.annotations, 'bench.svc.io/updated': String(i) };
    const r = await client.request('PUT', path, obj);
    if (r.status !== 200) throw new Error(`update: HTTP ${r.status}: ${r.text().slice(0, 300)}`);
  });
}

const applyType = 'application/apply-patch+yaml';

export async function runFieldTracking(o: FieldTrackingOptions): Promise<FieldTrackingResult> {
  const built = buildRevision(o.baselineRevision, o.log);
  o.log(`field tracking: baseline ${built.subject.slice(0, 90)}`);
  const base = await startExtraApiserver(o.cluster, [], o.concurrency, built.root);
  try {
    const sides = {
      current: { client: o.admin, pids: { apiserver: o.cluster.apiserverPid, etcd: o.cluster.etcdPid } },
      baseline: { client: base.client, pids: { apiserver: base.pid, etcd: o.cluster.etcdPid } },
    };
    const runs = { creates: { current: [] as LoadResult[], baseline: [] as LoadResult[] }, updates: { current: [] as LoadResult[], baseline: [] as LoadResult[] } };
    for (let round = 0; round < o.rounds; round++) {
      const order = round % 2 === 0 ? (['current', 'baseline'] as const) : (['baseline', 'current'] as const);
      for (const side of order) {
        const { client, pids } = sides[side];
        const ns = `bench-track-${side}-${round}`;
        o.log(`field tracking round ${round + 1}/${o.rounds}, ${side}: ${o.objects} creates, then ${o.objects} GET+PUT updates`);
        runs.creates[side].push(check(await creates(client, pids, ns, o.objects, o.concurrency, o.pad), `${side} creates`));
        runs.updates[side].push(check(await updates(client, pids, ns, o.objects, o.concurrency), `${side} updates`));
      }
    }
    const storedBytes = async (side: 'current' | 'baseline'): Promise<number> =>
      (await o.admin.expect('GET', `${saPath(`bench-track-${side}-0`)}/${objectName(0)}`, [200])).body.length;
    const createsF = { current: figures(runs.creates.current), baseline: figures(runs.creates.baseline) };
    const updatesF = { current: figures(runs.updates.current), baseline: figures(runs.updates.baseline) };
    return {
      baseline: { commit: built.commit, subject: built.subject },
      rounds: o.rounds,
      objectsPerRound: o.objects,
      concurrency: o.concurrency,
      creates: { ...createsF, ratio: round(createsF.current.opsPerSec / createsF.baseline.opsPerSec, 3) },
      updates: { ...updatesF, ratio: round(updatesF.current.opsPerSec / updatesF.baseline.opsPerSec, 3) },
      // Served by the current server (the stored object, managedFields included or not).
      storedBytes: { current: await storedBytes('current'), baseline: await storedBytes('baseline') },
      apply: await applyRoundTrips(o, sides.current),
    };
  } finally {
    await base.stop();
  }
}

/** ~1.5 KB of ServiceAccount as an applier would send it. */
function applyBody(name: string, pad: number, value: string): Buffer {
  const sa = serviceAccount(name, pad) as { metadata: { annotations: Record<string, string> } };
  sa.metadata.annotations['bench.svc.io/applied'] = value;
  return Buffer.from(JSON.stringify(sa));
}

async function applyRoundTrips(o: FieldTrackingOptions, side: { client: HttpsClient; pids: { apiserver: number; etcd: number } }): Promise<FieldTrackingResult['apply']> {
  const ns = 'bench-track-apply';
  await ensureNamespace(side.client, ns);
  // A pad that makes the body ~1.5 KB (the default object is ~1 KiB with pad 512).
  const pad = o.pad + 650;
  const names = 20;
  for (let i = 0; i < names; i++) {
    await side.client.expect('PATCH', `${saPath(ns)}/${objectName(i)}?fieldManager=bench`, [200, 201], applyBody(objectName(i), pad, 'v0'), applyType);
  }
  const sequentialCount = Math.max(100, Math.min(1000, Math.floor(o.objects / 4)));
  o.log(`apply round trip: ${sequentialCount} sequential applies of a ${applyBody(objectName(0), pad, 'v0').length} B ServiceAccount, then ${o.objects} concurrent`);
  const lat: number[] = [];
  for (let i = 0; i < sequentialCount; i++) {
    const t0 = performance.now();
    const name = objectName(i % names);
    const r = await side.client.request('PATCH', `${saPath(ns)}/${name}?fieldManager=bench`, applyBody(name, pad, `v${i + 1}`), applyType);
    lat.push(performance.now() - t0);
    if (r.status !== 200) throw new Error(`apply: HTTP ${r.status}: ${r.text().slice(0, 300)}`);
  }
  const seq = percentiles(lat);
  const concurrent = check(
    await runLoad({ concurrency: o.concurrency, count: o.objects, pids: side.pids }, async (i) => {
      const name = objectName(names + i);
      const r = await side.client.request('PATCH', `${saPath(ns)}/${name}?fieldManager=bench`, applyBody(name, pad, 'c'), applyType);
      if (r.status !== 201) throw new Error(`apply create: HTTP ${r.status}: ${r.text().slice(0, 300)}`);
    }),
    'concurrent applies',
  );
  return {
    bodyBytes: applyBody(objectName(0), pad, 'v0').length,
    sequential: { applies: sequentialCount, latencyMs: { p50: round(seq.p50, 2), p99: round(seq.p99, 2), max: round(seq.max, 2) } },
    concurrent: {
      applies: concurrent.ops,
      opsPerSec: concurrent.opsPerSec,
      latencyMs: concurrent.latencyMs,
      cpuMsPerOp: round((concurrent.cpu.apiserver * 1000) / concurrent.ops, 3),
    },
  };
}

/** The regression target: the issue allows field tracking to cost at most 15% of throughput. */
export function fieldTrackingTargets(f: FieldTrackingResult): { name: string; target: string; value: string; met: boolean }[] {
  return (['creates', 'updates'] as const).map((k) => ({
    name: `${k}/s with field tracking vs the previous release`,
    target: '≥ 0.85 × (regression < 15%)',
    value: `${f[k].ratio.toFixed(2)} × (${Math.round(f[k].current.opsPerSec)} vs ${Math.round(f[k].baseline.opsPerSec)}/s)`,
    met: f[k].ratio >= 0.85,
  }));
}

export function renderFieldTracking(f: FieldTrackingResult, table: (rows: string[][]) => string): string {
  const row = (name: string, k: 'creates' | 'updates'): string[] => [
    name,
    `${Math.round(f[k].current.opsPerSec)} (${f[k].current.perRound.map(Math.round).join(' ')})`,
    `${Math.round(f[k].baseline.opsPerSec)} (${f[k].baseline.perRound.map(Math.round).join(' ')})`,
    f[k].ratio.toFixed(2),
    `${f[k].current.cpuMsPerOp} / ${f[k].baseline.cpuMsPerOp}`,
  ];
  let out = `Field tracking (managedFields on every write) vs the previous release ${f.baseline.subject.slice(0, 70)}…, ${f.objectsPerRound} objects per round, ${f.concurrency} in flight, median of ${f.rounds} alternating rounds:\n`;
  out += table([
    ['', 'this build: ops/s (rounds)', 'previous release', 'ratio', 'apiserver CPU ms/op (this / prev)'],
    row('creates/s', 'creates'),
    row('read-modify-write updates/s (GET + PUT)', 'updates'),
    ['stored object bytes (as served)', String(f.storedBytes.current), String(f.storedBytes.baseline), (f.storedBytes.current / f.storedBytes.baseline).toFixed(2), ''],
  ]);
  const a = f.apply;
  out += `\n  server-side apply of a ${a.bodyBytes} B ServiceAccount: one at a time p50 ${a.sequential.latencyMs.p50} ms, p99 ${a.sequential.latencyMs.p99} ms (${a.sequential.applies} applies, each a real change);`;
  out += ` ${a.concurrent.applies} creating applies with ${f.concurrency} in flight: ${Math.round(a.concurrent.opsPerSec)}/s, p50 ${a.concurrent.latencyMs.p50} ms, ${a.concurrent.cpuMsPerOp} ms apiserver CPU each`;
  return out;
}
