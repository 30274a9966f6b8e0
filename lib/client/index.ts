// Public surface of lib/client: what controllers use to talk to the API (DESIGN.md §2.7) —
// kubeconfig loading, the REST client, informers, the work queue and leader election.
export * from './clock';
export { FakeClock, flushPromises } from './fakeClock';
export * from './errors';
export * from './kubeconfig';
export * from './resourcePath';
export * from './jsonDocuments';
export * from './watchStream';
export * from './listWatch';
export * from './restClient';
export * from './backoff';
export * from './informer';
export * from './rateLimiter';
export * from './workqueue';
export {
  LeaderElector,
  restLeaseClient,
  defaultLeaderIdentity,
  leaderElectionJitterFactor,
} from './leaderElection';
export type { LeaseClient, LeaderCallbacks, LeaderElectionConfig } from './leaderElection';
