// Maps a discovery path to its document: /api, /apis, /api/<v>, /apis/<g>, /apis/<g>/<v>.
// Documents are built once (the served resources are fixed at start-up); /api and /apis also
// answer aggregated discovery when the Accept header asks for it.
import type { ResourceInfo } from '../../api';
import { aggregatedDiscovery } from './aggregated';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, servedGroups } from './legacy';
import { aggregatedResponse, negotiateDiscovery, renderAggregated, type DiscoveryHTTPResponse, type RenderedDiscovery } from './negotiate';
import type { APIGroup, APIGroupList, APIResourceList, APIVersions } from './types';

export type PlainDiscoveryDocument = APIVersions | APIGroupList | APIGroup | APIResourceList;

export type DiscoveryResult =
  /** Write response as is (status, headers, exact body). */
  | { format: 'aggregated'; response: DiscoveryHTTPResponse }
  /** Encode `object` with the normal codec negotiation (JSON/YAML/Protobuf, 406). */
  | { format: 'plain'; object: PlainDiscoveryDocument };

export interface DiscoveryOptions {
  /** host:port clients should use, reported in /api's serverAddressByClientCIDRs. */
  serverAddress: string;
}

export interface DiscoveryRequest {
  /** URL path without query string. */
  path: string;
  accept?: string;
  ifNoneMatch?: string;
}

export interface Discovery {
  /** The document for a discovery path, or null when the path is not one (→ 404). */
  serve(req: DiscoveryRequest): DiscoveryResult | null;
}

export function createDiscovery(resources: readonly ResourceInfo[], opts: DiscoveryOptions): Discovery {
  const core: RenderedDiscovery = renderAggregated(aggregatedDiscovery(resources, 'core'));
  const apis: RenderedDiscovery = renderAggregated(aggregatedDiscovery(resources, 'apis'));
  const plain = new Map<string, PlainDiscoveryDocument>();
  plain.set('/api', apiVersions(resources, opts.serverAddress));
  plain.set('/apis', apiGroupList(resources));
  for (const [group, versions] of servedGroups(resources)) {
    if (group) plain.set(`/apis/${group}`, apiGroup(resources, group) as APIGroup);
    for (const v of versions) {
      plain.set(group ? `/apis/${group}/${v}` : `/api/${v}`, apiResourceList(resources, group, v) as APIResourceList);
    }
  }
  return {
    serve(req: DiscoveryRequest): DiscoveryResult | null {
      const path = req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
      const doc = plain.get(path);
      if (!doc) return null;
      if ((path === '/api' || path === '/apis') && negotiateDiscovery(req.accept) === 'aggregated') {
        return { format: 'aggregated', response: aggregatedResponse(path === '/api' ? core : apis, req.ifNoneMatch) };
      }
      return { format: 'plain', object: doc };
    },
  };
}
