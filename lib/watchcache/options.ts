// Options of a WatchCache: sizes, time limits, clock, metrics callbacks (no prom-client here)
// and the logger its debug records go to.
import type { Logger } from 'pino';
import type { Storage } from '../etcd/storage';
import type { SetTimer } from './bookmarkSchedule';
import type { Schedule } from './revisionReader';
import type { WatchBudget } from '../machinery/watchBudget';

/** Metric callbacks; lib/watchcache never imports a metrics library. */
export interface WatchCacheMetrics {
  /** Events received from the underlying watch (called once per batch with its size). */
  onEventsReceived?(count: number): void;
  /** The cache's revision moved (gauge: watch_cache resource version). */
  onRevision?(revision: number): void;
  /** Number of open watchers served by this cache (gauge). */
  onWatcherCount?(count: number): void;
  /** A watcher was terminated for falling behind. */
  onWatcherTerminated?(reason: string): void;
  /** The cache (re)listed the prefix: initial start, or after its watch failed. */
  onInitialized?(revision: number, objects: number): void;
  /** Listing the prefix failed; the cache retries with backoff (reads go to the store meanwhile). */
  onInitializeFailed?(err: Error): void;
  /**
   * A consistent read the cache took on (upstream's apiserver_watch_cache_consistent_read_total):
   * served from the cache (success, no fallback), failed, or answered by the store after the
   * cache did not catch up in time (fallback). Reads sent to the store at once — cache not
   * ready, or unordered progress replies — are not counted, as upstream.
   */
  onConsistentRead?(success: boolean, fallback: boolean): void;
  /** Current size of the event window (gauge). */
  onWindowSize?(events: number, bytes: number): void;
}

export interface WatchCacheOptions {
  underlying: Storage;
  /** The one key prefix this cache holds, e.g. '/registry/serviceaccounts/'. */
  prefix: string;
  /** Event window: never fewer than this many events are dropped for age (upstream: 100). */
  windowMinEvents?: number;
  /** Event window: hard cap on events (upstream: 102400). */
  windowMaxEvents?: number;
  /** Event window: hard cap on the bytes of values and previous values it holds. */
  windowMaxBytes?: number;
  /** Events younger than this are kept (within the caps); older ones go beyond windowMinEvents. */
  windowRetentionMs?: number;
  /** A paused watcher may have at most this many undelivered live events... */
  watcherMaxPendingEvents?: number;
  /** ...and at most this many bytes of them; beyond either it ends with WatcherTooSlowError. */
  watcherMaxPendingBytes?: number;
  /** Largest batch handed to one onEvents call. */
  maxBatchEvents?: number;
  /** The server-wide watch budget the queues of direct watchers count in (none: only their own bounds). */
  watchBudget?: WatchBudget;
  /** How long a read waits for the cache to reach a revision (upstream: 3 s). */
  freshnessTimeoutMs?: number;
  /** While a reader waits, how often the cache asks the underlying store for progress. */
  progressRequestIntervalMs?: number;
  /**
   * Page size of the initial list (default 500, client-go's pager default; upstream's cacher asks
   * 10,000). Smaller pages keep the fill's transient native memory small: at 100k objects, RSS
   * after GC was ~360 MiB with pages of 500, ~370 with 1,000, ~390 with 2,000 and ~450 with
   * 10,000, because glibc cannot give back a heap the long-lived values were scattered through.
   */
  initialListPageSize?: number;
  /**
   * Copy watch events' values into buffers of their own size (default true): the etcd3 backend
   * packs one message's values into one buffer. The initial list's values are kept as views of
   * their page's buffer and copied out once fewer than half of that buffer's values remain
   * (sharedValues.ts). False shares the underlying store's buffers as they are (right for
   * MemoryStorage, whose values are exact already).
   */
  copyValues?: boolean;
  /**
   * The store answers a progress request only after every earlier event (default true).
   * etcd before 3.4.25 / 3.5.8 may answer it ahead of events still queued for the watch
   * (etcd-io/etcd#15220); the cache would then believe a revision it has not seen. With false
   * the cache never requests progress: its revision moves only with events and etcd's own
   * periodic (safe) notifications, consistent reads go to the store, and a NotOlderThan read
   * the cache has not reached is answered by the store instead of waiting.
   */
  progressRequestsOrdered?: boolean;
  /** Clock for window ages and bookmark times; default Date.now. */
  now?: () => number;
  /** Timers on the same clock (the periodic-bookmark schedule); default an unref'd setTimeout. */
  setTimer?: SetTimer;
  /** Jitter source of the bookmark schedule; default Math.random. */
  random?: () => number;
  /** When a shared revision read for consistent reads is sent (default setImmediate: readers arriving together share it). */
  schedule?: Schedule;
  metrics?: WatchCacheMetrics;
  /**
   * Debug records of start, stop, re-lists and watchers cut off (a child logger with
   * component=watchcache, from the entry point); none without one.
   */
  log?: Logger;
}

export interface ResolvedOptions {
  windowMinEvents: number;
  windowMaxEvents: number;
  windowMaxBytes: number;
  windowRetentionMs: number;
  watcherMaxPendingEvents: number;
  watcherMaxPendingBytes: number;
  maxBatchEvents: number;
  watchBudget: WatchBudget | undefined;
  freshnessTimeoutMs: number;
  progressRequestIntervalMs: number;
  initialListPageSize: number;
  copyValues: boolean;
  progressRequestsOrdered: boolean;
  now: () => number;
  setTimer: SetTimer;
  random: () => number;
  schedule: Schedule;
  metrics: WatchCacheMetrics;
  log: Logger | undefined;
}

export const watchCacheDefaults: Readonly<Omit<ResolvedOptions, 'now' | 'setTimer' | 'random' | 'schedule' | 'metrics' | 'log' | 'copyValues' | 'progressRequestsOrdered' | 'watchBudget'>> = {
  windowMinEvents: 100,
  windowMaxEvents: 102_400,
  windowMaxBytes: 256 * 1024 * 1024,
  windowRetentionMs: 5 * 60 * 1000,
  watcherMaxPendingEvents: 1000,
  watcherMaxPendingBytes: 16 * 1024 * 1024,
  maxBatchEvents: 1000,
  freshnessTimeoutMs: 3000,
  progressRequestIntervalMs: 100,
  initialListPageSize: 500,
};

export function resolveOptions(opts: WatchCacheOptions): ResolvedOptions {
  const pick = <K extends keyof typeof watchCacheDefaults>(k: K): number => {
    const v = opts[k];
    if (v === undefined) return watchCacheDefaults[k];
    if (!Number.isFinite(v) || v < 0) throw new RangeError(`watch cache option ${k} must be a non-negative number, got ${v}`);
    return v;
  };
  const r: ResolvedOptions = {
    windowMinEvents: pick('windowMinEvents'),
    windowMaxEvents: pick('windowMaxEvents'),
    windowMaxBytes: pick('windowMaxBytes'),
    windowRetentionMs: pick('windowRetentionMs'),
    watcherMaxPendingEvents: pick('watcherMaxPendingEvents'),
    watcherMaxPendingBytes: pick('watcherMaxPendingBytes'),
    maxBatchEvents: Math.max(1, pick('maxBatchEvents')),
    watchBudget: opts.watchBudget,
    freshnessTimeoutMs: pick('freshnessTimeoutMs'),
    progressRequestIntervalMs: Math.max(1, pick('progressRequestIntervalMs')),
    initialListPageSize: Math.max(1, pick('initialListPageSize')),
    copyValues: opts.copyValues ?? true,
    progressRequestsOrdered: opts.progressRequestsOrdered ?? true,
    now: opts.now ?? Date.now,
    setTimer: opts.setTimer ?? unrefTimer,
    random: opts.random ?? Math.random,
    schedule: opts.schedule ?? setImmediate,
    metrics: opts.metrics ?? {},
    log: opts.log,
  };
  if (r.windowMinEvents > r.windowMaxEvents) throw new RangeError('windowMinEvents exceeds windowMaxEvents');
  return r;
}

/** A timer that does not keep the process alive. */
function unrefTimer(callback: () => void, ms: number): { cancel(): void } {
  const t = setTimeout(callback, ms);
  t.unref();
  return { cancel: () => clearTimeout(t) };
}
