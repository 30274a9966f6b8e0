// The plain ("legacy", unaggregated) discovery documents: /api, /apis, /apis/<group>,
// /api/v1 and /apis/<group>/<version> (discovery-and-health.md §1). Pure functions of the
// served ResourceInfo list.
import type { ResourceInfo } from '../../api';
import { storageVersionHash } from './storageVersionHash';
import type { APIGroup, APIGroupList, APIResource, APIResourceList, APIVersions, GroupVersionForDiscovery } from './types';
import { compareVersionPriority } from '../../machinery/versionPriority';

/** Group names in the order they first appear in `resources`, with their versions by preference. */
export function servedGroups(resources: readonly ResourceInfo[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of resources) {
    const versions = out.get(r.group) ?? [];
    if (!versions.includes(r.version)) versions.push(r.version);
    out.set(r.group, versions);
  }
  for (const versions of out.values()) versions.sort(compareVersionPriority);
  return out;
}

/** GET /api. `serverAddress` is host:port as clients should reach this server. */
export function apiVersions(resources: readonly ResourceInfo[], serverAddress: string): APIVersions {
  const core = servedGroups(resources).get('');
  return {
    kind: 'APIVersions',
    versions: core && core.length ? core : ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function groupEntry(name: string, versions: readonly string[]): APIGroup {
  const gvs: GroupVersionForDiscovery[] = versions.map((version) => ({ groupVersion: `${name}/${version}`, version }));
  return { name, versions: gvs, preferredVersion: gvs[0] };
}

/** GET /apis: every non-core group (the core group lives at /api). */
export function apiGroupList(resources: readonly ResourceInfo[]): APIGroupList {
  const groups: APIGroup[] = [];
  for (const [name, versions] of servedGroups(resources)) if (name !== '') groups.push(groupEntry(name, versions));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

/** GET /apis/<group>; null when the group is not served (→ 404). */
export function apiGroup(resources: readonly ResourceInfo[], group: string): APIGroup | null {
  if (group === '') return null;
  const versions = servedGroups(resources).get(group);
  if (!versions) return null;
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(group, versions) };
}

const sortedVerbs = (verbs: readonly string[]): string[] => [...verbs].sort();

/** The APIResource entries of one resource: itself, then `<resource>/<sub>` per subresource. */
export function apiResources(r: ResourceInfo): APIResource[] {
  const main: APIResource = {
    name: r.resource,
    singularName: r.singular,
    namespaced: r.namespaced,
    kind: r.kind,
    verbs: sortedVerbs(r.verbs),
    ...(r.shortNames.length ? { shortNames: [...r.shortNames] } : {}),
    ...(r.categories?.length ? { categories: [...r.categories] } : {}),
    storageVersionHash: storageVersionHash(r.group, r.storageVersion ?? r.version, r.kind),
  };
  const subs = r.subresources.map(
    (sub): APIResource => ({
      name: `${r.resource}/${sub.name}`,
      singularName: '',
      namespaced: r.namespaced,
      // group/version only when the subresource's kind lives in another group-version (e.g. TokenRequest).
      ...(sub.kind && (sub.kind.group !== r.group || sub.kind.version !== r.version) ? { group: sub.kind.group, version: sub.kind.version } : {}),
      kind: sub.kind?.kind ?? r.kind,
      verbs: sortedVerbs(sub.verbs),
    }),
  );
  return [main, ...subs];
}

/** GET /api/v1 or /apis/<group>/<version>; null when nothing is served there (→ 404). */
export function apiResourceList(resources: readonly ResourceInfo[], group: string, version: string): APIResourceList | null {
  const mine = resources.filter((r) => r.group === group && r.version === version);
  if (!mine.length) return null;
  const list = mine.flatMap(apiResources).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const groupVersion = group ? `${group}/${version}` : version;
  return group
    ? { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources: list }
    : { kind: 'APIResourceList', groupVersion, resources: list };
}
