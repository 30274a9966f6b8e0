// Public surface of the health endpoints (/livez, /readyz, /healthz).
export { addPostStartHook, createLogCheck, createShutdownCheck, pingCheck, registerDefaultChecks } from './defaults';
export type { DefaultChecks, DefaultChecksOptions, LogCheckOptions, PostStartHook } from './defaults';
export { healthEndpoints, HealthRegistry } from './registry';
export type { CheckOutcome, HealthCheck, HealthCheckFn, HealthEndpoint, HealthQuery, HealthRegistryOptions, HealthResponse, RevealReason } from './registry';
