// Builds one generic store per registered strategy over a shared storage.
import type { Logger } from 'pino';
import type { Namespace } from '../api';
import type { Storage } from '../etcd/storage';
import { isApiError } from '../machinery/errors';
import { WatchCache, WatchCacheMetrics, WatchCacheOptions } from '../watchcache';
import { KeyLayout } from './keys';
import { GenericStore } from './store';
import type { RequestContext, Strategy } from './strategy';

export const systemUser = { name: 'system:apiserver', groups: ['system:masters'] };

/** A context for the server's own requests (bootstrap, admission lookups). */
export function systemContext(namespace = ''): RequestContext {
  return { user: systemUser, namespace, subresource: '', dryRun: false, now: () => new Date() };
}

export interface CreateStoresOptions {
  /** One watch cache per resource (default true); false reads and watches etcd directly. */
  watchCache?: boolean;
  /** Per-resource watch cache metric callbacks. */
  cacheMetrics?: (resource: { group: string; resource: string }) => WatchCacheMetrics;
  /** Watch cache tuning shared by every resource (window sizes, watcher bounds). */
  cacheOptions?: Omit<WatchCacheOptions, 'underlying' | 'prefix' | 'metrics'>;
}

export function createStores(storage: Storage, strategies: readonly Strategy[], prefix: string, opts: CreateStoresOptions = {}): GenericStore[] {
  return strategies.map(storeFactory(storage, prefix, opts));
}

/** Builds a resource's store (and watch cache) over the shared storage: the server's resource registry installs with it. */
export function storeFactory(storage: Storage, prefix: string, opts: CreateStoresOptions = {}): (strategy: Strategy) => GenericStore {
  return (strategy) => {
    const root = new KeyLayout(prefix, strategy.resource).root;
    const cache =
      opts.watchCache === false
        ? undefined
        : new WatchCache({
            ...opts.cacheOptions,
            underlying: storage,
            prefix: root,
            metrics: opts.cacheMetrics?.({ group: strategy.resource.group, resource: strategy.resource.resource }),
          });
    return new GenericStore({ storage: cache ?? storage, cache, strategy, prefix });
  };
}

/**
 * Starts every store's watch cache (reads go to etcd until a cache is ready). `log`: debug
 * records (a child logger with component=registry, from the entry point).
 */
export async function startCaches(stores: readonly GenericStore[], log?: Logger): Promise<void> {
  const caches = stores.filter((s) => s.cache).length;
  log?.debug({ caches }, 'starting watch caches');
  const since = Date.now();
  await Promise.all(stores.map((s) => s.cache?.start()));
  log?.debug({ caches, ms: Date.now() - since }, 'watch caches started');
}

export async function closeCaches(stores: readonly GenericStore[], log?: Logger): Promise<void> {
  await Promise.all(stores.map((s) => s.cache?.close()));
  log?.debug({ caches: stores.filter((s) => s.cache).length }, 'watch caches stopped');
}

/** Reads a namespace, null when it does not exist (for admission; shared: callers must not change it). */
export function namespaceLookup(stores: readonly GenericStore[]): (name: string) => Namespace | null | Promise<Namespace | null> {
  const ns = stores.find((s) => s.resource.resource === 'namespaces' && s.resource.group === '');
  if (!ns) throw new Error('namespaces are not served');
  // A miss in the cache may only mean it has not seen a namespace created a moment ago: it is
  // confirmed with a quorum read.
  const confirm = async (name: string): Promise<Namespace | null> => {
    try {
      return (await ns.get(systemContext(), name)) as Namespace;
    } catch (e) {
      if (isApiError(e) && e.code === 404) return null;
      throw e;
    }
  };
  return (name) => {
    if (!name) return null;
    // The cache answers (as upstream's informer): at once, without a promise, when it is ready;
    // through getShared (which waits for it or reads the store) while it is not.
    const cached = ns.peekShared(systemContext(), name) as Namespace | null | undefined;
    if (cached) return cached;
    if (cached === null) return confirm(name);
    return ns.getShared(systemContext(), name).then(
      (found) => found as Namespace,
      () => confirm(name),
    );
  };
}
