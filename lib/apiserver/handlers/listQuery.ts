// Turns list/watch query parameters (decided by lib/machinery's listOptions) into registry requests.
import {
  FieldSelectorSupport,
  fieldLabelNotSupported,
  metadataOnlyFieldSelectors,
  selectedNamespace,
} from '../../machinery/fieldSelector';
import { resolveListOptions, ListDecision, WatchDecision } from '../../machinery/listOptions';
import type { ListRequest, ListSource } from '../../registry/list';
import { selectionPredicate } from '../../registry/predicate';
import type { GenericStore } from '../../registry/store';
import type { WatchRequest } from '../../registry/watch';
import type { HandlerContext } from '../handlerContext';

const supportCache = new WeakMap<GenericStore, FieldSelectorSupport>();

/** Field selectors a resource supports, derived from its strategy's selectable fields. */
function fieldSupport(store: GenericStore): FieldSelectorSupport {
  let s = supportCache.get(store);
  if (!s) {
    const fields = Object.keys(store.strategy.selectableFields({ metadata: {} }));
    const metadataOnly = fields.every((f) => f.startsWith('metadata.'));
    // Kinds without their own field-label conversion answer with the default conversion's text;
    // custom resources too (theirs passes the selectable fields, then falls back to the default).
    s = metadataOnly || store.resource.unstructured ? { ...metadataOnlyFieldSelectors, fields } : { fields, unsupported: fieldLabelNotSupported };
    supportCache.set(store, s);
  }
  return s;
}

function decide(h: HandlerContext, watch: boolean): ListDecision | WatchDecision {
  const { store } = h.served;
  // A list never watches: upstream's List ignores ?watch (a deletecollection may carry one).
  let query = h.query;
  if (!watch && query.has('watch')) {
    query = new URLSearchParams(query);
    query.delete('watch');
  }
  return resolveListOptions(query, {
    resource: store.groupResource,
    fieldSelectors: fieldSupport(store),
    watchListFeature: h.features.isEnabled('WatchList'),
    forceWatch: watch,
    name: watch && h.info.name ? h.info.name : undefined,
  });
}

/** A metadata.namespace=X selector on an all-namespaces list narrows the range to X. */
function effectiveNamespace(h: HandlerContext, d: ListDecision | WatchDecision): string {
  if (h.info.namespace || !h.served.info.namespaced) return h.info.namespace;
  return selectedNamespace(d.fieldSelector) ?? '';
}

export function listRequestFromQuery(h: HandlerContext, _watch: false): ListRequest {
  const d = decide(h, false);
  if (d.kind !== 'list') throw new Error('unreachable: list decision expected');
  const { store } = h.served;
  let source: ListSource;
  switch (d.read.mode) {
    case 'mostRecent':
      source = { kind: 'latest' };
      break;
    case 'any':
      source = { kind: 'any' };
      break;
    case 'notOlderThan':
      source = { kind: 'notOlderThan', rv: d.read.rv };
      break;
    case 'exact':
      source = { kind: 'exact', rv: d.read.rv };
      break;
    case 'continue':
      source = { kind: 'continue', rv: d.read.rv, start: d.read.start };
      break;
  }
  return {
    namespace: effectiveNamespace(h, d),
    source,
    limit: d.limit ?? 0,
    predicate: selectionPredicate(d.labelSelector, d.fieldSelector, (o) => store.strategy.selectableFields(o)),
  };
}

export interface WatchQuery {
  request: WatchRequest;
  timeoutSeconds: number;
  allowWatchBookmarks: boolean;
  initialEventsEndBookmark: boolean;
}

export function watchRequestFromQuery(h: HandlerContext): WatchQuery {
  const d = decide(h, true);
  if (d.kind !== 'watch') throw new Error('unreachable: watch decision expected');
  const { store } = h.served;
  const predicate = selectionPredicate(d.labelSelector, d.fieldSelector, (o) => store.strategy.selectableFields(o));
  const request: WatchRequest = { namespace: effectiveNamespace(h, d), predicate };
  if (h.info.name) request.name = h.info.name;
  const s = d.start;
  if (s.mode === 'fromRevision') request.afterRevision = s.rv;
  else if (s.mode === 'now') request.startNow = true;
  else if (s.consistency === 'notOlderThan') request.initialMinRevision = s.rv;
  else request.initialConsistency = s.consistency;
  request.allowBookmarks = d.allowWatchBookmarks;
  if (s.mode === 'initialState' && d.initialEventsEndBookmark) request.initialEventsEndBookmark = true;
  return {
    request,
    timeoutSeconds: d.timeoutSeconds ?? 0,
    allowWatchBookmarks: d.allowWatchBookmarks,
    initialEventsEndBookmark: d.initialEventsEndBookmark,
  };
}
