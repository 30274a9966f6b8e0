// The kinds under fuzz, with their URLs and objects: a sentinel per kind that only certainly
// invalid writes reach (it must be unchanged afterwards), and victims the other writes may change.
import { apiVersionOf, ResourceInfo } from '../../../../lib/api';

export interface FuzzTarget {
  info: ResourceInfo;
  /** The namespace of namespaced objects. */
  namespace: string;
  /** e.g. /api/v1/namespaces/fz/serviceaccounts (or cluster-scoped /api/v1/namespaces). */
  collection: string;
  /** The collection across all namespaces, for namespaced kinds. */
  allNamespaces?: string;
  sentinel: string;
  victims: string[];
  item(name: string): string;
  /** A valid object of this kind (labels mark it a sentinel or a victim). */
  template(name: string, role: 'sentinel' | 'victim' | 'new'): Record<string, unknown>;
}

/** Label every fuzz-created object carries; destructive collection requests are confined to victims with it. */
export const roleLabel = 'fuzz-role';
export const victimSelector = `${roleLabel}=victim`;

export function gvPrefix(info: { group: string; version: string }): string {
  return info.group ? `/apis/${info.group}/${info.version}` : `/api/${info.version}`;
}

export function fuzzTarget(
  info: ResourceInfo,
  opts: { namespace: string; sentinel: string; victims: number; extra?: (name: string) => Record<string, unknown> },
): FuzzTarget {
  const base = gvPrefix(info);
  const collection = info.namespaced ? `${base}/namespaces/${opts.namespace}/${info.resource}` : `${base}/${info.resource}`;
  const victims = Array.from({ length: opts.victims }, (_, i) => `${opts.sentinel}-victim-${i}`);
  return {
    info,
    namespace: opts.namespace,
    collection,
    allNamespaces: info.namespaced ? `${base}/${info.resource}` : undefined,
    sentinel: opts.sentinel,
    victims,
    item: (name) => `${collection}/${encodeURIComponent(name)}`,
    template: (name, role) => ({
      apiVersion: apiVersionOf(info),
      kind: info.kind,
      metadata: { name, ...(info.namespaced ? { namespace: opts.namespace } : {}), labels: { [roleLabel]: role } },
      // A copy: generators mutate templates in place.
      ...structuredClone(opts.extra?.(name)),
    }),
  };
}
