// Public surface of the Lease registry.
export { knownLeaseStrategies, leaseStrategy, newLeaseStrategy, validateLeaseSpec } from './strategy';
export type { LeaseStrategyOptions } from './strategy';
