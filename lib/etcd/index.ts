// Public surface of lib/etcd: the storage interface and errors, the memory and etcd3 backends,
// and the compactor. Test helpers live in ./testing and are imported from there directly.
export * from './storage';
export { MemoryStorage } from './memory';
export type { MemoryStorageOptions } from './memory';
export { Etcd3Storage } from './etcd3';
export type { Etcd3StorageOptions } from './etcd3';
export type { TlsOptions } from './etcd3Pool';
export { describeOutage, EtcdAvailability } from './availability';
export type { AvailabilityEvent, EndpointFailure, EtcdOutage } from './availability';
export { checkEtcdHealth } from './healthCheck';
export type { HealthCheckedStorage } from './healthCheck';
export { Compactor, defaultCompactionIntervalMs, startCompactor } from './compactor';
export type { CompactionRound, CompactorOptions, CompactorTimers } from './compactor';
export { compareKeys, keyAfter, prefixEnd } from './keys';
export { fetchEtcdVersion, progressRequestsAreOrdered } from './etcdVersion';
