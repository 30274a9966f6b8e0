// start()'s storage step: the etcd client (or memory), compaction, the resource registry with the
// built-in resources installed (a store and watch cache each), and the check that the stored API
// naming matches this server's.
import { promises as fs } from 'node:fs';
import type pino from 'pino';
import type { ApiServerMetrics } from '../../../lib/apiserver/metrics';
import { CustomResourceController } from '../../../lib/apiserver/customresources/crdController';
import { ResourceRegistry } from '../../../lib/apiserver/resourceRegistry';
import { crdCleanupFinalizer, customresourcedefinitions } from '../../../lib/api/apiextensions';
import { storedObjectCounts } from '../../../lib/apiserver/server';
import {
  CompactionStore,
  describeOutage,
  Etcd3Storage,
  fetchEtcdVersion,
  MemoryStorage,
  progressRequestsAreOrdered,
  startCompactor,
  Storage,
  type AvailabilityEvent,
  type TlsOptions as EtcdTls,
} from '../../../lib/etcd';
import { WatchBudget } from '../../../lib/machinery/watchBudget';
import { builtinStrategies } from '../../../lib/registry/builtin';
import { customResourceStrategy } from '../../../lib/registry/customresources/versionStrategy';
import { ensureStoredNaming } from '../../../lib/registry/storedNaming';
import { storeFactory } from '../../../lib/registry/stores';
import type { WatchCacheMetrics } from '../../../lib/watchcache';
import type { ApiServerOptions } from '../options';

/** How much longer than --request-timeout an etcd call may wait, so the request's deadline answers first. */
const etcdCallGraceMs = 1000;

/** Whether the post-start hooks have finished: before, an etcd outage also holds up readiness. */
export interface StartupState {
  hooksFinished: boolean;
}

export interface StorageStep {
  /** The etcd client; absent with --storage-backend=memory. */
  etcd?: Etcd3Storage;
  /** The resources served, built-in ones installed; install() and remove() change them at run time. */
  resources: ResourceRegistry;
  /** One budget for every watch's unsent bytes: the HTTP streams and the caches' direct etcd watchers. */
  watchBudget: WatchBudget;
  /**
   * Serves the CRDs' custom resources through `resources` (started by a post-start hook: ready
   * once every existing CRD is served).
   */
  customResources: CustomResourceController;
  /** Resolves once the stored naming profile is known to match this server's (nothing is written before). */
  namingVerified: Promise<void>;
  /** Stops compaction, the watch caches and the etcd client (after the last request). */
  close(): Promise<void>;
}

export async function startStorage(opts: ApiServerOptions, metrics: ApiServerMetrics, startup: StartupState, log: pino.Logger): Promise<StorageStep> {
  const etcdTls = await loadEtcdTls(opts);
  const etcd =
    opts.storageBackend === 'memory'
      ? undefined
      : new Etcd3Storage({
          endpoints: opts.etcdServers,
          tls: etcdTls,
          observe: (op, key, s) => metrics.observeEtcd(op, key, s),
          // As upstream's client: a call waits for etcd as long as the request may take
          // (--request-timeout), and the client gets the timeout filter's 504. The second more
          // lets the request's own deadline answer first (a call is not cancelled with it).
          requestTimeoutMs: opts.requestTimeoutMs + etcdCallGraceMs,
          onAvailability: (e) => logAvailability(log, e, startup.hooksFinished),
          log: log.child({ component: 'etcd' }),
        });
  const storage: Storage & CompactionStore = etcd ?? new MemoryStorage();
  const compactor = startCompactor(storage, {
    intervalMs: opts.etcdCompactionIntervalMs,
    onCompacted: (revision) => log.info({ revision }, 'compacted etcd history'),
    onError: (err) => log.warn({ err: err.message }, 'compaction round failed'),
  });

  const progressRequestsOrdered = opts.storageBackend === 'memory' || (await etcdOrdersProgress(opts.etcdServers[0], log, etcdTls));
  const watchBudget = new WatchBudget({ limitBytes: opts.maxWatchUnsentBytes });
  const createStore = storeFactory(storage, opts.etcdPrefix, {
    cacheOptions: { progressRequestsOrdered, watchBudget, log: log.child({ component: 'watchcache' }) },
    watchCache: opts.watchCache,
    cacheMetrics: (r): WatchCacheMetrics => ({
      onEventsReceived: (n) => metrics.watchCacheEventsReceived.inc(r, n),
      onRevision: (rev) => metrics.watchCacheResourceVersion.set(r, rev),
      onConsistentRead: (success, fallback) => metrics.watchCacheConsistentReads.inc({ ...r, success: String(success), fallback: String(fallback) }),
    }),
  });
  // Built-in kinds install as custom resources will: a store and watch cache each, served from then on.
  const resources = new ResourceRegistry({ createStore, metrics, log: log.child({ component: 'registry' }) });
  for (const strategy of builtinStrategies) resources.install(strategy);
  metrics.trackStoredObjects(storedObjectCounts(resources));
  const crds = resources.lookup(customresourcedefinitions.group, customresourcedefinitions.version, customresourcedefinitions.resource);
  if (!crds) throw new Error('customresourcedefinitions are not installed');
  const customResources = new CustomResourceController({
    registry: resources,
    crdStore: crds.store,
    strategyFor: customResourceStrategy,
    cleanupFinalizer: crdCleanupFinalizer,
    log: log.child({ component: 'customresources' }),
  });
  const namingVerified = ensureStoredNaming(storage, opts.etcdPrefix);
  namingVerified.catch(() => undefined); // the post-start hook reports it
  return {
    etcd,
    resources,
    customResources,
    watchBudget,
    namingVerified,
    close: async () => {
      compactor.stop();
      await customResources.stop();
      await resources.close();
      await storage.close();
    },
  };
}

/** --etcd-cafile/--etcd-certfile/--etcd-keyfile, read once at start (as upstream's client does). */
async function loadEtcdTls(opts: ApiServerOptions): Promise<EtcdTls | undefined> {
  if (!opts.etcdCAFile && !opts.etcdCertFile) return undefined;
  const read = (f: string): Promise<Buffer | undefined> => (f ? fs.readFile(f) : Promise.resolve(undefined));
  const [ca, cert, key] = await Promise.all([read(opts.etcdCAFile), read(opts.etcdCertFile), read(opts.etcdKeyFile)]);
  return { ca, cert, key };
}

/** Consistent reads come from the watch cache only on an etcd whose progress replies are ordered. */
async function etcdOrdersProgress(endpoint: string | undefined, log: pino.Logger, tls?: EtcdTls): Promise<boolean> {
  if (!endpoint) return false;
  try {
    const version = await fetchEtcdVersion(endpoint, 2000, tls);
    const ordered = progressRequestsAreOrdered(version);
    log.info({ etcdVersion: version, progressRequestsOrdered: ordered }, 'etcd version');
    return ordered;
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'etcd version unknown: consistent reads go to etcd');
    return false;
  }
}

/**
 * An etcd outage is logged once when it begins (warn: which endpoints, since when, each one's
 * error, and what the server waits for) and once when it ends (how long it lasted).
 */
function logAvailability(log: pino.Logger, e: AvailabilityEvent, hooksFinished: boolean): void {
  if (e.kind === 'unreachable') {
    const consequence = hooksFinished
      ? 'requests that need etcd wait for it until their deadline, then answer 504'
      : 'the server is not ready until etcd answers (the post-start hooks wait for it)';
    log.warn({ endpoints: e.outage.endpoints, since: new Date(e.outage.since).toISOString() }, `${describeOutage(e.outage, Date.now())}; ${consequence}`);
    return;
  }
  log.info({ endpoint: e.endpoint, since: new Date(e.since).toISOString(), downMs: e.downMs }, `etcd reachable again at ${e.endpoint} after ${(e.downMs / 1000).toFixed(1)} s`);
}
