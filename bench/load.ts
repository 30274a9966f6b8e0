// Closed-loop load: N workers, each issuing its next operation when the previous one answers,
// over a fixed count or a fixed duration; wall-clock throughput, latency percentiles and the CPU
// every process used meanwhile.
import { performance } from 'node:perf_hooks';
import { cpuSeconds } from './cluster';

export interface Percentiles {
  p50: number;
  p99: number;
  max: number;
}

export function percentiles(values: ArrayLike<number>, n = values.length): Percentiles {
  if (n === 0) return { p50: NaN, p99: NaN, max: NaN };
  const sorted = Float64Array.from({ length: n }, (_, i) => values[i]).sort();
  const at = (q: number): number => sorted[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))];
  return { p50: at(0.5), p99: at(0.99), max: sorted[n - 1] };
}

/** CPU seconds per process during a measurement. */
export interface CpuUse {
  apiserver: number;
  etcd: number;
  bench: number;
  /** The apiserver's main thread alone (the rest is V8's GC and compiler workers and libuv's pool). */
  apiserverMain: number;
}

const cpuKeys = ['apiserver', 'etcd', 'bench', 'apiserverMain'] as const satisfies readonly (keyof CpuUse)[];

/** The CPU of several measurements (rounds, slices) added up, per process, to 10 ms. */
export function sumCpu(results: readonly LoadResult[]): CpuUse {
  const out = {} as CpuUse;
  for (const k of cpuKeys) out[k] = round(results.reduce((a, r) => a + r.cpu[k], 0), 2);
  return out;
}

export interface Pids {
  apiserver: number;
  etcd: number;
}

export class CpuMeter {
  private readonly a: number;
  private readonly e: number;
  private readonly b: NodeJS.CpuUsage;
  private readonly m: number;
  constructor(private readonly pids: Pids) {
    this.m = cpuSeconds(pids.apiserver, pids.apiserver);
    this.a = cpuSeconds(pids.apiserver);
    this.e = cpuSeconds(pids.etcd);
    this.b = process.cpuUsage();
  }
  read(): CpuUse {
    const b = process.cpuUsage(this.b);
    return {
      apiserver: round(cpuSeconds(this.pids.apiserver) - this.a, 2),
      etcd: round(cpuSeconds(this.pids.etcd) - this.e, 2),
      bench: round((b.user + b.system) / 1e6, 2),
      apiserverMain: round(cpuSeconds(this.pids.apiserver, this.pids.apiserver) - this.m, 2),
    };
  }
}

export interface LoadResult {
  ops: number;
  errors: number;
  seconds: number;
  opsPerSec: number;
  /** Per-operation latency in milliseconds. */
  latencyMs: Percentiles;
  cpu: CpuUse;
  /** When it ran, CLOCK_MONOTONIC µs (the clock of V8's .cpuprofile timestamps): bench/profile.ts cuts a profile to it. */
  monotonicUs?: [number, number];
  firstError?: string;
}

export interface LoadOptions {
  concurrency: number;
  /** Stop after this many operations… */
  count?: number;
  /** …or after this many seconds (whichever is given). */
  seconds?: number;
  pids: Pids;
}

/** Runs op(i) for i = 0, 1, … with `concurrency` in flight; an op throws to count an error. */
export async function runLoad(opts: LoadOptions, op: (i: number) => Promise<void>): Promise<LoadResult> {
  const cap = opts.count ?? Infinity;
  const lat: number[] = [];
  let next = 0;
  let done = 0;
  let errors = 0;
  let firstError: string | undefined;
  const meter = new CpuMeter(opts.pids);
  const startUs = monotonicUs();
  const start = performance.now();
  const stopAt = opts.seconds !== undefined ? start + opts.seconds * 1000 : Infinity;
  const worker = async (): Promise<void> => {
    for (;;) {
      if (next >= cap || performance.now() >= stopAt) return;
      const i = next++;
      const t0 = performance.now();
      try {
        await op(i);
      } catch (e) {
        errors++;
        firstError ??= (e as Error).message;
      }
      lat.push(performance.now() - t0);
      done++;
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  const seconds = (performance.now() - start) / 1000;
  const latencyMs = percentiles(lat, done);
  return {
    ops: done,
    errors,
    seconds: round(seconds, 3),
    opsPerSec: round(done / seconds, 1),
    latencyMs: { p50: round(latencyMs.p50, 2), p99: round(latencyMs.p99, 2), max: round(latencyMs.max, 2) },
    cpu: meter.read(),
    monotonicUs: [startUs, monotonicUs()],
    ...(firstError ? { firstError } : {}),
  };
}

const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

export function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
