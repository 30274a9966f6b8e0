// The watch cache (DESIGN.md §2.4, §2.8; watch-and-list.md §5–§7): a Storage for ONE key prefix
// that delegates to an underlying Storage. It lists the prefix once at revision R, then follows
// one underlying watch from R + 1 (with progress notifications), keeping the current state (key →
// KeyValue, plus a sorted key index) and a bounded window of recent events.
//
// Reads: a list/get at a revision the in-memory state is exact for is served from memory; any
// other explicit revision goes to the underlying store (exact reads, continue tokens). A list
// without a revision is a consistent read from the cache (the store's current revision, then a
// wait ≤ 3 s for the cache to reach it, else the store); Storage.get without a revision is a
// quorum read from the store. listFromCache/getFromCache carry the API's Any, NotOlderThan and
// Consistent semantics; the store's current revision for Consistent comes from one quorum read
// shared by the readers waiting at that moment (revisionReader.ts). Writes pass through.
//
// Watches: from the window when it holds every event from the start revision on; from a
// dedicated underlying watch when the revision is older than the window (the store then serves
// it, or answers CompactedError); each watcher is flow-controlled and bounded (cacheWatch.ts).
// A watch with progressNotify gets upstream's periodic bookmark (about every minute and 2 s
// before its timeoutMs) from one schedule per cache, at the cache's revision: it needs no
// progress request to the store, so it works on etcd whose progress replies are unordered.
// Progress notifications of the cache's own store watch only move the cache's revision (as
// upstream, storage-layer bookmarks are not passed on); a requestProgress() on the cache is
// answered to its watchers at the cache's revision.
//
// When the underlying watch fails for good (etcd3 resumes by itself; it fails on compaction),
// the cache ends its watchers (so their clients re-list) and lists the prefix again.
import { Backoff } from '../etcd/backoff';
import { checkStartKey, keyAfter } from '../etcd/keys';
import {
  CompactedError,
  DeleteStorageOptions,
  FutureRevisionError,
  GetResult,
  GuaranteedUpdateOptions,
  KeyValue,
  ListOptions,
  ListResult,
  Storage,
  UnavailableError,
  Watch,
  WatchEvent,
  WatchHandlers,
  WatchOptions,
} from '../etcd/storage';
import { BookmarkSchedule } from './bookmarkSchedule';
import type { CacheWatch, WatcherLimits } from './cacheWatch';
import { CacheWatcher, WatcherHost } from './cacheWatcher';
import { DirectWatcher } from './directWatcher';
import { CacheReinitializingError } from './errors';
import { EventWindow, WindowEntry } from './eventWindow';
import { LazyWatch } from './lazyWatch';
import { ResolvedOptions, resolveOptions, WatchCacheOptions } from './options';
import { RevisionReader } from './revisionReader';
import { RevisionWaiters } from './revisionWaiters';
import { SharedValues } from './sharedValues';
import { SortedKeys } from './sortedKeys';

/** Options of listFromCache: the API's resourceVersion semantics (watch-and-list.md §5). */
export interface CacheListOptions {
  /** Maximum number of keys (0 or absent: unlimited). */
  limit?: number;
  /** Start at this key (inclusive); must lie inside the prefix. */
  startKey?: string;
  /** NotOlderThan: wait up to the freshness timeout for the cache to reach it, else FutureRevisionError. */
  minRevision?: number;
  /** Consistent: at least the store's current revision; falls back to the store after the timeout. */
  consistent?: boolean;
}

export interface CacheGetOptions {
  minRevision?: number;
  consistent?: boolean;
}

/** A snapshot of the cache's bookkeeping, for tests, metrics and debugging. */
export interface WatchCacheStats {
  ready: boolean;
  revision: number;
  objects: number;
  windowEvents: number;
  windowBytes: number;
  /** A watch from revision S is served from the window iff S - 1 ≥ this. */
  windowCompleteAfter: number;
  watchers: number;
  directWatchers: number;
  initializations: number;
}

const closedWatch: CacheWatch = { close() {}, pause() {}, resume() {} };

export class WatchCache implements Storage, WatcherHost {
  readonly prefix: string;
  private readonly underlying: Storage;
  private readonly o: ResolvedOptions;
  private readonly limits: WatcherLimits;
  private readonly state = new Map<string, KeyValue>();
  /** Which state values are views of the initial list's shared buffers (copyValues only). */
  private readonly shared = new SharedValues();
  private readonly index = new SortedKeys();
  private readonly waiters: RevisionWaiters;
  private readonly revisionReader: RevisionReader;
  readonly window: EventWindow;
  /** Revision the cache has seen everything up to (events and progress). */
  private revision = 0;
  /** The in-memory state is exact for every revision in [stateFrom, revision]. */
  private stateFrom = 0;
  private ready = false;
  private closed = false;
  /** Highest compaction that went through this cache: reads and watches below it are not served. */
  private compactedTo = 0;
  private generation = 0;
  private initializations = 0;
  private source: Watch | undefined;
  private readonly watchers = new Set<CacheWatcher>();
  private readonly direct = new Set<DirectWatcher>();
  private readonly bookmarks: BookmarkSchedule;
  private readonly backoff = new Backoff(100, 2000);
  private retryTimer: NodeJS.Timeout | undefined;
  private started: Promise<void> | undefined;
  private resolveStarted: (() => void) | undefined;
  private rejectStarted: ((err: Error) => void) | undefined;

  constructor(opts: WatchCacheOptions) {
    if (!opts.prefix) throw new RangeError('watch cache needs a non-empty key prefix');
    this.prefix = opts.prefix;
    this.underlying = opts.underlying;
    this.o = resolveOptions(opts);
    this.limits = {
      maxPendingEvents: this.o.watcherMaxPendingEvents,
      maxPendingBytes: this.o.watcherMaxPendingBytes,
      maxBatchEvents: this.o.maxBatchEvents,
      budget: this.o.watchBudget,
    };
    this.window = new EventWindow(
      { minEvents: this.o.windowMinEvents, maxEvents: this.o.windowMaxEvents, maxBytes: this.o.windowMaxBytes, retentionMs: this.o.windowRetentionMs },
      0,
    );
    this.waiters = new RevisionWaiters(() => this.requestStoreProgress(), this.o.progressRequestIntervalMs, () => this.revision);
    // One progress request per shared revision read the cache has not reached yet: the reply
    // (ordered after pending events) brings the cache there when its prefix is idle.
    this.revisionReader = new RevisionReader(
      () => this.underlying.currentRevision(),
      (revision) => {
        if (revision > this.revision) this.requestStoreProgress();
      },
      this.o.schedule,
    );
    this.bookmarks = new BookmarkSchedule(this.o.now, this.o.setTimer, this.o.random);
  }

  /**
   * Lists the prefix and starts following it; resolves once the cache is ready. A failed list
   * is retried with backoff (meanwhile every read goes to the underlying store). Idempotent.
   */
  start(): Promise<void> {
    if (!this.started) {
      this.started = new Promise<void>((resolve, reject) => {
        this.resolveStarted = resolve;
        this.rejectStarted = reject;
      });
      this.o.log?.debug({ prefix: this.prefix }, 'watch cache starting');
      void this.initialize(this.generation);
    }
    return this.started;
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** The revision the cache has observed everything up to (0 before the first list). */
  get cacheRevision(): number {
    return this.revision;
  }

  stats(): WatchCacheStats {
    return {
      ready: this.ready,
      revision: this.revision,
      objects: this.state.size,
      windowEvents: this.window.length,
      windowBytes: this.window.bytes,
      windowCompleteAfter: this.window.completeAfterRevision,
      watchers: this.watchers.size,
      directWatchers: this.direct.size,
      initializations: this.initializations,
    };
  }

  /** Resolves once the cache has seen everything up to revision; FutureRevisionError after timeoutMs. */
  waitUntilFresh(revision: number, timeoutMs: number = this.o.freshnessTimeoutMs, askProgressNow = true): Promise<void> {
    if (this.closed) return Promise.reject(new UnavailableError('watch cache is closed', this.prefix));
    if (this.ready && this.revision >= revision) return Promise.resolve();
    return this.waiters.wait(revision, timeoutMs, askProgressNow);
  }

  /** Shared quorum reads of the store's revision for consistent reads, and the readers they served. */
  consistentReadStats(): { reads: number; readers: number } {
    return this.revisionReader.stats();
  }

  // ---- reads ----

  async get(key: string, opts: { revision?: number } = {}): Promise<GetResult> {
    this.checkOpen();
    const revision = opts.revision ?? 0;
    if (revision > 0 && this.covers(key) && this.canServeAt(revision)) return { kv: this.state.get(key) ?? null, revision };
    return this.underlying.get(key, opts);
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    this.checkOpen();
    if (opts.startKey !== undefined) checkStartKey(prefix, opts.startKey);
    if (!this.covers(prefix)) return this.underlying.list(prefix, opts);
    const revision = opts.revision ?? 0;
    if (revision === 0) return this.listFromCache(prefix, { limit: opts.limit, startKey: opts.startKey, consistent: true });
    if (this.canServeAt(revision)) return this.listFromState(prefix, opts.limit, opts.startKey, revision);
    return this.underlying.list(prefix, opts);
  }

  /**
   * A list with the API's semantics: Any (no options: whatever the cache has, no wait),
   * NotOlderThan (minRevision), Consistent (consistent). Same result shape as list(); the
   * result's revision is the cache's revision it was served at.
   */
  async listFromCache(prefix: string, opts: CacheListOptions = {}): Promise<ListResult> {
    this.checkOpen();
    const startKey = opts.startKey ?? prefix;
    checkStartKey(prefix, startKey);
    const fallback = (): Promise<ListResult> => this.underlying.list(prefix, { limit: opts.limit, startKey: opts.startKey });
    if (!this.covers(prefix)) return this.notOlderThan(await fallback(), opts.minRevision);
    const how = await this.awaitFreshness(opts.minRevision ?? 0, opts.consistent ?? false);
    if (how === 'cache') return this.listFromState(prefix, opts.limit, opts.startKey, this.revision);
    return this.notOlderThan(await this.counted(how, fallback), opts.minRevision);
  }

  /**
   * A read at resourceVersion=0 semantics answered now, without a turn of the event loop: the
   * key's value (null when absent) once the cache is ready and covers it, else undefined (then
   * getFromCache decides).
   */
  peek(key: string): KeyValue | null | undefined {
    if (this.closed || !this.ready || !this.covers(key)) return undefined;
    return this.state.get(key) ?? null;
  }

  /**
   * A get with the API's semantics: resourceVersion unset = consistent (the object as of the
   * store's revision read after the call, from the cache once it has reached it, else the
   * store), "0" = Any (no options), N = minRevision.
   */
  async getFromCache(key: string, opts: CacheGetOptions = {}): Promise<GetResult> {
    this.checkOpen();
    if (!this.covers(key)) return this.notOlderThan(await this.underlying.get(key), opts.minRevision);
    const how = await this.awaitFreshness(opts.minRevision ?? 0, opts.consistent ?? false);
    if (how === 'cache') return { kv: this.state.get(key) ?? null, revision: this.revision };
    return this.notOlderThan(await this.counted(how, () => this.underlying.get(key)), opts.minRevision);
  }

  /** A store read; counted as a consistent read's fallback when it is one. */
  private async counted<T>(how: 'store' | 'fallback', read: () => Promise<T>): Promise<T> {
    if (how === 'store') return read();
    try {
      const r = await read();
      this.o.metrics.onConsistentRead?.(true, true);
      return r;
    } catch (err) {
      this.o.metrics.onConsistentRead?.(false, true);
      throw err;
    }
  }

  // ---- writes: straight through ----

  create(key: string, value: Uint8Array): Promise<KeyValue> {
    this.checkOpen();
    return this.underlying.create(key, value);
  }

  /** Passes the cache's value of the key as a suggestion: the store may skip reading it (it re-checks what it decides). */
  guaranteedUpdate(
    key: string,
    tryUpdate: (current: KeyValue | null) => Uint8Array | null | Promise<Uint8Array | null>,
    opts: GuaranteedUpdateOptions = {},
  ): Promise<KeyValue> {
    this.checkOpen();
    if (opts.suggestion === undefined && this.ready && this.covers(key)) opts = { ...opts, suggestion: this.state.get(key) ?? null };
    return this.underlying.guaranteedUpdate(key, tryUpdate, opts);
  }

  delete(key: string, opts?: DeleteStorageOptions): Promise<{ prev: KeyValue; revision: number }> {
    this.checkOpen();
    return this.underlying.delete(key, opts);
  }

  async compact(revision: number): Promise<void> {
    this.checkOpen();
    await this.underlying.compact(revision);
    // Keep the window consistent with the store: no watch from a compacted revision is served.
    if (revision > this.compactedTo) this.compactedTo = revision;
    this.dropFromWindow((onEvict) => this.window.dropBefore(revision, onEvict));
  }

  currentRevision(): Promise<number> {
    this.checkOpen();
    return this.underlying.currentRevision();
  }

  /**
   * Storage's progress request: the cache's watchers are told its revision (everything up to it
   * is in the window); dedicated watches hear from the store, which is asked when that is safe.
   */
  requestProgress(): void {
    if (this.closed) return;
    this.requestStoreProgress();
    for (const w of this.watchers) w.onProgress(this.revision);
  }

  // ---- watches ----

  watch(key: string, opts: WatchOptions, handlers: WatchHandlers): CacheWatch {
    if (this.closed) return closedWatch;
    const prefix = opts.prefix ?? true;
    // Fixed now, not when a lazy watch attaches: the consumer's clock started with this call.
    const deadline = opts.timeoutMs === undefined ? undefined : this.o.now() + opts.timeoutMs;
    if (!this.covers(key)) return this.directWatch(key, opts, handlers, deadline);
    if (opts.startRevision) return this.watchFrom(key, prefix, opts.startRevision, opts, handlers, deadline);
    // "Changes after the current revision": the store's, not the cache's (which may lag a write
    // that just returned). Decided asynchronously; the handle works meanwhile.
    const lazy = new LazyWatch();
    this.underlying.currentRevision().then(
      (current) => {
        if (lazy.isClosed || this.closed) return;
        lazy.attach(this.watchFrom(key, prefix, current + 1, opts, handlers, deadline));
      },
      () => {
        if (lazy.isClosed || this.closed) return;
        lazy.attach(this.directWatch(key, opts, handlers, deadline));
      },
    );
    return lazy;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.o.log?.debug({ prefix: this.prefix, watchers: this.watchers.size + this.direct.size }, 'watch cache stopping');
    this.closed = true;
    this.ready = false;
    this.generation++;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.bookmarks.stop();
    this.source?.close();
    this.source = undefined;
    for (const w of [...this.watchers]) w.close();
    for (const w of [...this.direct]) w.close();
    const err = new UnavailableError('watch cache is closed', this.prefix);
    this.waiters.failAll(err);
    this.rejectStarted?.(err);
    this.state.clear();
    this.shared.clear();
    this.index.reset([]);
    this.window.reset(0);
  }

  // ---- WatcherHost ----

  removeWatcher(w: CacheWatcher): void {
    if (this.watchers.delete(w)) this.o.metrics.onWatcherCount?.(this.watchers.size + this.direct.size);
  }

  watcherTerminated(reason: string, key: string): void {
    this.o.log?.debug({ prefix: this.prefix, key, reason }, 'watcher cut off: too slow');
    this.o.metrics.onWatcherTerminated?.(reason);
  }

  // ---- internals ----

  private requestStoreProgress(): void {
    if (!this.closed && this.o.progressRequestsOrdered) this.underlying.requestProgress();
  }

  private checkOpen(): void {
    if (this.closed) throw new UnavailableError('watch cache is closed', this.prefix);
  }

  /** The key or prefix lies inside this cache's prefix. */
  private covers(keyOrPrefix: string): boolean {
    return keyOrPrefix.startsWith(this.prefix);
  }

  private canServeAt(revision: number): boolean {
    return this.ready && revision >= this.stateFrom && revision <= this.revision && revision >= this.compactedTo;
  }

  /**
   * Waits per the API semantics: 'cache' when the cache may serve now, 'store' when the caller
   * should read the store instead (not ready, or unordered progress replies), 'fallback' when a
   * consistent read's wait timed out (the store answers; counted as upstream's fallback).
   * NotOlderThan that times out throws FutureRevisionError.
   */
  private async awaitFreshness(minRevision: number, consistent: boolean): Promise<'cache' | 'store' | 'fallback'> {
    if (!this.o.progressRequestsOrdered) {
      // No progress requests: serve only what the cache has already seen, else the store.
      if (consistent || this.revision < minRevision) return 'store';
      return this.ready ? 'cache' : 'store';
    }
    if (consistent) {
      // Not ready (starting, or re-listing after its watch failed): the store answers at once,
      // as upstream's cacher delegates then, rather than every read waiting out the timeout.
      if (!this.ready) return 'store';
      try {
        const target = Math.max(await this.revisionReader.current(), minRevision);
        // The shared read asked for progress already when the cache was behind it.
        await this.waitUntilFresh(target, this.o.freshnessTimeoutMs, false);
      } catch (err) {
        if (err instanceof FutureRevisionError) return 'fallback';
        this.o.metrics.onConsistentRead?.(false, false);
        throw err;
      }
      if (!this.ready) return 'fallback';
      this.o.metrics.onConsistentRead?.(true, false);
      return 'cache';
    } else if (minRevision > 0) {
      try {
        await this.waitUntilFresh(minRevision);
      } catch (err) {
        if (!(err instanceof FutureRevisionError) || this.ready) throw err;
        return 'store'; // never became ready: the store decides (notOlderThan checks it)
      }
    }
    return this.ready ? 'cache' : 'store'; // checked after the await: a re-initialization may have started
  }

  private notOlderThan<T extends { revision: number }>(res: T, minRevision: number | undefined): T {
    if (minRevision && res.revision < minRevision) throw new FutureRevisionError(minRevision, res.revision);
    return res;
  }

  private listFromState(prefix: string, limit: number | undefined, startKey: string | undefined, revision: number): ListResult {
    const lo = this.index.lowerBound(startKey ?? prefix);
    const hi = this.index.prefixEndIndex(prefix, lo);
    const count = hi - lo;
    const n = limit && limit > 0 ? Math.min(limit, count) : count;
    const kvs = new Array<KeyValue>(n);
    for (let i = 0; i < n; i++) kvs[i] = this.state.get(this.index.at(lo + i))!;
    return { kvs, revision, more: count > n, count };
  }

  private watchFrom(key: string, prefix: boolean, startRevision: number, opts: WatchOptions, handlers: WatchHandlers, deadline: number | undefined): CacheWatch {
    if (!this.ready || !this.window.covers(startRevision)) {
      return this.directWatch(key, { startRevision, prefix, progressNotify: opts.progressNotify }, handlers, deadline);
    }
    const w = new CacheWatcher(this, key, prefix, startRevision, handlers, this.limits, this.window.seqForRevision(startRevision), deadline);
    this.watchers.add(w);
    this.o.metrics.onWatcherCount?.(this.watchers.size + this.direct.size);
    if (opts.progressNotify) this.bookmarks.add(w);
    return w;
  }

  private directWatch(key: string, opts: WatchOptions, handlers: WatchHandlers, deadline: number | undefined): CacheWatch {
    const w = new DirectWatcher(
      this.underlying,
      key,
      opts,
      handlers,
      this.limits,
      (d) => {
        if (this.direct.delete(d)) this.o.metrics.onWatcherCount?.(this.watchers.size + this.direct.size);
      },
      (reason) => this.watcherTerminated(reason, key),
      deadline,
    );
    this.direct.add(w);
    this.o.metrics.onWatcherCount?.(this.watchers.size + this.direct.size);
    if (opts.progressNotify) this.bookmarks.add(w);
    return w;
  }

  private async initialize(gen: number): Promise<void> {
    try {
      const first = await this.underlying.list(this.prefix, { limit: this.o.initialListPageSize });
      const revision = first.revision;
      const kvs = first.kvs;
      let page = first;
      while (page.more && page.kvs.length > 0) {
        page = await this.underlying.list(this.prefix, {
          revision,
          limit: this.o.initialListPageSize,
          startKey: keyAfter(page.kvs[page.kvs.length - 1].key),
        });
        for (const kv of page.kvs) kvs.push(kv);
      }
      if (gen !== this.generation) return;
      this.state.clear();
      this.shared.clear();
      const keys = new Array<string>(kvs.length);
      for (let i = 0; i < kvs.length; i++) {
        const kv = kvs[i];
        keys[i] = kv.key;
        this.state.set(kv.key, { key: kv.key, value: kv.value, modRevision: kv.modRevision, createRevision: kv.createRevision });
        if (this.o.copyValues) this.shared.adopt(kv.key, kv.value);
      }
      this.index.reset(keys);
      this.window.reset(revision);
      this.revision = revision;
      this.stateFrom = revision;
      this.ready = true;
      this.initializations++;
      this.backoff.reset();
      this.source = this.underlying.watch(this.prefix, { startRevision: revision + 1, prefix: true, progressNotify: true }, {
        onEvents: (events) => {
          if (gen === this.generation) this.apply(events);
        },
        onProgress: (rev) => {
          if (gen === this.generation) this.progress(rev);
        },
        onError: (err) => {
          if (gen === this.generation) this.reinitialize(err);
        },
      });
      this.o.log?.debug({ prefix: this.prefix, revision, objects: kvs.length, lists: this.initializations }, 'watch cache listed its prefix');
      this.o.metrics.onInitialized?.(revision, kvs.length);
      this.o.metrics.onRevision?.(revision);
      this.waiters.advance(revision);
      this.resolveStarted?.();
    } catch (err) {
      if (gen !== this.generation || this.closed) return;
      const failure = err instanceof Error ? err : new Error(String(err));
      this.o.metrics.onInitializeFailed?.(failure);
      // The store is unreachable or the list revision got compacted mid-way: try again.
      const delayMs = this.backoff.next();
      this.o.log?.debug({ prefix: this.prefix, err: failure.message, delayMs }, 'watch cache list failed, retrying');
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        if (gen === this.generation && !this.closed) void this.initialize(gen);
      }, delayMs);
      this.retryTimer.unref();
    }
  }

  /** The underlying watch ended: end our watchers (so their clients re-list) and list again. */
  private reinitialize(cause: Error): void {
    if (this.closed) return;
    const gen = ++this.generation;
    this.ready = false;
    this.source?.close();
    this.source = undefined;
    const err = cause instanceof CompactedError ? cause : new CacheReinitializingError(this.prefix, cause);
    this.o.log?.debug(
      { prefix: this.prefix, err: cause.message, compacted: cause instanceof CompactedError, watchers: this.watchers.size },
      'watch cache re-listing: its watch ended',
    );
    for (const w of [...this.watchers]) w.fail(err);
    void this.initialize(gen);
  }

  private apply(events: WatchEvent[]): void {
    const now = this.o.now();
    const entries: WindowEntry[] = [];
    for (const e of events) {
      if (e.modRevision < this.revision || !e.key.startsWith(this.prefix)) continue; // already seen, or not ours
      const ev = this.ownEvent(e);
      const replaced = this.state.get(ev.key);
      if (ev.type === 'put') {
        if (!replaced) this.index.insert(ev.key);
        this.state.set(ev.key, { key: ev.key, value: ev.value, modRevision: ev.modRevision, createRevision: ev.createRevision });
      } else if (this.state.delete(ev.key)) {
        this.index.remove(ev.key);
      }
      if (replaced) this.released(replaced.value);
      entries.push(this.window.push(ev, now));
      this.revision = e.modRevision;
      this.stateFrom = e.modRevision;
    }
    if (entries.length === 0) return;
    this.o.metrics.onEventsReceived?.(entries.length);
    for (const w of this.watchers) w.onAppended(entries);
    this.dropFromWindow((onEvict) => this.window.evict(now, onEvict));
    this.o.metrics.onRevision?.(this.revision);
    this.waiters.advance(this.revision);
  }

  /**
   * The event as the cache keeps it: values copied to exact size (a slice of a gRPC message
   * would keep the whole message alive), and the previous value shared with the state entry it
   * replaces instead of a second copy.
   */
  private ownEvent(e: WatchEvent): WatchEvent {
    const prev = this.state.get(e.key);
    const prevValue = e.prevValue === undefined ? undefined : prev && prev.modRevision === e.prevModRevision ? prev.value : this.own(e.prevValue);
    const value = e.type === 'delete' && prevValue !== undefined ? prevValue : this.own(e.value);
    const ev: WatchEvent = { type: e.type, key: e.key, value, modRevision: e.modRevision, createRevision: e.createRevision };
    if (prevValue !== undefined) {
      ev.prevValue = prevValue;
      ev.prevModRevision = e.prevModRevision;
    }
    return ev;
  }

  /**
   * A state entry's value is gone from the state. When its shared buffer (the initial list's) is
   * now less than half in use, the entries still on it get copies of their own, so the buffer
   * can be freed. The entries change in place: same bytes, only their memory moves.
   */
  private released(value: Uint8Array): void {
    const keys = this.shared.release(value);
    if (!keys) return;
    for (const key of keys) {
      const kv = this.state.get(key);
      if (kv && kv.value.buffer === value.buffer) kv.value = new Uint8Array(kv.value);
    }
  }

  private own(bytes: Uint8Array): Uint8Array {
    return this.o.copyValues ? new Uint8Array(bytes) : bytes;
  }

  /** The store's progress only moves the cache's revision; watchers hear of it at their next bookmark. */
  private progress(revision: number): void {
    if (revision > this.revision) {
      this.revision = revision;
      this.o.metrics.onRevision?.(revision);
    }
    this.waiters.advance(this.revision);
  }

  /** Runs a window eviction and tells the watchers still behind what is about to go. */
  private dropFromWindow(run: (onEvict: (e: WindowEntry) => void) => void): void {
    const evicted: WindowEntry[] = [];
    run((e) => evicted.push(e));
    if (evicted.length > 0) {
      const lastSeq = evicted[evicted.length - 1].seq;
      for (const w of this.watchers) if (w.position <= lastSeq) w.onEvicting(evicted);
    }
    this.o.metrics.onWindowSize?.(this.window.length, this.window.bytes);
  }
}
