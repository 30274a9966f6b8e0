// URL paths and query strings of resource requests, as the API lays them out:
// /api/v1/... for the core group, /apis/<group>/<version>/... otherwise; namespaced resources
// under /namespaces/<ns>/ (or across all namespaces without it).

/** Which resource a request addresses. lib/api's ResourceInfo satisfies it. */
export interface ResourceDescriptor {
  group: string;
  version: string;
  /** Plural name as in URLs, e.g. "certificatesigningrequests". */
  resource: string;
  namespaced: boolean;
}

export interface ResourceTarget {
  namespace?: string;
  name?: string;
  subresource?: string;
}

/** Query options of list and watch (metav1.ListOptions). */
export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  limit?: number;
  continue?: string;
  timeoutSeconds?: number;
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
}

/** Query options of create, update and patch. */
export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: 'Ignore' | 'Warn' | 'Strict';
  /** Server-side apply only: take ownership of conflicting fields. */
  force?: boolean;
}

export function groupVersionPath(r: { group: string; version: string }): string {
  return r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
}

export function resourcePath(r: ResourceDescriptor, t: ResourceTarget = {}): string {
  let p = groupVersionPath(r);
  if (r.namespaced && t.namespace) p += `/namespaces/${encodeURIComponent(t.namespace)}`;
  if (!r.namespaced && t.namespace) throw new Error(`${r.resource} is cluster-scoped: no namespace may be given`);
  p += `/${r.resource}`;
  if (t.name !== undefined) {
    if (t.name === '') throw new Error(`${r.resource}: resource name may not be empty`);
    p += `/${encodeURIComponent(t.name)}`;
  }
  if (t.subresource) {
    if (t.name === undefined) throw new Error(`${r.resource}: a subresource needs a name`);
    p += `/${t.subresource}`;
  }
  return p;
}

type QueryValue = string | number | boolean | undefined;

/** `?a=b&...` of the defined values, or '' when none is. */
export function queryString(values: Record<string, QueryValue>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export function listQuery(o: ListOptions, watch = false): Record<string, QueryValue> {
  return {
    watch: watch ? 'true' : undefined,
    labelSelector: o.labelSelector || undefined,
    fieldSelector: o.fieldSelector || undefined,
    resourceVersion: o.resourceVersion || undefined,
    resourceVersionMatch: o.resourceVersionMatch,
    limit: o.limit ? o.limit : undefined,
    continue: o.continue || undefined,
    timeoutSeconds: o.timeoutSeconds,
    allowWatchBookmarks: o.allowWatchBookmarks ? true : undefined,
    sendInitialEvents: o.sendInitialEvents,
  };
}

export function writeQuery(o: WriteOptions): Record<string, QueryValue> {
  return {
    dryRun: o.dryRun ? 'All' : undefined,
    fieldManager: o.fieldManager,
    fieldValidation: o.fieldValidation,
    force: o.force,
  };
}
