// Public surface of the server lifecycle (graceful shutdown).
export { ServerLifecycle } from './gracefulShutdown';
export type { ShutdownOptions, ShutdownSteps } from './gracefulShutdown';
export { LifecycleSignal, newLifecycleSignals } from './signals';
export type { LifecycleSignals } from './signals';
export { RequestWaitGroup } from './waitGroup';
export { bothRegistrars, minWatchDrainQPS, realSleep, WatchTracker } from './watchDrain';
export type { DrainResult, Sleep, WatchHandle, WatchRegistrar } from './watchDrain';
