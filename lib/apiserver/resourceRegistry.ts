// The resources this server has, changing while it runs: install() creates a resource's store
// and watch cache, and from then on routing, discovery, OpenAPI, Table output and the per-resource
// metrics include it (they all read this registry); remove() takes it out of all of them, ends its
// watches cleanly, lets its requests in flight finish and stops its cache (upstream's crdHandler
// does the same when a CRD goes). Built-in kinds install through the same call at start;
// custom resources will too.
import type { Logger } from 'pino';
import type { ResourceInfo } from '../api';
import type { GenericStore } from '../registry/store';
import type { Strategy } from '../registry/strategy';
import { RequestWaitGroup, WatchTracker } from './lifecycle';
import type { ApiServerMetrics } from './metrics';

/** An installed resource as routing sees it: its store, its open watches, its requests in flight. */
export interface InstalledResource {
  info: ResourceInfo;
  store: GenericStore;
  /**
   * Whether requests reach it; absent: as the server's resource configuration (--runtime-config)
   * says. Custom resources will set it from their version's `served`.
   */
  served?: boolean;
  /** Its watches, ended at once when it is removed (clients see the stream end cleanly). */
  watches: WatchTracker;
  /** Its requests in flight other than watches: removal waits for them before stopping the cache. */
  requests: RequestWaitGroup;
}

export interface InstallOptions {
  /** Serve it whatever --runtime-config says (true), or never (false); default: as configured. */
  served?: boolean;
}

export interface ResourceRegistryOptions {
  /** Builds a resource's store over the server's storage, with its watch cache (lib/registry/stores.ts). */
  createStore(strategy: Strategy): GenericStore;
  /** Start each store's watch cache at install (default true; false when the caller starts them). */
  startCaches?: boolean;
  /** The per-resource series to drop when a resource is removed. */
  metrics?: ApiServerMetrics;
  log?: Logger;
}

type ResourceKey = Pick<ResourceInfo, 'group' | 'version' | 'resource'>;

const keyOf = (r: ResourceKey): string => `${r.group}/${r.version}/${r.resource}`;

export class ResourceRegistry {
  private readonly installed = new Map<string, InstalledResource>();
  private readonly cachesStarted = new Map<InstalledResource, Promise<void>>();
  private generationNumber = 0;
  private storesMemo: { generation: number; stores: readonly GenericStore[] } | undefined;

  constructor(private readonly opts: ResourceRegistryOptions) {}

  /** A registry over stores built elsewhere (unit tests, in-process servers): their caches are the caller's. */
  static over(stores: readonly GenericStore[]): ResourceRegistry {
    const byKey = new Map(stores.map((s) => [keyOf(s.resource), s]));
    const registry = new ResourceRegistry({ createStore: (strategy) => byKey.get(keyOf(strategy.resource))!, startCaches: false });
    for (const s of stores) registry.install(s.strategy);
    return registry;
  }

  /** Changes with every install and remove: what is derived from the resources (discovery, OpenAPI) is rebuilt on a change. */
  get generation(): number {
    return this.generationNumber;
  }

  /** Every installed resource's store, served or not (the server's own readers use unserved ones too). */
  get stores(): readonly GenericStore[] {
    if (this.storesMemo?.generation !== this.generationNumber) {
      this.storesMemo = { generation: this.generationNumber, stores: [...this.installed.values()].map((r) => r.store) };
    }
    return this.storesMemo.stores;
  }

  get resources(): readonly InstalledResource[] {
    return [...this.installed.values()];
  }

  lookup(group: string, version: string, resource: string): InstalledResource | undefined {
    return this.installed.get(`${group}/${version}/${resource}`);
  }

  /** Creates the resource's store and watch cache and makes it served; one resource per group/version/resource. */
  install(strategy: Strategy, opts: InstallOptions = {}): GenericStore {
    const key = keyOf(strategy.resource);
    if (this.installed.has(key)) throw new Error(`${key} is already installed`);
    const store = this.opts.createStore(strategy);
    const entry: InstalledResource = { info: store.resource, store, served: opts.served, watches: new WatchTracker(), requests: new RequestWaitGroup() };
    if (this.opts.startCaches !== false && store.cache) {
      this.cachesStarted.set(
        entry,
        store.cache.start().catch((err: Error) => this.opts.log?.error({ err: err.message, resource: key }, 'watch cache failed to start')),
      );
    }
    this.installed.set(key, entry);
    this.generationNumber++;
    this.opts.log?.debug({ resource: key }, 'resource installed');
    return store;
  }

  /**
   * Takes the resource out of routing, discovery and OpenAPI (new requests get 404), ends its
   * watches, waits for its requests in flight, then stops its cache and drops its metric series.
   */
  async remove(resource: ResourceKey): Promise<void> {
    const key = keyOf(resource);
    const entry = this.installed.get(key);
    if (!entry) throw new Error(`${key} is not installed`);
    this.installed.delete(key);
    this.generationNumber++;
    await entry.watches.drain(0);
    await entry.requests.wait();
    await this.stopCache(entry);
    this.opts.log?.debug({ resource: key }, 'resource removed');
    const { group, resource: plural } = entry.info;
    // Metric series are per group and resource: they stay while another version of it is installed.
    if (![...this.installed.values()].some((r) => r.info.group === group && r.info.resource === plural)) {
      this.opts.metrics?.forgetResource({ group, resource: plural });
    }
  }

  /** Stops every watch cache (server shutdown, after the last request). */
  async close(): Promise<void> {
    await Promise.all([...this.installed.values()].map((r) => this.stopCache(r)));
    this.opts.log?.debug({ resources: this.installed.size }, 'watch caches stopped');
  }

  private async stopCache(entry: InstalledResource): Promise<void> {
    if (this.opts.startCaches === false) return;
    // Closing fails a start still waiting for etcd, so this never waits on an unreachable etcd.
    await entry.store.cache?.close();
    await this.cachesStarted.get(entry);
    this.cachesStarted.delete(entry);
  }
}

/**
 * The stores served, read when needed: custom resources come and go, and admission policies may
 * match them, take them as parameters and type-check against their schemas. `generation` says
 * when what was derived from them is stale.
 */
export type LiveStores = Pick<ResourceRegistry, 'stores' | 'generation'>;
