// What a watch on the cache returns, and the per-watcher bounds.
import type { Watch } from '../etcd/storage';
import type { WatchBudget } from '../machinery/watchBudget';

/**
 * A watch with flow control. Handlers are synchronous; a consumer that cannot take more (an
 * HTTP response whose write() returned false) calls pause() and resume() on 'drain'. While
 * paused, undelivered live events are bounded; beyond the bound the watch ends with
 * WatcherTooSlowError. Other watchers are never delayed by a paused one.
 */
export interface CacheWatch extends Watch {
  pause(): void;
  resume(): void;
}

export interface WatcherLimits {
  maxPendingEvents: number;
  maxPendingBytes: number;
  maxBatchEvents: number;
  /**
   * The server-wide bound a direct watcher's queue counts in (its events are its own copies;
   * a window watcher's pending events are the window's, shared, and are not counted).
   */
  budget?: WatchBudget;
}
