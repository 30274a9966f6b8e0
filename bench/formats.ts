// GET and full-list passes in each response format (issue 11 item 6): JSON, Protobuf and CBOR
// against the same stored objects, one after another, reporting the bytes of one answer and the
// milliseconds per request (p50), so each binary format can be held to "no more than 20% slower
// than JSON". The apiserver runs with CBORServingAndStorage on for this (cluster.ts).
import type { HttpsClient } from './httpsClient';
import { runLoad, sumCpu, type LoadResult, type Pids } from './load';
import { objectName } from './objects';

export const formats = [
  { name: 'JSON', mediaType: 'application/json', magic: Buffer.from('{') },
  { name: 'Protobuf', mediaType: 'application/vnd.svc.protobuf', magic: Buffer.from([0x6b, 0x38, 0x73, 0x00]) },
  { name: 'CBOR', mediaType: 'application/cbor', magic: Buffer.from([0xd9, 0xd9, 0xf7]) },
] as const;

export type FormatName = (typeof formats)[number]['name'];

export interface FormatPass extends LoadResult {
  /** Bytes of one answer (the GET of the first object; the whole list). */
  bytes: number;
  /** Each round's CLOCK_MONOTONIC window, so bench/profile.ts can cut a profile to one format's pass (--phase=formats.CBOR.list). */
  rounds: { ops: number; monotonicUs?: [number, number] }[];
}

export interface FormatResult {
  mediaType: string;
  get: FormatPass;
  list: FormatPass;
}

export interface FormatsResult {
  objects: number;
  results: Partial<Record<FormatName, FormatResult>>;
}

export interface FormatsOptions {
  api: HttpsClient;
  pids: Pids;
  namespace: string;
  objects: number;
  concurrency: number;
  getSeconds: number;
  listIterations: number;
  log: (msg: string) => void;
}

/** One request in a format; checks the status, Content-Type and the body's first bytes. */
async function fetchAs(api: HttpsClient, path: string, f: (typeof formats)[number]): Promise<number> {
  const r = await api.request('GET', path, undefined, undefined, f.mediaType);
  if (r.status !== 200) throw new Error(`${f.name} GET ${path}: HTTP ${r.status}: ${r.text().slice(0, 300)}`);
  if (r.contentType !== f.mediaType) throw new Error(`${f.name} GET ${path}: Content-Type ${r.contentType}`);
  if (!r.body.subarray(0, f.magic.length).equals(f.magic)) throw new Error(`${f.name} GET ${path}: body does not start with the format's prefix`);
  return r.body.length;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}

/** Rounds of one format merged: ops and CPU summed, the p50/p99 the median of the rounds'. */
function merge(rounds: LoadResult[]): LoadResult {
  const ops = rounds.reduce((n, r) => n + r.ops, 0);
  const seconds = rounds.reduce((n, r) => n + r.seconds, 0);
  const errors = rounds.reduce((n, r) => n + r.errors, 0);
  const firstError = rounds.find((r) => r.firstError)?.firstError;
  return {
    ops,
    errors,
    seconds: Math.round(seconds * 1000) / 1000,
    opsPerSec: Math.round((ops / seconds) * 10) / 10,
    latencyMs: { p50: median(rounds.map((r) => r.latencyMs.p50)), p99: median(rounds.map((r) => r.latencyMs.p99)), max: Math.max(...rounds.map((r) => r.latencyMs.max)) },
    cpu: sumCpu(rounds),
    ...(firstError ? { firstError } : {}),
  };
}

function pass(rounds: LoadResult[], bytes: number): FormatPass {
  return { ...merge(rounds), bytes, rounds: rounds.map((r) => ({ ops: r.ops, ...(r.monotonicUs ? { monotonicUs: r.monotonicUs } : {}) })) };
}

/**
 * The formats take turns (one-second GET slices, single lists) rather than running one after
 * another, so load from elsewhere on a shared machine falls on all of them alike.
 */
export async function runFormats(o: FormatsOptions): Promise<FormatsResult> {
  const base = `/api/v1/namespaces/${o.namespace}/serviceaccounts`;
  const paths = Array.from({ length: o.objects }, (_, i) => `${base}/${objectName(i)}`);
  const getRounds = new Map<FormatName, LoadResult[]>(formats.map((f) => [f.name, []]));
  const listRounds = new Map<FormatName, LoadResult[]>(formats.map((f) => [f.name, []]));
  const getBytes = new Map<FormatName, number>();
  const listBytes = new Map<FormatName, number>();
  for (const f of formats) {
    getBytes.set(f.name, await fetchAs(o.api, paths[0], f));
    listBytes.set(f.name, await fetchAs(o.api, base, f));
    // Warm-up, so the first format does not pay for the JIT of every path.
    await runLoad({ concurrency: o.concurrency, seconds: 1, pids: o.pids }, async () => {
      await fetchAs(o.api, paths[(Math.random() * o.objects) | 0], f);
    });
  }
  const rounds = Math.max(3, Math.round(o.getSeconds));
  o.log(`formats: ${rounds} rounds of 1 s of GETs per format (${o.concurrency} in flight), taking turns`);
  for (let r = 0; r < rounds; r++) {
    for (const f of formats) {
      getRounds.get(f.name)?.push(
        await runLoad({ concurrency: o.concurrency, seconds: 1, pids: o.pids }, async () => {
          await fetchAs(o.api, paths[(Math.random() * o.objects) | 0], f);
        }),
      );
    }
  }
  o.log(`formats: ${o.listIterations} lists of ${o.objects} per format, taking turns`);
  for (let i = 0; i < o.listIterations; i++) {
    for (const f of formats) {
      listRounds.get(f.name)?.push(
        await runLoad({ concurrency: 1, count: 1, pids: o.pids }, async () => {
          await fetchAs(o.api, base, f);
        }),
      );
    }
  }
  const out: FormatsResult = { objects: o.objects, results: {} };
  for (const f of formats) {
    out.results[f.name] = {
      mediaType: f.mediaType,
      get: pass(getRounds.get(f.name) ?? [], getBytes.get(f.name) ?? 0),
      list: pass(listRounds.get(f.name) ?? [], listBytes.get(f.name) ?? 0),
    };
  }
  return out;
}

/** How much slower than JSON (p50 ms ratio) a format may be: 20%. */
export const maxSlowdownVsJson = 1.2;
