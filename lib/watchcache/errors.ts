// Errors the watch cache adds to lib/etcd's typed storage errors.
import { StorageError } from '../etcd/storage';

/**
 * A watcher fell too far behind (its client stopped reading, its window position was evicted,
 * or the server's watch budget was full while it sent nothing) and was terminated. The client
 * resumes from its last seen revision, or re-lists.
 */
export class WatcherTooSlowError extends StorageError {
  constructor(
    key: string,
    readonly reason: 'queue-full' | 'window-evicted' | 'budget',
    readonly pendingEvents: number,
  ) {
    super(`watcher on ${key} is too slow (${reason}, ${pendingEvents} events pending): terminated`, key);
  }
}

/** The cache's own watch failed and the cache re-lists; open watchers end with this. */
export class CacheReinitializingError extends StorageError {
  constructor(
    key: string,
    override readonly cause: Error,
  ) {
    super(`watch cache for ${key} is re-initializing: ${cause.message}`, key);
  }
}
