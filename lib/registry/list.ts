// Lists as etcd ranges at a fixed revision (DESIGN.md §2.3, watch-and-list.md §4).
import type { ApiList, ApiObject } from '../api';
import { encodeContinueToken } from '../machinery/continueToken';
import { errors } from '../machinery/errors';
import { CompactedError, FutureRevisionError } from '../etcd/storage';
import type { SelectionPredicate } from './predicate';
import type { GenericStore } from './store';
import { translateStorageError } from './storageErrors';
import { CorruptListItems } from './corruptObjects';
import { CorruptObjectError } from './storageCodec';
import { waitForRevision } from './revisionWait';

/** Where a list reads from (decided from the query by lib/machinery's list options). */
export type ListSource =
  /** Most recent: a consistent read (from the cache once it has caught up, else etcd). */
  | { kind: 'latest' }
  /** Any: whatever the cache holds, no wait. */
  | { kind: 'any' }
  | { kind: 'notOlderThan'; rv: number }
  | { kind: 'exact'; rv: number }
  /** rv ≤ 0: continue at the latest revision (token from a 410). start is prefix-relative. */
  | { kind: 'continue'; rv: number; start: string };

export interface ListRequest {
  /** Namespace to list ('' = all namespaces, or cluster-scoped). */
  namespace: string;
  source: ListSource;
  /** 0 = unlimited. */
  limit: number;
  predicate: SelectionPredicate;
  /**
   * Items as RawJson (the compact JSON output path): no decoded tree is built or kept for them
   * unless a selector needs one. Only for output that is written as JSON without indentation.
   */
  rawJson?: boolean;
  /**
   * Items in a binary encoding (Protobuf, CBOR) the store keeps per cached value instead of the
   * decoded tree: `format` names the cache, `encode` makes the form from the decoded item. Only
   * for output that writes these forms as they are.
   */
  encodedItems?: { format: string; encode(item: ApiObject): object };
}

const maxFetch = 10000;

const continueExpiredMessage =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';
export async function listObjects(store: GenericStore, req: ListRequest): Promise<ApiList> {
  const prefix = store.keys.collection(req.namespace);
  let revision = 0;
  let startKey = prefix;
  let fromToken = false;
  const src = req.source;
  if (src.kind === 'continue') {
    revision = src.rv > 0 ? src.rv : 0;
    startKey = prefix + src.start;
    fromToken = true;
  } else if (src.kind === 'exact') {
    await waitForRevision(store.storage, src.rv);
    revision = src.rv;
  } else if (src.kind === 'notOlderThan' && !store.cache) {
    await waitForRevision(store.storage, src.rv);
  }
  // The first range of an unpinned list comes from the watch cache when there is one.
  const cache = src.kind === 'exact' || src.kind === 'continue' ? undefined : store.cache;
  let first = true;

  const items: ApiObject[] = [];
  const corrupt = new CorruptListItems();
  let more = false;
  let lastKey = '';
  let count = 0;
  let readAt = revision;
  let fetchLimit = req.limit > 0 ? req.limit : 0;
  try {
    for (;;) {
      const res =
        first && cache
          ? await cache.listFromCache(prefix, {
              limit: fetchLimit || undefined,
              startKey,
              consistent: src.kind === 'latest',
              minRevision: src.kind === 'notOlderThan' ? src.rv : undefined,
            })
          : await store.storage.list(prefix, { revision: readAt || undefined, limit: fetchLimit || undefined, startKey });
      first = false;
      readAt = res.revision;
      count = res.count;
      let stop = false;
      const withTypeMeta = store.resource.unstructured === true;
      for (const kv of res.kvs) {
        lastKey = kv.key;
        let obj: ApiObject;
        try {
          if (!req.predicate.everything && !req.predicate.matches(store.serving.listItem(kv))) continue;
          // A RawJson stands in for the item: the JSON writer splices its text (list items are never read here after).
          // A custom resource's items keep apiVersion and kind (upstream's unstructured lists).
          obj = req.rawJson
            ? ((withTypeMeta ? store.serving.json(kv) : store.serving.listItemJson(kv)) as unknown as ApiObject)
            : req.encodedItems
              ? (store.serving.encodedListItem(kv, req.encodedItems.format, req.encodedItems.encode) as ApiObject)
              : withTypeMeta
                ? store.withTypeMeta(store.serving.listItem(kv))
                : store.serving.listItem(kv);
        } catch (e) {
          // Upstream reads on past undecodable items to name them all in one error.
          if (!(e instanceof CorruptObjectError)) throw e;
          stop = corrupt.add(e);
          if (stop) break;
          continue;
        }
        items.push(obj);
        if (req.limit > 0 && items.length === req.limit) break;
      }
      if (stop) break;
      const pageFull = req.limit > 0 && items.length >= req.limit;
      const lastReturned = res.kvs.length ? res.kvs[res.kvs.length - 1].key : '';
      if (pageFull) {
        // Items left in this batch after the last one we took also mean "more".
        more = res.more || lastKey !== lastReturned;
        break;
      }
      if (!res.more) {
        more = false;
        break;
      }
      startKey = `${lastReturned}\u0000`;
      fetchLimit = Math.min(Math.max(fetchLimit * 2, 1), maxFetch);
    }
  } catch (e) {
    if (e instanceof CompactedError) {
      if (fromToken) throw errors.expired(continueExpiredMessage, encodeContinueToken(-1, startKey.slice(prefix.length)));
      throw errors.expired('The resourceVersion for the provided list is too old.');
    }
    if (e instanceof FutureRevisionError) throw errors.tooLargeResourceVersion(e.requestedRevision, e.currentRevision, 1);
    throw translateStorageError(e, store.groupResource, '', 'list');
  }
  if (corrupt.any) throw corrupt.error(store.groupResource);

  // kind before apiVersion, as upstream's TypeMeta serialises.
  const list: ApiList = {
    kind: store.resource.listKind,
    apiVersion: store.resource.group ? `${store.resource.group}/${store.resource.version}` : store.resource.version,
    metadata: { resourceVersion: String(readAt) },
    items,
  };
  if (more && req.limit > 0) {
    list.metadata.continue = encodeContinueToken(readAt, `${lastKey.slice(prefix.length)}\u0000`);
    if (req.predicate.everything) {
      const remaining = count - items.length;
      if (remaining > 0) list.metadata.remainingItemCount = remaining;
    }
  }
  return list;
}
