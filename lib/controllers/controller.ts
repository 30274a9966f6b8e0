// What every controller of svc-controller-manager shares: the shape cmd starts it by, the view
// of an informer it reads, the logger it writes to, and the worker loop over a work queue
// (client-go's processNextWorkItem). The work queue reports upstream's workqueue metrics.
import type { ApiObject } from '../api/meta';
import type { Informer, WorkQueueOptions } from '../client';
import { WorkQueue } from '../client';

/** A controller cmd/controller-manager starts by name; run() returns once `signal` aborts and its workers stopped. */
export interface Controller {
  readonly name: string;
  run(signal: AbortSignal): Promise<void>;
}

/** The part of an Informer a controller reads (shared informers are started by cmd). */
export type InformerView<T extends ApiObject> = Pick<Informer<T>, 'addEventHandler' | 'getByName' | 'list' | 'waitForSync'>;

export type LogFn = (message: string, fields?: Record<string, unknown>) => void;

/** Levels as upstream uses them: debug for klog V(4)+, info for decisions, error for failed syncs. */
export interface ControllerLog {
  debug: LogFn;
  info: LogFn;
  error: LogFn;
}

const ignore: LogFn = () => undefined;
export const silentLog: ControllerLog = { debug: ignore, info: ignore, error: ignore };

/** Receives upstream's workqueue_* metrics of every named queue. */
export interface WorkQueueMetricsSink {
  /** The queue exists: client-go's provider creates every series of the queue (at zero) here. */
  created?(queue: string): void;
  /** A key entered the queue (workqueue_adds_total); deduplicated adds do not count. */
  added(queue: string): void;
  /** Keys waiting to be handed out, counting re-adds of keys being processed (workqueue_depth). */
  depth(queue: string, depth: number): void;
  /** A rate-limited requeue (workqueue_retries_total). */
  retried(queue: string): void;
  /** Seconds a key waited from its add until a worker took it (workqueue_queue_duration_seconds). */
  queued?(queue: string, seconds: number): void;
  /** Seconds a worker spent on a key, from get to done (workqueue_work_duration_seconds). */
  worked?(queue: string, seconds: number): void;
}

export const noWorkQueueMetrics: WorkQueueMetricsSink = { added: () => undefined, depth: () => undefined, retried: () => undefined };

/**
 * A WorkQueue that reports metrics as client-go's does: an add counts once until the key is
 * handed out again (the queue's "dirty" set), including adds that fire after a delay.
 */
export class InstrumentedWorkQueue<K = string> extends WorkQueue<K> {
  /** Keys added and not yet handed out, with the time of the add: mirrors the queue's dirty set. */
  private readonly pending = new Map<K, number>();
  /** Keys handed out and not yet done, with the time they were taken. */
  private readonly processingSince = new Map<K, number>();
  private readonly now: () => number;

  constructor(
    readonly name: string,
    private readonly metrics: WorkQueueMetricsSink = noWorkQueueMetrics,
    opts: WorkQueueOptions<K> = {},
  ) {
    super(opts);
    const clock = opts.clock;
    this.now = clock ? () => clock.now() : () => Date.now();
    metrics.created?.(name);
  }

  // WorkQueue's delayed adds call this.add too, so they are counted when they land.
  override add(key: K): void {
    if (!this.shuttingDown() && !this.pending.has(key)) {
      this.pending.set(key, this.now());
      this.metrics.added(this.name);
      this.metrics.depth(this.name, this.pending.size);
    }
    super.add(key);
  }

  override addRateLimited(key: K): void {
    if (!this.shuttingDown()) this.metrics.retried(this.name);
    super.addRateLimited(key);
  }

  override async get(): Promise<K | undefined> {
    const key = await super.get();
    if (key === undefined) return key;
    const now = this.now();
    const addedAt = this.pending.get(key);
    if (addedAt !== undefined) {
      this.pending.delete(key);
      this.metrics.depth(this.name, this.pending.size);
      this.metrics.queued?.(this.name, (now - addedAt) / 1000);
    }
    this.processingSince.set(key, now);
    return key;
  }

  override done(key: K): void {
    const since = this.processingSince.get(key);
    if (since !== undefined) {
      this.processingSince.delete(key);
      this.metrics.worked?.(this.name, (this.now() - since) / 1000);
    }
    super.done(key);
  }
}

/**
 * Runs `workers` loops taking keys from `queue` and passing each to `process`, which decides
 * about forget/requeue itself. When `signal` aborts the queue shuts down; resolves once every
 * worker finished its current key. A throw from `process` is reported, never fatal.
 */
export async function runWorkers<K>(
  queue: WorkQueue<K>,
  workers: number,
  process: (key: K) => Promise<void>,
  signal: AbortSignal,
  onUnhandled: (key: K, err: unknown) => void = () => undefined,
): Promise<void> {
  const stop = (): void => queue.shutDown();
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  const worker = async (): Promise<void> => {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      // Keys still queued at shutdown are handed out, but no new work starts once stopped.
      if (signal.aborted) {
        queue.done(key);
        continue;
      }
      try {
        await process(key);
      } catch (e) {
        onUnhandled(key, e);
      } finally {
        queue.done(key);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, workers) }, worker));
}

/** WaitForNamedCacheSync: true once every informer has synced, false if `signal` aborts first. */
export async function waitForCacheSync(signal: AbortSignal, ...informers: ReadonlyArray<Pick<InformerView<ApiObject>, 'waitForSync'>>): Promise<boolean> {
  const results = await Promise.all(informers.map((i) => i.waitForSync(signal)));
  return results.every(Boolean) && !signal.aborted;
}

/** The error's message, for logs and conditions. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
