// Public surface of lib/watchcache: the cache, its watch handle, options and errors.
export { WatchCache } from './watchCache';
export type { CacheGetOptions, CacheListOptions, WatchCacheStats } from './watchCache';
export type { CacheWatch, WatcherLimits } from './cacheWatch';
export { watchCacheDefaults } from './options';
export type { WatchCacheMetrics, WatchCacheOptions } from './options';
export { CacheReinitializingError, WatcherTooSlowError } from './errors';
