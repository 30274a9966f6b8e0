// How long a work item waits before it is retried (client-go util/workqueue/default_rate_limiters.go).
// The controller default is the larger of a per-item exponential backoff (5 ms doubling to
// 1000 s) and an overall token bucket (10 per second, bursts of 100).
import type { Clock } from './clock';

export interface RateLimiter<K> {
  /** The delay before `item` may be processed again; counts as one more failure of it. */
  when(item: K): number;
  /** Stop tracking `item` (it succeeded). */
  forget(item: K): void;
  /** Failures recorded for `item` since it was last forgotten. */
  numRequeues(item: K): number;
}

/** baseMs · 2^failures, capped at maxMs. */
export class ItemExponentialFailureRateLimiter<K> implements RateLimiter<K> {
  private readonly failures = new Map<K, number>();
  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
  ) {}

  when(item: K): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    const backoff = this.baseMs * 2 ** exp;
    return backoff > this.maxMs ? this.maxMs : backoff;
  }

  forget(item: K): void {
    this.failures.delete(item);
  }

  numRequeues(item: K): number {
    return this.failures.get(item) ?? 0;
  }
}

/**
 * golang.org/x/time/rate's Limiter as the work queue uses it: every call reserves a token, the
 * bucket may go into debt, and the delay is the time until the debt is paid. Starts full.
 */
export class BucketRateLimiter<K> implements RateLimiter<K> {
  private tokens: number;
  private last: number;
  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly clock: Pick<Clock, 'now'>,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  when(_item: K): number {
    const now = this.clock.now();
    const last = Math.min(this.last, now);
    const tokens = Math.min(this.burst, this.tokens + ((now - last) / 1000) * this.perSecond) - 1;
    this.tokens = tokens;
    this.last = now;
    return tokens < 0 ? (-tokens / this.perSecond) * 1000 : 0;
  }

  forget(_item: K): void {}

  numRequeues(_item: K): number {
    return 0;
  }
}

/** The longest delay of several limiters; every limiter records every call. */
export class MaxOfRateLimiter<K> implements RateLimiter<K> {
  private readonly limiters: RateLimiter<K>[];
  constructor(...limiters: RateLimiter<K>[]) {
    this.limiters = limiters;
  }

  when(item: K): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.when(item));
    return max;
  }

  forget(item: K): void {
    for (const l of this.limiters) l.forget(item);
  }

  numRequeues(item: K): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.numRequeues(item));
    return max;
  }
}

/** client-go's DefaultControllerRateLimiter. */
export function defaultControllerRateLimiter<K>(clock: Pick<Clock, 'now'>): RateLimiter<K> {
  return new MaxOfRateLimiter<K>(new ItemExponentialFailureRateLimiter<K>(5, 1_000_000), new BucketRateLimiter<K>(10, 100, clock));
}
