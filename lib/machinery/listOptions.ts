// List/watch query parameters → a typed decision, in upstream's order of checks:
// 1. decoding (400: integer syntax, then label, then field selector syntax),
// 2. WatchList defaulting and ListOptions validation (422, watch-and-list.md §8),
// 3. field-selector support (400) and the single-object name check (400),
// 4. what storage checks: continue token (400), RV with continue (400), RV syntax (422).
// The list semantics follow api-spec.md §4.5 item 4; the watch start points §4.6.
import { groups } from '../api/product';
import { decodeContinueToken } from './continueToken';
import { errors, GroupResource } from './errors';
import { FieldError, fieldErr } from './fieldErrors';
import { FieldSelector, FieldSelectorSupport, parseFieldSelector, validateFieldSelector } from './fieldSelector';
import { goParseInt64, goParseUint64, goQueryBool } from './goStrconv';
import { LabelSelector, parseLabelSelector } from './labelSelector';

/** Query parameters: URLSearchParams or a parsed query object; the first value counts. */
export type QueryParams = URLSearchParams | Readonly<Record<string, string | readonly string[] | undefined>>;

function first(q: QueryParams, name: string): string | undefined {
  if (q instanceof URLSearchParams) return q.has(name) ? (q.get(name) as string) : undefined;
  const v = Object.prototype.hasOwnProperty.call(q, name) ? q[name] : undefined;
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v;
  return v.length ? v[0] : undefined;
}

/** The decoded query, before any semantics (upstream's internal ListOptions). */
export interface RawListOptions {
  labelSelector: LabelSelector;
  fieldSelector: FieldSelector;
  watch: boolean;
  allowWatchBookmarks: boolean;
  resourceVersion: string;
  resourceVersionMatch: string;
  timeoutSeconds: number | undefined;
  limit: number;
  continue: string;
  /** undefined when the parameter is absent (any present value, even "false", sets it). */
  sendInitialEvents: boolean | undefined;
}

function int64Param(q: QueryParams, name: string): number | undefined {
  const s = first(q, name);
  if (s === undefined) return undefined;
  const r = goParseInt64(s);
  if (!r.ok) throw errors.badRequest(r.error);
  return Number(r.value);
}

/** Step 1: decoding. Booleans never fail (only "0"/"false" are false, as upstream). */
export function decodeListQuery(q: QueryParams): RawListOptions {
  const watch = first(q, 'watch');
  const bookmarks = first(q, 'allowWatchBookmarks');
  const sie = first(q, 'sendInitialEvents');
  const timeoutSeconds = int64Param(q, 'timeoutSeconds');
  const limit = int64Param(q, 'limit') ?? 0;
  const labelSelector = parseLabelSelector(first(q, 'labelSelector') ?? '');
  const fieldSelector = parseFieldSelector(first(q, 'fieldSelector') ?? '');
  return {
    labelSelector,
    fieldSelector,
    watch: watch !== undefined && goQueryBool(watch),
    allowWatchBookmarks: bookmarks !== undefined && goQueryBool(bookmarks),
    resourceVersion: first(q, 'resourceVersion') ?? '',
    resourceVersionMatch: first(q, 'resourceVersionMatch') ?? '',
    timeoutSeconds,
    limit,
    continue: first(q, 'continue') ?? '',
    sendInitialEvents: sie === undefined ? undefined : goQueryBool(sie),
  };
}

const listOptionsKind = { group: groups.meta, kind: 'ListOptions' };

/** Step 2a: with the WatchList feature a plain watch from ""/"0" becomes a watch-list. */
export function applyWatchListDefaults(o: RawListOptions, watchListFeature: boolean): RawListOptions {
  if (!watchListFeature || o.sendInitialEvents !== undefined || o.resourceVersionMatch !== '') return o;
  if (o.watch && (o.resourceVersion === '' || o.resourceVersion === '0')) {
    return { ...o, sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' };
  }
  return o;
}

/** Step 2b: upstream's ValidateListOptions; returns the field errors (422 when non-empty). */
export function validateListOptions(o: RawListOptions, watchListFeature: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const rvm = 'resourceVersionMatch';
  const match = o.resourceVersionMatch;
  if (o.watch) {
    if (o.sendInitialEvents !== undefined) {
      if (match !== 'NotOlderThan') errs.push(fieldErr.forbidden(rvm, 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
      if (!watchListFeature) {
        errs.push(fieldErr.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
      }
    }
    if (match !== '') {
      if (o.sendInitialEvents === undefined) errs.push(fieldErr.forbidden(rvm, 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
      if (match !== 'NotOlderThan') errs.push(fieldErr.notSupported(rvm, match, ['NotOlderThan']));
      if (o.continue !== '') errs.push(fieldErr.forbidden(rvm, 'resourceVersionMatch is forbidden when continue is provided'));
    }
    return errs;
  }
  if (match !== '') {
    if (o.resourceVersion === '') errs.push(fieldErr.forbidden(rvm, 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (o.continue !== '') errs.push(fieldErr.forbidden(rvm, 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') errs.push(fieldErr.notSupported(rvm, match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && o.resourceVersion === '0') {
      errs.push(fieldErr.forbidden(rvm, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
  }
  if (o.sendInitialEvents !== undefined) errs.push(fieldErr.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return errs;
}

/** How a list is read (api-spec.md §4.5 item 4). */
export type ListRead =
  | { mode: 'mostRecent' }
  | { mode: 'any' }
  | { mode: 'notOlderThan'; rv: number }
  | { mode: 'exact'; rv: number }
  /** rv < 0: continue at the latest revision (token from a 410). start is prefix-relative. */
  | { mode: 'continue'; rv: number; start: string };

export interface ListDecision {
  kind: 'list';
  read: ListRead;
  /** Page size; undefined for an unpaged list (no limit, or a limit the table ignores). */
  limit: number | undefined;
  labelSelector: LabelSelector;
  fieldSelector: FieldSelector;
}

/** Where a watch starts (api-spec.md §4.6). */
export type WatchStart =
  /** Synthetic ADDED events for the state, then changes after it. */
  | { mode: 'initialState'; consistency: 'mostRecent' | 'any' }
  /** Same, with the state at least as new as rv (watch-list with a resourceVersion). */
  | { mode: 'initialState'; consistency: 'notOlderThan'; rv: number }
  /** Only changes after the current revision (sendInitialEvents=false with RV ""/"0"). */
  | { mode: 'now'; consistency: 'mostRecent' | 'any' }
  /** Only changes after rv. */
  | { mode: 'fromRevision'; rv: number };

export interface WatchDecision {
  kind: 'watch';
  start: WatchStart;
  /** After defaulting: true for watch-list requests (explicit or defaulted). */
  sendInitialEvents: boolean;
  allowWatchBookmarks: boolean;
  /** Send the BOOKMARK carrying the initial-events-end annotation once the state is sent. */
  initialEventsEndBookmark: boolean;
  /** Seconds requested (undefined or 0: the server picks its own duration). */
  timeoutSeconds: number | undefined;
  labelSelector: LabelSelector;
  fieldSelector: FieldSelector;
}

export interface ListOptionsContext {
  /** The resource listed; names the 422 for an unparseable resourceVersion. */
  resource: GroupResource;
  /** Fields the resource's field selectors may use and its text for others. */
  fieldSelectors: FieldSelectorSupport;
  /** The WatchList feature (on by default in the release followed). */
  watchListFeature: boolean;
  /** Request routed as a watch regardless of ?watch (legacy /watch/ prefix). */
  forceWatch?: boolean;
  /** Name from the URL of a single-object watch; must agree with a metadata.name selector. */
  name?: string;
}

/** Step 4 helper: the RV as storage parses it (422 Invalid on the resource, errors.md §3). */
export function parseResourceVersion(rv: string, resource: GroupResource): number {
  if (rv === '' || rv === '0') return 0;
  const r = goParseUint64(rv);
  if (!r.ok) {
    throw errors.invalid({ group: resource.group, kind: resource.resource }, '', [fieldErr.invalid('resourceVersion', rv, r.error)]);
  }
  return Number(r.value);
}

/** Parses and validates a list/watch request and decides how to serve it. */
export function resolveListOptions(q: QueryParams, ctx: ListOptionsContext): ListDecision | WatchDecision {
  let o = decodeListQuery(q);
  if (ctx.forceWatch) o = { ...o, watch: true };
  o = applyWatchListDefaults(o, ctx.watchListFeature);
  const errs = validateListOptions(o, ctx.watchListFeature);
  if (errs.length) throw errors.invalid(listOptionsKind, '', errs);

  let fieldSelector = validateFieldSelector(o.fieldSelector, ctx.fieldSelectors);
  if (ctx.name !== undefined) {
    if (!fieldSelector.isEmpty()) {
      if (fieldSelector.requiresExactMatch('metadata.name') !== ctx.name) {
        throw errors.badRequest("fieldSelector metadata.name doesn't match requested name");
      }
    } else fieldSelector = FieldSelector.everything().and('metadata.name', ctx.name);
  }
  return o.watch ? decideWatch(o, ctx, fieldSelector) : decideList(o, ctx, fieldSelector);
}

function decideList(o: RawListOptions, ctx: ListOptionsContext, fieldSelector: FieldSelector): ListDecision {
  const base = { kind: 'list' as const, labelSelector: o.labelSelector, fieldSelector };
  const limit = o.limit > 0 ? o.limit : undefined;
  if (o.continue !== '') {
    const pos = decodeContinueToken(o.continue);
    if (o.resourceVersion !== '' && o.resourceVersion !== '0') {
      throw errors.badRequest('specifying resource version is not allowed when using continue');
    }
    return { ...base, read: { mode: 'continue', rv: pos.rv, start: pos.start }, limit };
  }
  if (o.resourceVersion === '') return { ...base, read: { mode: 'mostRecent' }, limit };
  // RV "0" means Any, served from the cache, which ignores limit (watch-and-list.md §5).
  if (o.resourceVersion === '0') return { ...base, read: { mode: 'any' }, limit: undefined };
  const rv = parseResourceVersion(o.resourceVersion, ctx.resource);
  const exact = o.resourceVersionMatch === 'Exact' || (o.resourceVersionMatch === '' && limit !== undefined);
  // A revision that parses to 0 (e.g. "00"): storage reads "latest" (exact) or anything (not older).
  if (rv === 0) return exact ? { ...base, read: { mode: 'mostRecent' }, limit } : { ...base, read: { mode: 'any' }, limit };
  return { ...base, read: exact ? { mode: 'exact', rv } : { mode: 'notOlderThan', rv }, limit };
}

function decideWatch(o: RawListOptions, ctx: ListOptionsContext, fieldSelector: FieldSelector): WatchDecision {
  const rv = parseResourceVersion(o.resourceVersion, ctx.resource);
  const consistency = o.resourceVersion === '' ? 'mostRecent' : 'any';
  let start: WatchStart;
  if (o.sendInitialEvents === true) {
    start = rv > 0 ? { mode: 'initialState', consistency: 'notOlderThan', rv } : { mode: 'initialState', consistency };
  } else if (o.sendInitialEvents === false) {
    start = rv > 0 ? { mode: 'fromRevision', rv } : { mode: 'now', consistency };
  } else {
    start = rv > 0 ? { mode: 'fromRevision', rv } : { mode: 'initialState', consistency };
  }
  const sendInitialEvents = o.sendInitialEvents === true;
  return {
    kind: 'watch',
    start,
    sendInitialEvents,
    allowWatchBookmarks: o.allowWatchBookmarks,
    initialEventsEndBookmark: sendInitialEvents && o.allowWatchBookmarks,
    timeoutSeconds: o.timeoutSeconds,
    labelSelector: o.labelSelector,
    fieldSelector,
  };
}
