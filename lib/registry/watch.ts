// Watches straight from storage (the watch cache comes later): initial state as synthetic
// ADDED events when asked, then changes translated with selector transitions
// (watch-and-list.md §6: entering the selector is ADDED, leaving it is DELETED).
import type { ApiObject, Status } from '../api';
import { annotations } from '../api/product';
import { errors, toApiError } from '../machinery/errors';
import { CompactedError, WatchEvent as StorageEvent } from '../etcd/storage';
import { decodeFromStorage } from './storageCodec';
import type { SelectionPredicate } from './predicate';
import type { GenericStore } from './store';
import { waitForRevision } from './list';

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
  predicate: SelectionPredicate;
}

export interface WatchSink {
  /** Events in order; the sink may apply back-pressure by returning false (then the watch closes). */
  send(events: ApiWatchEvent[]): void;
  /** The watch ended (after an ERROR event, or storage failure). */
  end(): void;
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
    if (req.initialMinRevision) await waitForRevision(store, req.initialMinRevision);
    const list = isPrefix ? await store.storage.list(prefix) : await singleKey(store, prefix);
    for (const kv of list.kvs) {
      const obj = store.withTypeMeta(store.decode(kv));
      if (req.predicate.matches(obj)) initial.push({ type: 'ADDED', object: obj });
    }
    startRevision = list.revision + 1;
    if (req.initialEventsEndBookmark) initial.push(initialEventsEnd(store, list.revision));
  } else {
    startRevision = req.afterRevision + 1;
  }

  let stopped = false;
  const decode = (key: string, value: Uint8Array, rev: number): ApiObject => store.withTypeMeta(decodeFromStorage(key, value, rev));
  if (initial.length) sink.send(initial);

  const w = store.storage.watch(
    prefix,
    { startRevision, prefix: isPrefix },
    {
      onEvents(events: StorageEvent[]): void {
        if (stopped) return;
        const out: ApiWatchEvent[] = [];
        try {
          for (const ev of events) {
            const e = translate(ev, decode, req.predicate);
            if (e) out.push(e);
          }
        } catch (err) {
          out.push({ type: 'ERROR', object: toApiError(err).status });
          sink.send(out);
          finish();
          return;
        }
        if (out.length) sink.send(out);
      },
      onError(err: Error): void {
        if (stopped) return;
        const status =
          err instanceof CompactedError
            ? errors.expired('The resourceVersion for the provided watch is too old.').status
            : toApiError(err).status;
        sink.send([{ type: 'ERROR', object: status }]);
        finish();
      },
    },
  );

  function finish(): void {
    if (stopped) return;
    stopped = true;
    w.close();
    sink.end();
  }
  return { stop: finish };
}

/** The BOOKMARK that ends a watch-list's initial events (watch-and-list.md §6). */
function initialEventsEnd(store: GenericStore, revision: number): ApiWatchEvent {
  return {
    type: 'BOOKMARK',
    object: store.withTypeMeta({ metadata: { resourceVersion: String(revision), annotations: { [annotations.initialEventsEnd]: 'true' } } }),
  };
}

async function singleKey(store: GenericStore, key: string): Promise<{ kvs: import('../etcd/storage').KeyValue[]; revision: number }> {
  const r = await store.storage.get(key);
  return { kvs: r.kv ? [r.kv] : [], revision: r.revision };
}

function translate(
  ev: StorageEvent,
  decode: (key: string, value: Uint8Array, rev: number) => ApiObject,
  predicate: SelectionPredicate,
): ApiWatchEvent | null {
  if (ev.type === 'delete') {
    const last = decode(ev.key, ev.prevValue ?? ev.value, ev.modRevision);
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
