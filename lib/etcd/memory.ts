// An in-process MVCC store with etcd's revision semantics (DESIGN.md §2.9): one global revision
// that every write increments, per-key history for reads at past revisions, an event log for
// watches from past revisions, and compaction. Not a mock: it passes the etcd contract suite.
import { bytesEqual } from './bytes';
import { checkStartKey, compareKeys } from './keys';
import {
  CompactedError,
  CompactionStore,
  ConflictError,
  DeleteStorageOptions,
  FutureRevisionError,
  GetResult,
  KeyExistsError,
  KeyValue,
  ListOptions,
  ListResult,
  NotFoundError,
  Storage,
  UnavailableError,
  Watch,
  WatchEvent,
  WatchHandlers,
  WatchOptions,
} from './storage';
import { deliver, reportError } from './watchHandlers';

/** One state of a key; value null is a tombstone (the key was deleted at modRevision). */
interface KeyState {
  modRevision: number;
  createRevision: number;
  /** etcd's per-key version: writes since creation; 0 for a tombstone. */
  version: number;
  value: Uint8Array | null;
}

export interface MemoryStorageOptions {
  /** How often a watch with progressNotify gets a progress notification when idle (etcd: 10 min). */
  progressNotifyIntervalMs?: number;
}

const defaultProgressNotifyIntervalMs = 10 * 60 * 1000;

export class MemoryStorage implements Storage, CompactionStore {
  private revision = 1; // etcd's first revision: an empty store is at 1, its first write makes 2
  private compactRevision = 0;
  private readonly history = new Map<string, KeyState[]>();
  /** Every key with retained history, in byte order. */
  private readonly sortedKeys: string[] = [];
  /** Events in revision order (one write, one event); starts at the compact revision. */
  private log: WatchEvent[] = [];
  private readonly watchers = new Set<MemoryWatcher>();
  private readonly progressNotifyIntervalMs: number;
  private closed = false;

  constructor(opts: MemoryStorageOptions = {}) {
    this.progressNotifyIntervalMs = opts.progressNotifyIntervalMs ?? defaultProgressNotifyIntervalMs;
  }

  async get(key: string, opts: { revision?: number } = {}): Promise<GetResult> {
    this.checkOpen();
    const revision = this.readRevision(opts.revision);
    return { kv: this.kvAt(key, revision), revision };
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    this.checkOpen();
    const revision = this.readRevision(opts.revision);
    const start = opts.startKey ?? prefix;
    checkStartKey(prefix, start);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
    const kvs: KeyValue[] = [];
    let count = 0;
    for (let i = this.lowerBound(start); i < this.sortedKeys.length; i++) {
      const key = this.sortedKeys[i];
      if (!key.startsWith(prefix)) break; // a prefix's keys are contiguous in byte order
      const kv = this.kvAt(key, revision);
      if (!kv) continue;
      count++;
      if (kvs.length < limit) kvs.push(kv);
    }
    return { kvs, revision, more: count > kvs.length, count };
  }

  async create(key: string, value: Uint8Array): Promise<KeyValue> {
    this.checkOpen();
    if (this.latest(key)) throw new KeyExistsError(`key exists: ${key}`, key);
    return this.put(key, value);
  }

  async guaranteedUpdate(
    key: string,
    tryUpdate: (current: KeyValue | null) => Uint8Array | null | Promise<Uint8Array | null>,
    opts: { expectedModRevision?: number; ignoreNotFound?: boolean } = {},
  ): Promise<KeyValue> {
    this.checkOpen();
    let current = this.latestKv(key);
    for (;;) {
      if (!current && !opts.ignoreNotFound) throw new NotFoundError(`key not found: ${key}`, key);
      const seen = current?.modRevision ?? 0;
      if (opts.expectedModRevision !== undefined && seen !== opts.expectedModRevision) throw new ConflictError(key, seen);
      const next = await tryUpdate(current);
      if (next === null || (current && bytesEqual(next, current.value))) {
        if (!current) throw new NotFoundError(`key not found: ${key}`, key);
        return current;
      }
      this.checkOpen();
      // tryUpdate may have awaited: the compare of etcd's txn (mod_revision == seen).
      const now = this.latestKv(key);
      if ((now?.modRevision ?? 0) !== seen) {
        current = now;
        continue;
      }
      return this.put(key, next);
    }
  }

  async delete(
    key: string,
    // A suggestion saves nothing here (reads are free): the current value is always used.
    opts: DeleteStorageOptions = {},
  ): Promise<{ prev: KeyValue; revision: number }> {
    this.checkOpen();
    for (;;) {
      const current = this.latestKv(key);
      if (!current) throw new NotFoundError(`key not found: ${key}`, key);
      if (opts.validate) await opts.validate(current);
      this.checkOpen();
      if (this.latestKv(key)?.modRevision !== current.modRevision) continue;
      const revision = this.write(key, null);
      return { prev: current, revision };
    }
  }

  watch(key: string, opts: WatchOptions, handlers: WatchHandlers): Watch {
    const startRevision = opts.startRevision || this.revision + 1;
    const watcher = new MemoryWatcher(this, key, opts.prefix ?? true, startRevision, handlers, this.watchers);
    if (this.closed) return watcher; // a closed store delivers nothing, like its closed watches
    if (startRevision < this.compactRevision) {
      watcher.fail(new CompactedError(startRevision, this.compactRevision));
      return watcher;
    }
    // Replay retained history, then the watcher is live: later writes are pushed to it.
    for (let i = this.logIndex(startRevision); i < this.log.length; i++) watcher.offer(this.log[i]);
    this.watchers.add(watcher);
    if (opts.progressNotify) watcher.startProgressTimer(this.progressNotifyIntervalMs);
    return watcher;
  }

  async currentRevision(): Promise<number> {
    this.checkOpen();
    return this.revision;
  }

  requestProgress(): void {
    for (const w of this.watchers) w.requestProgress();
  }

  async compact(revision: number): Promise<void> {
    this.checkOpen();
    if (revision <= this.compactRevision) throw new CompactedError(revision, this.compactRevision);
    if (revision > this.revision) throw new FutureRevisionError(revision, this.revision);
    this.compactRevision = revision;
    for (let i = 0; i < this.sortedKeys.length; ) {
      const key = this.sortedKeys[i];
      const states = this.history.get(key)!;
      // Keep the state visible at the compact revision (unless it is a tombstone) and later ones.
      let keepFrom = upperBoundByRevision(states, revision) - 1;
      if (keepFrom >= 0 && states[keepFrom].value === null) keepFrom++;
      if (keepFrom > 0) states.splice(0, keepFrom);
      if (states.length === 0) {
        this.history.delete(key);
        this.sortedKeys.splice(i, 1);
      } else {
        i++;
      }
    }
    this.log = this.log.slice(this.logIndex(revision));
  }

  async putIfVersion(key: string, expectedVersion: number, value: Uint8Array): Promise<{ succeeded: boolean; version: number; revision: number }> {
    this.checkOpen();
    const version = this.latest(key)?.version ?? 0;
    if (version !== expectedVersion) return { succeeded: false, version, revision: this.revision };
    this.put(key, value);
    return { succeeded: true, version: version + 1, revision: this.revision };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of [...this.watchers]) w.close();
  }

  /** The revision a progress notification may claim: every event up to it has been offered. */
  get current(): number {
    return this.revision;
  }

  private checkOpen(): void {
    if (this.closed) throw new UnavailableError('storage is closed', '');
  }

  private readRevision(requested: number | undefined): number {
    if (!requested) return this.revision;
    if (requested < this.compactRevision) throw new CompactedError(requested, this.compactRevision);
    if (requested > this.revision) throw new FutureRevisionError(requested, this.revision);
    return requested;
  }

  private put(key: string, value: Uint8Array): KeyValue {
    const revision = this.write(key, value);
    const state = this.latest(key)!;
    return { key, value: state.value!, modRevision: revision, createRevision: state.createRevision };
  }

  /** Appends a new state (value null: delete) at the next revision and notifies watchers. */
  private write(key: string, value: Uint8Array | null): number {
    const revision = ++this.revision;
    let states = this.history.get(key);
    if (!states) {
      states = [];
      this.history.set(key, states);
      this.sortedKeys.splice(this.lowerBound(key), 0, key);
    }
    const prev = states.length > 0 && states[states.length - 1].value !== null ? states[states.length - 1] : null;
    let event: WatchEvent;
    if (value) {
      const copy = Uint8Array.from(value); // the caller may reuse its buffer
      const createRevision = prev ? prev.createRevision : revision;
      states.push({ modRevision: revision, createRevision, version: (prev?.version ?? 0) + 1, value: copy });
      event = { type: 'put', key, value: copy, modRevision: revision, createRevision };
      if (prev) {
        event.prevValue = prev.value!;
        event.prevModRevision = prev.modRevision;
      }
    } else {
      states.push({ modRevision: revision, createRevision: 0, version: 0, value: null });
      event = {
        type: 'delete',
        key,
        value: prev!.value!,
        modRevision: revision,
        createRevision: prev!.createRevision,
        prevValue: prev!.value!,
        prevModRevision: prev!.modRevision,
      };
    }
    this.log.push(event);
    for (const w of this.watchers) w.offer(event);
    return revision;
  }

  private latest(key: string): KeyState | null {
    const states = this.history.get(key);
    const last = states?.[states.length - 1];
    return last && last.value !== null ? last : null;
  }

  private latestKv(key: string): KeyValue | null {
    const s = this.latest(key);
    return s ? { key, value: s.value!, modRevision: s.modRevision, createRevision: s.createRevision } : null;
  }

  private kvAt(key: string, revision: number): KeyValue | null {
    const states = this.history.get(key);
    if (!states) return null;
    const s = states[upperBoundByRevision(states, revision) - 1];
    if (!s || s.value === null) return null;
    return { key, value: s.value, modRevision: s.modRevision, createRevision: s.createRevision };
  }

  /** Index of the first key ≥ key in sortedKeys. */
  private lowerBound(key: string): number {
    let lo = 0;
    let hi = this.sortedKeys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeys(this.sortedKeys[mid], key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Index of the first logged event with revision ≥ revision. */
  private logIndex(revision: number): number {
    let lo = 0;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.log[mid].modRevision < revision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Index of the first state with modRevision > revision. */
function upperBoundByRevision(states: KeyState[], revision: number): number {
  let lo = 0;
  let hi = states.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (states[mid].modRevision <= revision) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * One watch: events are queued synchronously at write time and delivered on a microtask, so
 * handlers never run inside a storage call and always see revision order.
 */
class MemoryWatcher implements Watch {
  private queue: WatchEvent[] = [];
  private scheduled = false;
  private closed = false;
  private progressWanted = false;
  private deliveredSinceTick = false;
  private progressTimer: NodeJS.Timeout | undefined;
  private failure: Error | undefined;

  constructor(
    private readonly store: MemoryStorage,
    private readonly key: string,
    private readonly prefix: boolean,
    /** Events before this revision are not for this watch (it may start in the future). */
    private readonly startRevision: number,
    private readonly handlers: WatchHandlers,
    private readonly registry: Set<MemoryWatcher>,
  ) {}

  offer(event: WatchEvent): void {
    if (event.modRevision < this.startRevision) return;
    if (this.prefix ? !event.key.startsWith(this.key) : event.key !== this.key) return;
    this.queue.push(event);
    this.schedule();
  }

  fail(err: Error): void {
    this.failure = err;
    this.schedule();
  }

  requestProgress(): void {
    this.progressWanted = true;
    this.schedule();
  }

  startProgressTimer(intervalMs: number): void {
    this.progressTimer = setInterval(() => {
      // Like etcd: only an idle watcher gets a progress notification.
      if (!this.deliveredSinceTick) this.requestProgress();
      this.deliveredSinceTick = false;
    }, intervalMs);
    this.progressTimer.unref();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue = [];
    if (this.progressTimer) clearInterval(this.progressTimer);
    this.registry.delete(this);
  }

  private schedule(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    if (this.closed) return;
    if (this.failure) {
      const err = this.failure;
      this.close();
      reportError((e) => this.handlers.onError(e), err);
      return;
    }
    // Taken before delivery: a handler's own writes land after this revision.
    const revision = this.store.current;
    const events = this.queue;
    this.queue = [];
    if (events.length > 0) {
      this.deliveredSinceTick = true;
      deliver(() => this.handlers.onEvents(events), () => this.close(), (e) => this.handlers.onError(e));
    }
    if (this.progressWanted && !this.closed) {
      this.progressWanted = false;
      deliver(() => this.handlers.onProgress?.(revision), () => this.close(), (e) => this.handlers.onError(e));
    }
  }
}
