// The served resources, looked up by group, version and plural name: stored resources (a generic
// store each) and create-only endpoints (virtual resources and subresources such as token).
// Only what `serves` accepts is in the table (--runtime-config, removed versions); routing,
// discovery and OpenAPI all read the table, so a disabled version vanishes from all three.
import type { ResourceInfo } from '../api';
import type { CreateOnlyEndpoint } from '../registry/createOnly';
import type { GenericStore } from '../registry/store';
import { buildKindSchemas, type KindSchemas } from './kindSchemas';

export interface ServedResource {
  info: ResourceInfo;
  /** Absent for a virtual resource (it has only a create-only endpoint). */
  store?: GenericStore;
}

/** A stored resource: every verb handler may use its store. */
export interface StoredResource extends ServedResource {
  store: GenericStore;
}

export function isStored(r: ServedResource): r is StoredResource {
  return r.store !== undefined;
}

export class ResourceTable {
  private readonly byPath = new Map<string, ServedResource>();
  private readonly createOnly = new Map<string, CreateOnlyEndpoint>();
  readonly resources: readonly ServedResource[];
  /** The schema of every kind a response of this table may carry (Protobuf encoding). */
  readonly schemaForKind: KindSchemas;

  constructor(stored: readonly StoredResource[], endpoints: readonly CreateOnlyEndpoint[] = [], serves: (info: ResourceInfo) => boolean = () => true) {
    const all: ServedResource[] = stored.filter((r) => serves(r.info));
    for (const e of endpoints) {
      // A subresource goes with its resource (serviceaccounts/token with serviceaccounts).
      if (!serves(e.resource)) continue;
      this.createOnly.set(`${e.resource.group}/${e.resource.version}/${e.resource.resource}/${e.subresource}`, e);
      if (!e.subresource) all.push({ info: e.resource });
    }
    for (const r of all) this.byPath.set(`${r.info.group}/${r.info.version}/${r.info.resource}`, r);
    this.resources = all;
    this.schemaForKind = buildKindSchemas(
      all.map((r) => r.info),
      [...this.createOnly.values()].map((e) => e.body),
    );
  }

  lookup(group: string, version: string, resource: string): ServedResource | undefined {
    return this.byPath.get(`${group}/${version}/${resource}`);
  }

  /** The create-only endpoint of a virtual resource (subresource '') or of a subresource. */
  createOnlyEndpoint(info: ResourceInfo, subresource: string): CreateOnlyEndpoint | undefined {
    return this.createOnly.get(`${info.group}/${info.version}/${info.resource}/${subresource}`);
  }

  get infos(): ResourceInfo[] {
    return this.resources.map((r) => r.info);
  }
}
