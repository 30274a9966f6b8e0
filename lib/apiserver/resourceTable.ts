// The served resources, looked up by group, version and plural name: stored resources (the
// registry's, which change at run time) and create-only endpoints (virtual resources and
// subresources such as token, fixed at start). Only what is served is in the table
// (--runtime-config, removed versions); routing, discovery and OpenAPI all read the table, so a
// disabled or removed resource vanishes from all three.
import type { ResourceInfo } from '../api';
import type { CreateOnlyEndpoint } from '../registry/createOnly';
import type { GenericStore } from '../registry/store';
import { buildKindSchemas, type KindSchemas } from './kindSchemas';
import type { WatchTracker, RequestWaitGroup } from './lifecycle';
import { ResourceRegistry, type InstalledResource } from './resourceRegistry';

export interface ServedResource {
  info: ResourceInfo;
  /** Absent for a virtual resource (it has only a create-only endpoint). */
  store?: GenericStore;
  /** A stored resource's open watches and requests in flight (its removal ends and awaits them). */
  watches?: WatchTracker;
  requests?: RequestWaitGroup;
}

/** A stored resource: every verb handler may use its store. */
export interface StoredResource extends ServedResource {
  store: GenericStore;
}

export function isStored(r: ServedResource): r is StoredResource {
  return r.store !== undefined;
}

/** What the table derives from the registry's resources, rebuilt when they change. */
interface Derived {
  generation: number;
  resources: readonly ServedResource[];
  /** The served ones by group/version/resource (what routing looks up per request). */
  byPath: ReadonlyMap<string, ServedResource>;
  schemaForKind: KindSchemas;
}

export class ResourceTable {
  private readonly virtual = new Map<string, ServedResource>();
  private readonly createOnly = new Map<string, CreateOnlyEndpoint>();
  private readonly registry: ResourceRegistry;
  private derived?: Derived;

  /** `stored`: the registry (or, in tests, fixed stores); `serves`: whether configuration serves a resource. */
  constructor(
    stored: ResourceRegistry | readonly StoredResource[],
    endpoints: readonly CreateOnlyEndpoint[] = [],
    private readonly serves: (info: ResourceInfo) => boolean = () => true,
  ) {
    this.registry = stored instanceof ResourceRegistry ? stored : ResourceRegistry.over(stored.map((r) => r.store));
    for (const e of endpoints) {
      // A subresource goes with its resource (serviceaccounts/token with serviceaccounts).
      if (!serves(e.resource)) continue;
      this.createOnly.set(`${e.resource.group}/${e.resource.version}/${e.resource.resource}/${e.subresource}`, e);
      if (!e.subresource) this.virtual.set(keyOf(e.resource), { info: e.resource });
    }
  }

  private isServed(r: InstalledResource): boolean {
    return r.served ?? this.serves(r.info);
  }

  private current(): Derived {
    const generation = this.registry.generation;
    if (this.derived?.generation === generation) return this.derived;
    const resources: ServedResource[] = [...this.registry.resources.filter((r) => this.isServed(r)), ...this.virtual.values()];
    const schemaForKind = buildKindSchemas(
      resources.map((r) => r.info),
      [...this.createOnly.values()].map((e) => e.body),
    );
    const byPath = new Map(resources.map((r) => [keyOf(r.info), r]));
    this.derived = { generation, resources, byPath, schemaForKind };
    return this.derived;
  }

  /** Changes whenever the served resources do (discovery and OpenAPI rebuild on it). */
  get generation(): number {
    return this.registry.generation;
  }

  get resources(): readonly ServedResource[] {
    return this.current().resources;
  }

  /** The schema of every kind a response of this table may carry (Protobuf encoding). */
  get schemaForKind(): KindSchemas {
    return this.current().schemaForKind;
  }

  lookup(group: string, version: string, resource: string): ServedResource | undefined {
    return this.current().byPath.get(`${group}/${version}/${resource}`);
  }

  /** The create-only endpoint of a virtual resource (subresource '') or of a subresource. */
  createOnlyEndpoint(info: ResourceInfo, subresource: string): CreateOnlyEndpoint | undefined {
    return this.createOnly.get(`${info.group}/${info.version}/${info.resource}/${subresource}`);
  }

  get infos(): ResourceInfo[] {
    return this.resources.map((r) => r.info);
  }
}

const keyOf = (r: ResourceInfo): string => `${r.group}/${r.version}/${r.resource}`;
