// Alternating rounds (issue 14 item 6): each measurement runs ≥ 3 times per side, the sides
// taking turns (server, etcd, then etcd, server, …) so a neighbour's burst on the shared cores
// does not land on one side only; the figure reported is the median round.
import type { LoadResult } from './load';

export interface Rounds extends LoadResult {
  /** Every round, in time order. */
  rounds: LoadResult[];
  /** Median over rounds of the measured process's CPU per operation (apiserver for the server side, etcd for the raw side), ms. */
  cpuMsPerOp: number;
  /** Every round's CPU per operation, ms, in time order. */
  roundsCpuMsPerOp: number[];
  /** The server side only: median over rounds of the apiserver's CPU per op off its main thread (V8's GC and compiler workers), ms. */
  workerCpuMsPerOp?: number;
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The median round (by throughput) with every round and the median CPU per op attached. */
export function summarize(rounds: LoadResult[], cpuSeconds: (r: LoadResult) => number, offMainSeconds?: (r: LoadResult) => number): Rounds {
  const byRate = [...rounds].sort((a, b) => a.opsPerSec - b.opsPerSec);
  const mid = byRate[(byRate.length - 1) >> 1];
  const perOp = (f: (r: LoadResult) => number): number[] => rounds.map((r) => round3((f(r) * 1000) / Math.max(1, r.ops)));
  const all = perOp(cpuSeconds);
  return { ...mid, rounds, cpuMsPerOp: median(all), roundsCpuMsPerOp: all, ...(offMainSeconds ? { workerCpuMsPerOp: median(perOp(offMainSeconds)) } : {}) };
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** Runs `count` rounds of both sides, alternating which goes first; round r is told its index. */
async function alternateRaw(count: number, first: (round: number) => Promise<LoadResult>, second: (round: number) => Promise<LoadResult>): Promise<[LoadResult[], LoadResult[]]> {
  const a: LoadResult[] = [];
  const b: LoadResult[] = [];
  for (let r = 0; r < count; r++) {
    if (r % 2 === 0) {
      a.push(await first(r));
      b.push(await second(r));
    } else {
      b.push(await second(r));
      a.push(await first(r));
    }
  }
  return [a, b];
}

const apiserverRounds = (rounds: LoadResult[]): Rounds => summarize(rounds, (x) => x.cpu.apiserver, (x) => x.cpu.apiserver - x.cpu.apiserverMain);

/** The apiserver against raw etcd: each side's CPU per op is its own process's. */
export async function alternate(
  count: number,
  server: (round: number) => Promise<LoadResult>,
  etcd: (round: number) => Promise<LoadResult>,
): Promise<{ server: Rounds; etcd: Rounds }> {
  const [s, e] = await alternateRaw(count, server, etcd);
  return { server: apiserverRounds(s), etcd: summarize(e, (x) => x.cpu.etcd) };
}

/** Two workloads on the same apiserver (a built-in kind and a custom resource): both sides' CPU per op is the apiserver's. */
export async function alternateOnServer(
  count: number,
  a: (round: number) => Promise<LoadResult>,
  b: (round: number) => Promise<LoadResult>,
): Promise<{ a: Rounds; b: Rounds }> {
  const [x, y] = await alternateRaw(count, a, b);
  return { a: apiserverRounds(x), b: apiserverRounds(y) };
}
