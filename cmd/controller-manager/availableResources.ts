// Which resources the apiserver serves (upstream's GetAvailableResources), asked once before the
// controllers are built: a controller whose resources are not served (--runtime-config turned
// them off) is skipped with one log line instead of retrying a 404 forever.
import { isNotFound, type ResourceDescriptor } from '../../lib/client';

/** GET a discovery path and return its JSON (RestClient.request). */
export type DiscoveryGet = (path: string) => Promise<unknown>;

export const resourceKey = (r: Pick<ResourceDescriptor, 'group' | 'version' | 'resource'>): string => `${r.group}/${r.version}/${r.resource}`;

/** The keys of `wanted` that the server lists in its group/version discovery documents. */
export async function availableResources(get: DiscoveryGet, wanted: readonly ResourceDescriptor[]): Promise<Set<string>> {
  const out = new Set<string>();
  const groupVersions = new Map<string, ResourceDescriptor>();
  for (const r of wanted) groupVersions.set(`${r.group}/${r.version}`, r);
  for (const r of groupVersions.values()) {
    let doc: unknown;
    try {
      doc = await get(r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`);
    } catch (e) {
      // A group/version that is not served answers 404; anything else is a failure to start.
      if (isNotFound(e)) continue;
      throw e;
    }
    const resources = (doc as { resources?: Array<{ name?: unknown }> } | null)?.resources ?? [];
    for (const item of resources) if (typeof item?.name === 'string') out.add(resourceKey({ ...r, resource: item.name }));
  }
  return out;
}
