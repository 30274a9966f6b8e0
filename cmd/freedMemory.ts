// Gives the pages that glibc's malloc keeps after a full GC back to the kernel. A burst of
// requests leaves the native heap fragmented: freed request buffers sit between live stored
// values, glibc's free() only ever returns the top of an arena, and a third of the RSS the
// apiserver was left with was such free pages (docs/perf/README.md, 2026-11-29). glibc's
// malloc_trim(0) madvises them away; it comes from native/mallocTrim.c, which `make build`
// compiles when a C compiler is there. Without it the server runs as before.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import type { Clock, Timer } from '../lib/client/clock';

export interface MallocTrim {
  /** glibc's malloc_trim(0): true when memory was given back. */
  trim(): boolean;
}

/** Where `make build` puts the module: dist/native/, beside dist/cmd/ where this file runs from. */
const builtMallocTrimPath = path.join(__dirname, '..', 'native', 'mallocTrim.node');

/** The compiled module at `file`, or why it is not there (no C compiler at build time, not glibc). */
export function loadMallocTrim(file = builtMallocTrimPath): MallocTrim | string {
  if (!existsSync(file)) return `${file} was not built (no C compiler when make build ran)`;
  try {
    const mod = { exports: {} as Partial<MallocTrim> };
    process.dlopen(mod, file);
    return typeof mod.exports.trim === 'function' ? (mod.exports as MallocTrim) : `${file} exports no trim()`;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * At most one trim per `minIntervalMs`, and never more than `minIntervalMs` after a full GC: a
 * GC within the interval of the last trim is followed by one at the interval's end. A trim walks
 * every free chunk (about 10 ms for 300 MB here), so it is not run after every full GC of a busy
 * server, but the pages a GC freed are always handed back soon after.
 */
export class TrimSchedule {
  private lastTrim = -Infinity;
  private pending: Timer | undefined;

  constructor(
    private readonly trim: () => void,
    private readonly minIntervalMs: number,
    private readonly clock: Clock,
  ) {}

  fullGc(): void {
    if (this.pending) return;
    const wait = Math.max(0, this.lastTrim + this.minIntervalMs - this.clock.now());
    this.pending = this.clock.setTimeout(() => {
      this.pending = undefined;
      this.lastTrim = this.clock.now();
      this.trim();
    }, wait);
  }

  stop(): void {
    this.pending?.cancel();
    this.pending = undefined;
  }
}

// A 'gc' performance entry; this @types/node does not declare its detail.
type GcEntry = PerformanceEntry & { detail?: { kind?: number } };

export interface TrimObservation {
  released: boolean;
  seconds: number;
}

/** Trims on `schedule` after every full (mark-compact) GC V8 reports; returns the stop function. */
export function trimAfterFullGcs(trimmer: MallocTrim, minIntervalMs: number, observe: (o: TrimObservation) => void): () => void {
  const schedule = new TrimSchedule(
    () => {
      const start = process.hrtime.bigint();
      const released = trimmer.trim();
      observe({ released, seconds: Number(process.hrtime.bigint() - start) / 1e9 });
    },
    minIntervalMs,
    unrefClock,
  );
  const observer = new PerformanceObserver((list) => {
    if (list.getEntries().some((e) => (e as GcEntry).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) schedule.fullGc();
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    observer.disconnect();
    schedule.stop();
  };
}

// The pending trim must not keep a stopping process alive.
const unrefClock: Clock = {
  now: () => Date.now(),
  setTimeout(callback, ms) {
    const handle = setTimeout(callback, ms).unref();
    return { cancel: () => clearTimeout(handle) };
  },
};
