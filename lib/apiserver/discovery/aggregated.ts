// Aggregated discovery (apidiscovery v2, discovery-and-health.md §2): every group, version and
// resource in one document, for /api (core group only) and /apis (all other groups).
import { groups, type ResourceInfo } from '../../api';
import { servedGroups } from './legacy';
import type { APIGroupDiscovery, APIGroupDiscoveryList, APIResourceDiscovery, APISubresourceDiscovery } from './types';

export const aggregatedDiscoveryVersion = 'v2';
export const aggregatedDiscoveryKind = 'APIGroupDiscoveryList';

const byName = <T>(key: (t: T) => string) => (a: T, b: T): number => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

export function resourceDiscovery(r: ResourceInfo): APIResourceDiscovery {
  const responseKind = { group: r.group, version: r.version, kind: r.kind };
  const subresources = r.subresources
    .map(
      (s): APISubresourceDiscovery => ({
        subresource: s.name,
        responseKind: s.kind ? { group: s.kind.group, version: s.kind.version, kind: s.kind.kind } : { ...responseKind },
        verbs: [...s.verbs].sort(),
      }),
    )
    .sort(byName((s) => s.subresource));
  return {
    resource: r.resource,
    responseKind,
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singular,
    verbs: [...r.verbs].sort(),
    ...(r.shortNames.length ? { shortNames: [...r.shortNames] } : {}),
    ...(r.categories?.length ? { categories: [...r.categories] } : {}),
    ...(subresources.length ? { subresources } : {}),
  };
}

function groupDiscovery(resources: readonly ResourceInfo[], name: string, versions: readonly string[]): APIGroupDiscovery {
  return {
    metadata: name ? { name } : {},
    versions: versions.map((version) => ({
      version,
      freshness: 'Current' as const,
      resources: resources
        .filter((r) => r.group === name && r.version === version)
        .map(resourceDiscovery)
        .sort(byName((r) => r.resource)),
    })),
  };
}

/** The document for /api ('core') or /apis ('apis'). */
export function aggregatedDiscovery(resources: readonly ResourceInfo[], root: 'core' | 'apis'): APIGroupDiscoveryList {
  const items: APIGroupDiscovery[] = [];
  for (const [name, versions] of servedGroups(resources)) {
    if ((name === '') === (root === 'core')) items.push(groupDiscovery(resources, name, versions));
  }
  return {
    kind: aggregatedDiscoveryKind,
    apiVersion: `${groups.apidiscovery}/${aggregatedDiscoveryVersion}`,
    metadata: {},
    items,
  };
}
