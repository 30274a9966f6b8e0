// The namespace controller (upstream pkg/controller/namespace/namespace_controller.go): every
// namespace with a deletionTimestamp is queued — after a short grace period so that all
// apiservers see the deletion and refuse new content first — and handed to the deleter, which
// empties it and removes our finalizer. Content still going away is retried after about half
// its estimate; other failures back off, never longer than a minute.
import type { Namespace } from '../../api';
import type { Clock, Timer } from '../../client';
import { BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter, RateLimiter, realClock } from '../../client';
import type { Controller, ControllerLog, InformerView, WorkQueueMetricsSink } from '../controller';
import { errorMessage, InstrumentedWorkQueue, noWorkQueueMetrics, runWorkers, silentLog, waitForCacheSync } from '../controller';
import { NamespacedResourcesDeleter, NamespaceDeleterClient, ResourcesRemainingError } from './resourcesDeleter';

export const namespaceControllerName = 'namespace';

export interface NamespaceControllerOptions {
  client: NamespaceDeleterClient;
  namespaces: InformerView<Namespace>;
  /** `--concurrent-namespace-syncs`; default 10. */
  workers?: number;
  /** `--namespace-sync-period`: how often every deleting namespace is looked at again; default 5 min, 0 for never. */
  resyncPeriodMs?: number;
  /** Wait after a namespace event before acting on it; default 5 s (namespaceDeletionGracePeriod). */
  deletionGracePeriodMs?: number;
  finalizerToken?: string;
  clock?: Clock;
  log?: ControllerLog;
  queueMetrics?: WorkQueueMetricsSink;
  /** Replaces the deleter (tests). */
  deleter?: Pick<NamespacedResourcesDeleter, 'delete'>;
}

/** nsControllerRateLimiter: per-key backoff 5 ms doubling to 60 s, overall 10 qps with bursts of 100. */
export function namespaceControllerRateLimiter(clock: Pick<Clock, 'now'>): RateLimiter<string> {
  return new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter<string>(5, 60_000), new BucketRateLimiter<string>(10, 100, clock));
}

export class NamespaceController implements Controller {
  readonly name = namespaceControllerName;
  readonly queue: InstrumentedWorkQueue<string>;
  private readonly namespaces: InformerView<Namespace>;
  private readonly deleter: Pick<NamespacedResourcesDeleter, 'delete'>;
  private readonly workers: number;
  private readonly resyncPeriodMs: number;
  private readonly graceMs: number;
  private readonly clock: Clock;
  private readonly log: ControllerLog;

  constructor(opts: NamespaceControllerOptions) {
    this.namespaces = opts.namespaces;
    this.workers = opts.workers ?? 10;
    this.resyncPeriodMs = opts.resyncPeriodMs ?? 5 * 60_000;
    this.graceMs = opts.deletionGracePeriodMs ?? 5_000;
    this.clock = opts.clock ?? realClock;
    this.log = opts.log ?? silentLog;
    this.deleter =
      opts.deleter ??
      new NamespacedResourcesDeleter({ client: opts.client, finalizerToken: opts.finalizerToken, now: () => this.clock.now(), log: this.log });
    this.queue = new InstrumentedWorkQueue<string>(this.name, opts.queueMetrics ?? noWorkQueueMetrics, {
      clock: this.clock,
      rateLimiter: namespaceControllerRateLimiter(this.clock),
    });
    this.namespaces.addEventHandler({
      onAdd: (ns) => this.enqueue(ns),
      onUpdate: (_old, ns) => this.enqueue(ns),
    });
  }

  async run(signal: AbortSignal): Promise<void> {
    this.log.info('Starting controller', { controller: this.name });
    try {
      if (!(await waitForCacheSync(signal, this.namespaces))) return;
      const stopResync = this.startResync(signal);
      try {
        await runWorkers(this.queue, this.workers, (key) => this.processNext(key, signal), signal, (key, err) =>
          this.log.error(`deletion of namespace ${key} failed: ${errorMessage(err)}`, { namespace: key }),
        );
      } finally {
        stopResync();
      }
    } finally {
      this.queue.shutDown();
      this.log.info('Shutting down controller', { controller: this.name });
    }
  }

  /** Only namespaces being deleted are queued, after the grace period. */
  private enqueue(ns: Namespace): void {
    const name = ns.metadata?.name;
    if (!name || !ns.metadata?.deletionTimestamp) return;
    this.queue.addAfter(name, this.graceMs);
  }

  /** The informer resync upstream relies on: every deleting namespace is queued again each period. */
  private startResync(signal: AbortSignal): () => void {
    if (!(this.resyncPeriodMs > 0)) return () => undefined;
    const period = this.resyncPeriodMs;
    const tick = (): void => {
      if (signal.aborted) return;
      for (const ns of this.namespaces.list()) this.enqueue(ns);
      timer = this.clock.setTimeout(tick, period);
    };
    let timer: Timer = this.clock.setTimeout(tick, period);
    return () => timer.cancel();
  }

  private async processNext(key: string, signal: AbortSignal): Promise<void> {
    const started = this.clock.now();
    try {
      if (!this.namespaces.getByName(key)) {
        this.log.info('Namespace has been deleted', { namespace: key });
        this.queue.forget(key);
        return;
      }
      await this.deleter.delete(key, signal);
      this.queue.forget(key);
    } catch (e) {
      // Shutting down: the request was cut short on purpose, and the queue takes no retries.
      if (signal.aborted) return;
      if (e instanceof ResourcesRemainingError) {
        // Go's integer division: estimate/2 + 1 seconds.
        const waitSeconds = Math.floor(e.estimateSeconds / 2) + 1;
        this.log.debug('Content remaining in namespace', { namespace: key, waitSeconds });
        this.queue.addAfter(key, waitSeconds * 1000);
      } else {
        this.queue.addRateLimited(key);
        this.log.error(`deletion of namespace ${key} failed: ${errorMessage(e)}`, { namespace: key });
      }
    } finally {
      this.log.debug('Finished syncing namespace', { namespace: key, durationMs: this.clock.now() - started });
    }
  }
}
