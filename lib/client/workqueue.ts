// The controller work queue, as client-go's util/workqueue (queue.go, delaying_queue.go,
// rate_limiting_queue.go): keys are deduplicated while waiting; a key being processed is never
// handed out again until done(), and if it was added meanwhile it is queued once more at done();
// keys can be delayed (addAfter) or delayed by a rate limiter (addRateLimited).
import type { Clock, Timer } from './clock';
import { realClock } from './clock';
import { defaultControllerRateLimiter, RateLimiter } from './rateLimiter';

export interface WorkQueueOptions<K> {
  clock?: Clock;
  /** Default: the controller rate limiter (max of 5 ms…1000 s per key and 10 qps / burst 100). */
  rateLimiter?: RateLimiter<K>;
}

export class WorkQueue<K = string> {
  private readonly clock: Clock;
  private readonly rateLimiter: RateLimiter<K>;
  /** Keys ready to be handed out, in order. */
  private queue: K[] = [];
  /** Keys that need processing: queued, or added again while being processed. */
  private readonly dirty = new Set<K>();
  private readonly processing = new Set<K>();
  private readonly getters: Array<(key: K | undefined) => void> = [];
  private readonly drainWaiters: Array<() => void> = [];
  /** Delayed keys and when they become ready (the earliest request wins). */
  private readonly waiting = new Map<K, number>();
  private timer?: Timer;
  private timerAt = Number.POSITIVE_INFINITY;
  private shutdown = false;

  constructor(opts: WorkQueueOptions<K> = {}) {
    this.clock = opts.clock ?? realClock;
    this.rateLimiter = opts.rateLimiter ?? defaultControllerRateLimiter<K>(this.clock);
  }

  add(key: K): void {
    if (this.shutdown || this.dirty.has(key)) return;
    this.dirty.add(key);
    if (this.processing.has(key)) return;
    this.queue.push(key);
    this.dispatch();
  }

  /** Adds `key` after `ms` (now when ms ≤ 0). A key already waiting keeps the earlier time. */
  addAfter(key: K, ms: number): void {
    if (this.shutdown) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const readyAt = this.clock.now() + ms;
    const existing = this.waiting.get(key);
    if (existing !== undefined && existing <= readyAt) return;
    this.waiting.set(key, readyAt);
    this.schedule();
  }

  /** Adds `key` when the rate limiter allows; each call counts as one more requeue of it. */
  addRateLimited(key: K): void {
    this.addAfter(key, this.rateLimiter.when(key));
  }

  /** Resets `key`'s backoff (call when it was processed successfully). */
  forget(key: K): void {
    this.rateLimiter.forget(key);
  }

  numRequeues(key: K): number {
    return this.rateLimiter.numRequeues(key);
  }

  /**
   * The next key, waiting for one if needed. After shutDown() the keys still queued are handed
   * out, then undefined. Every key received must be passed to done().
   */
  get(): Promise<K | undefined> {
    const key = this.take();
    if (key !== undefined) return Promise.resolve(key);
    if (this.shutdown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.getters.push(resolve));
  }

  /** Marks `key` processed; if it was added meanwhile it is queued again now. */
  done(key: K): void {
    this.processing.delete(key);
    if (this.dirty.has(key)) {
      this.queue.push(key);
      this.dispatch();
    }
    if (this.processing.size === 0) for (const w of this.drainWaiters.splice(0)) w();
  }

  /** Ignores further adds, drops delayed keys and lets idle get() calls return undefined. */
  shutDown(): void {
    this.shutdown = true;
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    this.waiting.clear();
    this.dispatch();
  }

  /** shutDown(), then resolves once every key handed out has been marked done. */
  shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  shuttingDown(): boolean {
    return this.shutdown;
  }

  /** Keys ready to be handed out (not counting delayed or in-process ones). */
  len(): number {
    return this.queue.length;
  }

  private take(): K | undefined {
    if (this.queue.length === 0) return undefined;
    const key = this.queue.shift() as K;
    this.processing.add(key);
    this.dirty.delete(key);
    return key;
  }

  private dispatch(): void {
    while (this.getters.length && this.queue.length) {
      const getter = this.getters.shift() as (key: K | undefined) => void;
      getter(this.take());
    }
    if (this.shutdown && this.queue.length === 0) for (const g of this.getters.splice(0)) g(undefined);
  }

  /** One timer, for the earliest delayed key. */
  private schedule(): void {
    let earliest = Number.POSITIVE_INFINITY;
    for (const at of this.waiting.values()) if (at < earliest) earliest = at;
    if (earliest === this.timerAt) return;
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = earliest;
    if (earliest === Number.POSITIVE_INFINITY) return;
    this.timer = this.clock.setTimeout(() => this.releaseReady(), earliest - this.clock.now());
  }

  private releaseReady(): void {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = this.clock.now();
    const ready = [...this.waiting].filter(([, at]) => at <= now).sort((a, b) => a[1] - b[1]);
    for (const [key] of ready) {
      this.waiting.delete(key);
      this.add(key);
    }
    this.schedule();
  }
}
