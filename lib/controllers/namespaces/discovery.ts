// Which namespaced resources exist, asked of the server's discovery documents (client-go's
// ServerPreferredNamespacedResources): /api and /apis name the groups, each group's preferred
// version lists its resources. A kind added to the server is covered without code here.

/** The fields of a discovery APIResource the namespace controller reads. */
export interface DiscoveredResource {
  name: string;
  namespaced: boolean;
  kind?: string;
  verbs: string[];
}

/** One group-version's resources (an APIResourceList). */
export interface DiscoveredResourceList {
  groupVersion: string;
  resources: DiscoveredResource[];
}

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/** Fetches a discovery path and returns its parsed JSON (RestClient.request('GET', path)). */
export type DiscoveryFetch = (path: string) => Promise<unknown>;

/** Some group-versions could not be listed (client-go's ErrGroupDiscoveryFailed, same text). */
export class GroupDiscoveryFailedError extends Error {
  constructor(readonly groups: ReadonlyMap<string, Error>) {
    const parts = [...groups].map(([gv, e]) => `${gv}: ${e.message}`).sort();
    super(`unable to retrieve the complete list of server APIs: ${parts.join(', ')}`);
    this.name = 'GroupDiscoveryFailedError';
  }
}

export interface NamespacedResourcesDiscovery {
  /** Lists that answered, namespaced top-level resources only (subresources dropped). */
  lists: DiscoveredResourceList[];
  /** Set when some group-versions failed; `lists` then holds the rest. */
  failure?: GroupDiscoveryFailedError;
}

interface GroupDocument {
  name?: unknown;
  versions?: Array<{ groupVersion?: unknown }>;
  preferredVersion?: { groupVersion?: unknown };
}

function asRecord(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${what}: unexpected discovery response`);
  return v as Record<string, unknown>;
}

/** The preferred group-version of every served group, core first. Throws when /api or /apis fails. */
async function preferredGroupVersions(fetch: DiscoveryFetch): Promise<string[]> {
  const core = asRecord(await fetch('/api'), '/api');
  const out: string[] = [];
  const coreVersions = Array.isArray(core.versions) ? core.versions.filter((v): v is string => typeof v === 'string') : [];
  if (coreVersions.length) out.push(coreVersions[0]);
  const groups = asRecord(await fetch('/apis'), '/apis');
  for (const g of (Array.isArray(groups.groups) ? groups.groups : []) as GroupDocument[]) {
    const preferred = g.preferredVersion?.groupVersion ?? g.versions?.[0]?.groupVersion;
    if (typeof preferred === 'string' && preferred) out.push(preferred);
  }
  return out;
}

function resourcesOf(doc: unknown, gv: string): DiscoveredResource[] {
  const list = asRecord(doc, gv);
  const items = Array.isArray(list.resources) ? list.resources : [];
  const out: DiscoveredResource[] = [];
  for (const raw of items as Array<Record<string, unknown>>) {
    if (!raw || typeof raw.name !== 'string') continue;
    const r: DiscoveredResource = {
      name: raw.name,
      namespaced: raw.namespaced === true,
      verbs: Array.isArray(raw.verbs) ? raw.verbs.filter((v): v is string => typeof v === 'string') : [],
    };
    if (typeof raw.kind === 'string') r.kind = raw.kind;
    out.push(r);
  }
  return out;
}

/** Path of a group-version's resource list: /api/v1 for the core group, /apis/<g>/<v> otherwise. */
export function groupVersionDiscoveryPath(groupVersion: string): string {
  return groupVersion.includes('/') ? `/apis/${groupVersion}` : `/api/${groupVersion}`;
}

/** ServerPreferredNamespacedResources: namespaced, top-level resources of each group's preferred version. */
export async function discoverNamespacedResources(fetch: DiscoveryFetch): Promise<NamespacedResourcesDiscovery> {
  const gvs = await preferredGroupVersions(fetch);
  const failed = new Map<string, Error>();
  const lists: DiscoveredResourceList[] = [];
  const answers = await Promise.all(
    gvs.map(async (gv) => {
      try {
        return { gv, resources: resourcesOf(await fetch(groupVersionDiscoveryPath(gv)), gv) };
      } catch (e) {
        failed.set(gv, e instanceof Error ? e : new Error(String(e)));
        return undefined;
      }
    }),
  );
  for (const a of answers) {
    if (!a) continue;
    const resources = a.resources.filter((r) => r.namespaced && !r.name.includes('/'));
    if (resources.length) lists.push({ groupVersion: a.gv, resources });
  }
  return failed.size ? { lists, failure: new GroupDiscoveryFailedError(failed) } : { lists };
}

/** schema.ParseGroupVersion: "" and "v1" are the core group; more than one slash is an error. */
export function parseGroupVersion(gv: string): { group: string; version: string } {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const parts = gv.split('/');
  if (parts.length === 1) return { group: '', version: gv };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  throw new Error(`unexpected GroupVersion string: ${gv}`);
}

/** GroupVersionResource.String(): "<group>/<version>, Resource=<resource>". */
export function formatGroupVersionResource(gvr: GroupVersionResource): string {
  return `${gvr.group}/${gvr.version}, Resource=${gvr.resource}`;
}
