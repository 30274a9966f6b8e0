// Watch fan-out: W watchers, then U updates of one object written at a fixed rate (open loop),
// on both sides. Each delivered event's latency is its arrival time in the bench minus the time
// its write was sent; an update a watcher never receives is lost. Idle-watcher memory is the
// serving process's RSS growth from opening the watchers, before any update.
import * as https from 'node:https';
import { performance } from 'node:perf_hooks';
import type { ClientRequest } from 'node:http';
import type { Etcd3, Watcher } from 'etcd3';
import { steadyRss } from './cluster';
import { Inspector, type MemoryUsage } from './inspector';
import type { HttpsClient } from './httpsClient';
import { CpuMeter, CpuUse, percentiles, Percentiles, Pids, round, sleep } from './load';
import { findSeq, seqLabel, serviceAccounts, watchNamespace, rawPrefix, type BenchKind } from './objects';
import { ensureNamespace } from './serverLoad';

export interface WatchOptions {
  watchers: number;
  updates: number;
  /** Updates per second. */
  rate: number;
  pad: number;
  /** How long to wait for stragglers after the last write. */
  drainSeconds: number;
  /** Uncounted updates first (same rate), so neither side is measured cold. */
  warmupUpdates: number;
}

export interface WatchResult {
  watchers: number;
  updates: number;
  ratePerSec: number;
  /** Seconds to open every watcher (all answered / created). */
  openSeconds: number;
  expected: number;
  delivered: number;
  lost: number;
  duplicates: number;
  /** Watchers whose stream ended before the bench closed it. */
  endedEarly: number;
  /** Arrival − write sent (ms). */
  latencyMs: Percentiles;
  /** Arrival − write acknowledged (ms; negative when the event beat the response). */
  latencyFromAckMs: Percentiles;
  /** Arrival − write sent, per tenth of the updates in send order: steady, or falling behind? */
  latencyByTenthMs: Percentiles[];
  writeLatencyMs: Percentiles;
  writeErrors: number;
  /** From the first counted write to the last event. */
  seconds: number;
  cpu: CpuUse;
  idle: IdleMemory;
  firstError?: string;
}

export interface IdleMemory {
  /** The process holding the watchers: svc-apiserver, or etcd for the raw baseline. */
  process: string;
  rssBeforeBytes: number;
  rssAfterBytes: number;
  perWatcherBytes: number;
  /** For the apiserver run: etcd's growth too (each API watch is one etcd watch). */
  etcdPerWatcherBytes?: number;
  /**
   * For the apiserver run, the same span measured after full GCs (through the inspector): the
   * figures above are without a GC, so a collection between the two points can make them negative.
   */
  afterGc?: IdleAfterGc;
  /**
   * afterGc is taken on the second opening of this many watches: the first opening on a process
   * (this one, idle watches opened and closed just before) also grows the allocator's and TLS
   * pools once, which later watchers reuse.
   */
  firstOpeningAfterGc?: IdleAfterGc;
  /** The same streams opened the same way on bare node:https (bench/bareServer.ts): Node's own floor. */
  bareAfterGc?: { first: IdleAfterGc; second: IdleAfterGc };
}

export interface IdleAfterGc {
  rssPerWatcherBytes: number;
  heapPerWatcherBytes: number;
}

/** Opens watcher 0 … n−1 in batches, so hundreds of TLS handshakes do not all queue at once. */
async function inBatches(n: number, open: (w: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < n; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, n - i) }, (_, k) => open(i + k)));
  }
}

/** Growth between two after-GC points, per watcher. */
function perWatcherAfterGc(before: MemoryUsage, rssBefore: number, after: MemoryUsage, rssAfter: number, n: number): IdleAfterGc {
  return {
    rssPerWatcherBytes: Math.round((rssAfter - rssBefore) / n),
    heapPerWatcherBytes: Math.round((after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / n),
  };
}

/**
 * n idle HTTP/1.1 watches on path (the process pid, started with --inspect on inspectPort), each on
 * its own TLS connection as serverWatchers opens them: what the server keeps per idle watch after
 * GC. They are closed again before it returns.
 */
export async function idleWatchersAfterGc(client: HttpsClient, pid: number, inspectPort: number, path: string, n: number): Promise<IdleAfterGc> {
  const agent = new https.Agent({ keepAlive: false, maxSockets: Infinity, ...client.creds });
  const streams: ClientRequest[] = [];
  let closing = false;
  try {
    const gcBefore = await Inspector.memoryAfterGcAt(inspectPort);
    const rssBefore = await steadyRss(pid);
    await inBatches(n, (w) =>
      new Promise<void>((resolve, reject) => {
        streams[w] = client.stream(
          path,
          agent,
          (status) => (status === 200 ? resolve() : reject(new Error(`idle watch: HTTP ${status}`))),
          () => undefined,
          (err) => {
            if (!closing) reject(err ?? new Error('idle watch ended before it answered'));
          },
        );
      }),
    );
    await sleep(1000);
    const gcAfter = await Inspector.memoryAfterGcAt(inspectPort);
    return perWatcherAfterGc(gcBefore, rssBefore, gcAfter, await steadyRss(pid), n);
  } finally {
    closing = true;
    for (const s of streams) s?.destroy();
    agent.destroy();
  }
}

/** Per-(watcher, update) bookkeeping; latencies as arrival − send, by update sequence. */
class Tracker {
  readonly sendAt: Float64Array;
  readonly ackAt: Float64Array;
  private readonly seen: Uint8Array;
  private readonly arrival: Float64Array;
  private readonly seqOf: Int32Array;
  delivered = 0;
  duplicates = 0;
  lastArrival = 0;

  constructor(
    readonly watchers: number,
    readonly updates: number,
  ) {
    this.sendAt = new Float64Array(updates).fill(NaN);
    this.ackAt = new Float64Array(updates).fill(NaN);
    this.seen = new Uint8Array(watchers * updates);
    this.arrival = new Float64Array(watchers * updates);
    this.seqOf = new Int32Array(watchers * updates);
  }

  record(w: number, seq: number, now: number): void {
    if (seq < 0 || seq >= this.updates) return;
    const idx = w * this.updates + seq;
    if (this.seen[idx]) {
      this.duplicates++;
      return;
    }
    this.seen[idx] = 1;
    this.arrival[this.delivered] = now;
    this.seqOf[this.delivered] = seq;
    this.delivered++;
    this.lastArrival = now;
  }

  get complete(): boolean {
    return this.delivered >= this.watchers * this.updates;
  }

  latencies(): { fromSend: Percentiles; fromAck: Percentiles; byTenth: Percentiles[] } {
    const n = this.delivered;
    const send = new Float64Array(n);
    const ack = new Float64Array(n);
    const tenths: number[][] = Array.from({ length: 10 }, () => []);
    for (let i = 0; i < n; i++) {
      const s = this.seqOf[i];
      send[i] = this.arrival[i] - this.sendAt[s];
      ack[i] = this.arrival[i] - this.ackAt[s];
      tenths[Math.floor((s * 10) / this.updates)].push(send[i]);
    }
    const r = (p: Percentiles): Percentiles => ({ p50: round(p.p50, 1), p99: round(p.p99, 1), max: round(p.max, 1) });
    return { fromSend: r(percentiles(send)), fromAck: r(percentiles(ack)), byTenth: tenths.map((v) => r(percentiles(v))) };
  }
}

/**
 * Writes write(0 … updates-1) at `rate` per second without waiting for answers; records send/ack
 * times. First `warmup` uncounted writes at the same rate (label value `w<n>`, which receivers skip).
 */
async function pacedWrites(
  t: Tracker,
  rate: number,
  warmup: number,
  write: (label: string, i: number) => Promise<void>,
  onStart: () => void,
): Promise<{ writeLatencyMs: Percentiles; errors: number; firstError?: string }> {
  for (let i = 0; i < warmup; i++) {
    await Promise.all([write(`w${i}`, -1), sleep(1000 / rate)]);
  }
  await sleep(500);
  onStart();
  const start = performance.now();
  const pending: Promise<void>[] = [];
  let errors = 0;
  let firstError: string | undefined;
  for (let i = 0; i < t.updates; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    t.sendAt[i] = performance.now();
    pending.push(
      write(String(i), i).then(
        () => {
          t.ackAt[i] = performance.now();
        },
        (e: Error) => {
          t.ackAt[i] = performance.now();
          errors++;
          firstError ??= e.message;
        },
      ),
    );
  }
  await Promise.all(pending);
  const wl = percentiles(Float64Array.from({ length: t.updates }, (_, i) => t.ackAt[i] - t.sendAt[i]));
  return { writeLatencyMs: { p50: round(wl.p50, 2), p99: round(wl.p99, 2), max: round(wl.max, 2) }, errors, ...(firstError ? { firstError } : {}) };
}

async function drain(t: Tracker, seconds: number): Promise<void> {
  const deadline = performance.now() + seconds * 1000;
  while (!t.complete && performance.now() < deadline) await sleep(20);
}

function finish(t: Tracker, o: WatchOptions, openSeconds: number, w: Awaited<ReturnType<typeof pacedWrites>>, cpu: CpuUse, idle: IdleMemory, endedEarly: number): WatchResult {
  const lat = t.latencies();
  const expected = o.watchers * o.updates;
  const firstError = w.firstError;
  return {
    watchers: o.watchers,
    updates: o.updates,
    ratePerSec: o.rate,
    openSeconds: round(openSeconds, 2),
    expected,
    delivered: t.delivered,
    lost: expected - t.delivered,
    duplicates: t.duplicates,
    endedEarly,
    latencyMs: lat.fromSend,
    latencyFromAckMs: lat.fromAck,
    latencyByTenthMs: lat.byTenth,
    writeLatencyMs: w.writeLatencyMs,
    writeErrors: w.errors,
    seconds: round(((t.lastArrival || performance.now()) - t.sendAt[0]) / 1000, 2),
    cpu,
    idle,
    ...(firstError ? { firstError } : {}),
  };
}

/** Where serverWatchers watches: a namespace (its object "target" must not exist yet) and a kind. */
export interface WatchTarget {
  namespace: string;
  kind: BenchKind;
}

/** W HTTPS watch streams on one namespace; U merge-patches of one object's label (a ServiceAccount unless target says otherwise). */
export async function serverWatchers(client: HttpsClient, pids: Pids, o: WatchOptions, inspectPort?: number, target: WatchTarget = { namespace: watchNamespace, kind: serviceAccounts }): Promise<WatchResult> {
  await ensureNamespace(client, target.namespace);
  const base = target.kind.collection(target.namespace);
  const created = await client.expect('POST', base, [201], target.kind.object('target', o.pad));
  const rv = created.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;

  const t = new Tracker(o.watchers, o.updates);
  const rssBefore = await steadyRss(pids.apiserver);
  const etcdBefore = await steadyRss(pids.etcd);
  const gcBefore = inspectPort === undefined ? undefined : await Inspector.memoryAfterGcAt(inspectPort);
  const gcRssBefore = gcBefore && (await steadyRss(pids.apiserver));
  // Watch streams get their own connections (one each, as separate clients would have).
  const agent = new https.Agent({ keepAlive: false, maxSockets: Infinity, ...client.creds });
  const streams: ClientRequest[] = [];
  let endedEarly = 0;
  let closing = false;
  const openStart = performance.now();
  const path = `${base}?watch=1&resourceVersion=${rv}&timeoutSeconds=1800`;
  const open = (w: number): Promise<void> =>
    new Promise((resolve, reject) => {
      let carry: Buffer | null = null;
      streams[w] = client.stream(
        path,
        agent,
        (status) => (status === 200 ? resolve() : reject(new Error(`watch: HTTP ${status}`))),
        (chunk) => {
          const now = performance.now();
          const buf: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
          let pos = 0;
          for (;;) {
            const nl = buf.indexOf(10, pos);
            if (nl < 0) break;
            t.record(w, findSeq(buf, pos, nl), now);
            pos = nl + 1;
          }
          carry = pos < buf.length ? buf.subarray(pos) : null;
        },
        (err) => {
          if (!closing) endedEarly++;
          reject(err ?? new Error('watch ended before it answered'));
        },
      );
    });
  await inBatches(o.watchers, open);
  const openSeconds = (performance.now() - openStart) / 1000;
  await sleep(1000);
  const rssAfter = await steadyRss(pids.apiserver);
  const etcdAfter = await steadyRss(pids.etcd);
  let afterGc: IdleMemory['afterGc'];
  if (gcBefore && gcRssBefore !== undefined && inspectPort !== undefined) {
    const gcAfter = await Inspector.memoryAfterGcAt(inspectPort);
    afterGc = perWatcherAfterGc(gcBefore, gcRssBefore, gcAfter, await steadyRss(pids.apiserver), o.watchers);
  }

  let meter: CpuMeter | undefined;
  const begin = (): void => {
    meter = new CpuMeter(pids);
  };
  const patchPath = `${base}/target`;
  const w = await pacedWrites(t, o.rate, o.warmupUpdates, async (label) => {
    const r = await client.request('PATCH', patchPath, { metadata: { labels: { [seqLabel]: label } } }, 'application/merge-patch+json');
    if (r.status !== 200) throw new Error(`patch: HTTP ${r.status}: ${r.text().slice(0, 300)}`);
  }, begin);
  await drain(t, o.drainSeconds);
  const cpu = meter!.read();
  closing = true;
  for (const s of streams) s?.destroy();
  agent.destroy();
  return finish(t, o, openSeconds, w, cpu, {
    process: 'svc-apiserver',
    rssBeforeBytes: rssBefore,
    rssAfterBytes: rssAfter,
    perWatcherBytes: Math.round((rssAfter - rssBefore) / o.watchers),
    etcdPerWatcherBytes: Math.round((etcdAfter - etcdBefore) / o.watchers),
    afterGc,
  }, endedEarly);
}

/** W etcd3 watchers on one prefix (one client, so one multiplexed gRPC watch stream); U puts. */
export async function etcdWatchers(writer: Etcd3, watchClient: Etcd3, pids: Pids, template: Buffer, o: WatchOptions): Promise<WatchResult> {
  const prefix = `${rawPrefix}watch/`;
  const key = `${prefix}target`;
  const obj = JSON.parse(template.toString('utf8')) as { metadata: { name: string; labels?: Record<string, string> } };
  obj.metadata.name = 'target';
  await writer.put(key).value(JSON.stringify(obj));
  const valueOf = (label: string): Buffer => {
    obj.metadata.labels = { ...obj.metadata.labels, [seqLabel]: label };
    return Buffer.from(JSON.stringify(obj));
  };
  const values = Array.from({ length: o.updates }, (_, i) => valueOf(String(i)));

  const t = new Tracker(o.watchers, o.updates);
  const rssBefore = await steadyRss(pids.etcd);
  const openStart = performance.now();
  const watchers: Watcher[] = [];
  let endedEarly = 0;
  let closing = false;
  for (let i = 0; i < o.watchers; i += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, o.watchers - i) }, () => watchClient.watch().prefix(prefix).create()));
    batch.forEach((wt, k) => {
      const w = i + k;
      wt.on('put', (kv) => t.record(w, findSeq(kv.value, 0, kv.value.length), performance.now()));
      wt.on('end', () => {
        if (!closing) endedEarly++;
      });
      watchers.push(wt);
    });
  }
  const openSeconds = (performance.now() - openStart) / 1000;
  await sleep(1000);
  const rssAfter = await steadyRss(pids.etcd);

  let meter: CpuMeter | undefined;
  const begin = (): void => {
    meter = new CpuMeter(pids);
  };
  const w = await pacedWrites(t, o.rate, o.warmupUpdates, async (label, i) => {
    await writer.put(key).value(i >= 0 ? values[i] : valueOf(label));
  }, begin);
  await drain(t, o.drainSeconds);
  const cpu = meter!.read();
  closing = true;
  await Promise.all(watchers.map((wt) => wt.cancel()));
  return finish(t, o, openSeconds, w, cpu, {
    process: 'etcd',
    rssBeforeBytes: rssBefore,
    rssAfterBytes: rssAfter,
    perWatcherBytes: Math.round((rssAfter - rssBefore) / o.watchers),
  }, endedEarly);
}
