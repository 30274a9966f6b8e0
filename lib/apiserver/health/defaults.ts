// The server's standard checks: ping, log, etcd, etcd-readiness, poststarthook/<hook> and
// shutdown, in upstream's order and with upstream's failure texts.
import type { HealthCheck, HealthCheckFn, HealthRegistry } from './registry';

export const pingCheck: HealthCheck = { name: 'ping', check: () => null };

export interface LogCheckOptions {
  /** Flushes the logger; a flush that never completes is what this check detects. */
  flush?: () => void | Promise<void>;
  now?: () => number;
  intervalMs?: number;
  /** Fails once the last completed flush is older than this (upstream: 2 minutes). */
  maxStaleMs?: number;
}

/** `log`: fails with `logging blocked` when flushing the log has stalled. stop() ends the timer. */
export function createLogCheck(opts: LogCheckOptions = {}): { check: HealthCheck; stop(): void } {
  const now = opts.now ?? Date.now;
  const maxStale = opts.maxStaleMs ?? 120_000;
  let lastVerified = now();
  let flushing = false;
  const tick = (): void => {
    if (flushing) return;
    flushing = true;
    Promise.resolve()
      .then(() => opts.flush?.())
      .then(
        () => {
          lastVerified = now();
          flushing = false;
        },
        () => {
          flushing = false;
        },
      );
  };
  const timer = setInterval(tick, opts.intervalMs ?? 60_000);
  timer.unref();
  return {
    check: { name: 'log', check: () => (now() - lastVerified < maxStale ? null : 'logging blocked') },
    stop: () => clearInterval(timer),
  };
}

/**
 * `shutdown` (readyz only, listed last): fails once `initiated()` says so (the lifecycle's
 * ShutdownInitiated signal), so load balancers drain.
 */
export function createShutdownCheck(initiated: () => boolean = () => false): HealthCheck {
  return { name: 'shutdown', endpoints: ['readyz'], last: true, check: () => (initiated() ? 'process is shutting down' : null) };
}

export interface PostStartHook {
  /** Marks the hook finished; its check passes from now on. */
  complete(): void;
}

/** Registers `poststarthook/<name>` on all endpoints, failing `not finished` until complete(). */
export function addPostStartHook(registry: HealthRegistry, name: string): PostStartHook {
  let done = false;
  registry.add({ name: `poststarthook/${name}`, bootSequence: true, check: () => (done ? null : 'not finished') });
  return {
    complete: () => {
      done = true;
    },
  };
}

export interface DefaultChecksOptions {
  /** Storage reachable (all endpoints). */
  etcd: HealthCheckFn;
  /** Storage ready for traffic (readyz only); defaults to the etcd check. */
  etcdReadiness?: HealthCheckFn;
  /** The log check; defaults to one that never fails (no flush function to watch). */
  log?: HealthCheck;
  /** Shutdown has been initiated (fails the readyz `shutdown` check). */
  shutdownInitiated?: () => boolean;
}

export interface DefaultChecks {
  /** Adds a post-start hook check (see addPostStartHook). */
  addPostStartHook(name: string): PostStartHook;
}

/** Registers ping, log, etcd, etcd-readiness and shutdown in upstream's order. */
export function registerDefaultChecks(registry: HealthRegistry, opts: DefaultChecksOptions): DefaultChecks {
  registry.add(pingCheck);
  registry.add(opts.log ?? { name: 'log', check: () => null });
  registry.add({ name: 'etcd', group: 'etcd', check: opts.etcd });
  registry.add({ name: 'etcd-readiness', group: 'etcd-readiness', endpoints: ['readyz'], check: opts.etcdReadiness ?? opts.etcd });
  registry.add(createShutdownCheck(opts.shutdownInitiated));
  return {
    addPostStartHook: (name) => addPostStartHook(registry, name),
  };
}
