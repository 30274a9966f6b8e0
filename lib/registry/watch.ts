// Watches straight from storage (the watch cache comes later): initial state as synthetic
// ADDED events when asked, then changes translated with selector transitions
// (watch-and-list.md §6: entering the selector is ADDED, leaving it is DELETED).
import type { ApiObject, Status } from '../api';
import { annotations } from '../api/product';
import { errors, toApiError } from '../machinery/errors';
import { CompactedError, KeyValue, Watch, WatchEvent as StorageEvent, WatchHandlers } from '../etcd/storage';
import { CacheWatch, WatcherTooSlowError } from '../watchcache';
import type { SelectionPredicate } from './predicate';
import type { GenericStore } from './store';
import { waitForRevision } from './revisionWait';
import { CorruptObjectError } from './storageCodec';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface ApiWatchEvent {
  type: WatchEventType;
  object: ApiObject | Status;
}

export interface WatchRequest {
  namespace: string;
  /** Exact object name (from a metadata.name field selector or the URL), when watching one object. */
  name?: string;
  /** Start after this revision; undefined = send initial state first (RV unset or "0"). */
  afterRevision?: number;
  /** No initial state: only changes after the current revision. */
  startNow?: boolean;
  /** With initial state: the minimum revision the state must reflect (RV unset → current). */
  initialMinRevision?: number;
  /** Watch-list: after the initial ADDED events, a BOOKMARK annotated as the end of them. */
  initialEventsEndBookmark?: boolean;
  /** The initial state: consistent (RV unset, the default) or whatever the cache has (RV "0"). */
  initialConsistency?: 'mostRecent' | 'any';
  /** Send BOOKMARK events as progress is known (allowWatchBookmarks). */
  allowBookmarks?: boolean;
  /** The watch ends after this long (timeoutSeconds): the cache's last bookmark comes 2 s before. */
  timeoutMs?: number;
  predicate: SelectionPredicate;
}

export interface WatchSink {
  /** Events in order. Returns false when the consumer cannot take more now; the watch then
   * pauses until the callback given to onDrain runs. */
  send(events: ApiWatchEvent[]): boolean;
  /** The callback to run once the consumer has taken everything sent (one at a time). */
  onDrain(resume: () => void): void;
  /**
   * The watch ended: after an ERROR event, or (reason 'slow') because the consumer fell behind
   * (cause: the watch cache's WatcherTooSlowError reason).
   */
  end(reason?: 'slow', cause?: string): void;
}

export interface ApiWatch {
  stop(): void;
}

export async function watchObjects(store: GenericStore, req: WatchRequest, sink: WatchSink): Promise<ApiWatch> {
  const prefix = req.name !== undefined ? store.keys.object(req.namespace, req.name) : store.keys.collection(req.namespace);
  const isPrefix = req.name === undefined;
  let startRevision: number;
  const initial: ApiWatchEvent[] = [];

  if (req.startNow) {
    startRevision = (await store.storage.currentRevision()) + 1;
  } else if (req.afterRevision === undefined) {
    const list = await initialState(store, prefix, isPrefix, req);
    for (const kv of list.kvs) {
      const obj = store.withTypeMeta(store.decode(kv));
      if (req.predicate.matches(obj)) initial.push({ type: 'ADDED', object: obj });
    }
    startRevision = list.revision + 1;
    if (req.initialEventsEndBookmark) initial.push(bookmark(store, list.revision, true));
  } else {
    startRevision = req.afterRevision + 1;
  }

  const watch = new ApiWatchState(store, req, sink, startRevision - 1);
  watch.deliver(initial);
  watch.follow(
    store.storage.watch(prefix, { startRevision, prefix: isPrefix, progressNotify: req.allowBookmarks, timeoutMs: req.timeoutMs }, watch),
  );
  return watch;
}

/**
 * A running watch: the storage watch's handlers and the API watch in one object rather than
 * closures over watchObjects' scope, so an idle watch keeps little besides it (issue 14 item 3).
 */
class ApiWatchState implements WatchHandlers, ApiWatch {
  private stopped = false;
  /** The sink holds events back; the storage watch stays paused until it has taken them. */
  private held = false;
  private w: Watch | CacheWatch | undefined;

  constructor(
    private readonly store: GenericStore,
    private readonly req: WatchRequest,
    private readonly sink: WatchSink,
    private lastRevision: number,
  ) {}

  follow(w: Watch | CacheWatch): void {
    this.w = w;
    // Ended while the storage watch was being set up (an ERROR delivered synchronously).
    if (this.stopped) w.close();
    // The initial events are still held: live ones wait behind them.
    else if (this.held && 'pause' in w) w.pause();
  }

  deliver(events: ApiWatchEvent[]): void {
    if (this.stopped || events.length === 0) return;
    if (this.sink.send(events) || this.held) return;
    this.held = true;
    const w = this.w;
    if (w && 'pause' in w) w.pause();
    this.sink.onDrain(() => {
      this.held = false;
      const current = this.w;
      if (current && 'pause' in current) current.resume();
    });
  }

  onEvents(events: StorageEvent[]): void {
    if (this.stopped) return;
    const out: ApiWatchEvent[] = [];
    try {
      for (const ev of events) {
        this.lastRevision = ev.modRevision;
        const e = translate(ev, this.store, this.req.predicate);
        if (e) out.push(e);
      }
    } catch (err) {
      out.push({ type: 'ERROR', object: toApiError(err).status });
      this.deliver(out);
      this.finish();
      return;
    }
    this.deliver(out);
  }

  onProgress(revision: number): void {
    // Everything up to revision has been delivered: a bookmark may say so. Like upstream, a
    // periodic bookmark repeats an unchanged revision rather than staying silent.
    if (this.stopped || !this.req.allowBookmarks || revision < this.lastRevision) return;
    this.lastRevision = revision;
    this.deliver([bookmark(this.store, revision, false)]);
  }

  onError(err: Error): void {
    if (this.stopped) return;
    if (err instanceof WatcherTooSlowError) {
      this.finish('slow', err.reason);
      return;
    }
    const status =
      err instanceof CompactedError ? errors.expired('The resourceVersion for the provided watch is too old.').status : toApiError(err).status;
    this.deliver([{ type: 'ERROR', object: status }]);
    this.finish();
  }

  stop(): void {
    this.finish();
  }

  private finish(reason?: 'slow', cause?: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.w?.close();
    this.sink.end(reason, cause);
  }
}

/** The state a watch starts with: consistent (RV unset), any (RV "0") or at least a revision. */
async function initialState(store: GenericStore, prefix: string, isPrefix: boolean, req: WatchRequest): Promise<{ kvs: KeyValue[]; revision: number }> {
  const cache = store.cache;
  const consistent = req.initialConsistency !== 'any';
  if (!isPrefix) {
    const r = cache ? await cache.getFromCache(prefix, { consistent, minRevision: req.initialMinRevision }) : await store.storage.get(prefix);
    return { kvs: r.kv ? [r.kv] : [], revision: r.revision };
  }
  if (cache) return cache.listFromCache(prefix, { consistent, minRevision: req.initialMinRevision });
  if (req.initialMinRevision) await waitForRevision(store.storage, req.initialMinRevision);
  return store.storage.list(prefix);
}

/** A BOOKMARK: the kind's empty object carrying only a resourceVersion (and, at the end of a
 * watch-list's initial events, the initial-events-end annotation; watch-and-list.md §6). */
function bookmark(store: GenericStore, revision: number, initialEventsEnd: boolean): ApiWatchEvent {
  const metadata = initialEventsEnd
    ? { resourceVersion: String(revision), annotations: { [annotations.initialEventsEnd]: 'true' } }
    : { resourceVersion: String(revision) };
  return { type: 'BOOKMARK', object: store.withTypeMeta({ metadata }) };
}

/**
 * The DELETED object of an unsafe delete (spec §3.2): the last value cannot be decoded, so the
 * object is what the key says (kind, name, namespace) at the delete's revision. Upstream 1.32 ends
 * the watch with a StorageReadError instead and every client re-lists; this tells them directly
 * and keeps the watch (docs/decisions.md).
 */
function corruptTombstone(store: GenericStore, key: string, revision: number): ApiObject {
  const { namespace, name } = store.keys.identity(key);
  return store.withTypeMeta({ metadata: { name, ...(namespace ? { namespace } : {}), resourceVersion: String(revision) } });
}

function translate(ev: StorageEvent, store: GenericStore, predicate: SelectionPredicate): ApiWatchEvent | null {
  const decode = (key: string, value: Uint8Array, rev: number): ApiObject => store.serving.forWatch(key, value, rev);
  if (ev.type === 'delete') {
    let last: ApiObject;
    try {
      last = decode(ev.key, ev.prevValue ?? ev.value, ev.modRevision);
    } catch (e) {
      // No labels or fields are known, so every watcher of the key's scope is told: a DELETED for
      // an object a filtered watcher never had is harmless; a missed one leaves a stale object.
      if (e instanceof CorruptObjectError) return { type: 'DELETED', object: corruptTombstone(store, ev.key, ev.modRevision) };
      throw e;
    }
    return predicate.matches(last) ? { type: 'DELETED', object: last } : null;
  }
  const cur = decode(ev.key, ev.value, ev.modRevision);
  const curMatches = predicate.matches(cur);
  if (!ev.prevValue) return curMatches ? { type: 'ADDED', object: cur } : null;
  if (predicate.everything) return { type: 'MODIFIED', object: cur };
  const prev = decode(ev.key, ev.prevValue, ev.prevModRevision ?? ev.modRevision);
  const prevMatches = predicate.matches(prev);
  if (curMatches && prevMatches) return { type: 'MODIFIED', object: cur };
  if (curMatches) return { type: 'ADDED', object: cur };
  if (prevMatches) {
    // The object left the selector: report its old state at the revision of the change.
    return { type: 'DELETED', object: { ...prev, metadata: { ...prev.metadata, resourceVersion: String(ev.modRevision) } } };
  }
  return null;
}
