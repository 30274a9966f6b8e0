// Leader election on a Lease, as client-go's tools/leaderelection (LeaseLock). Candidates try to
// take the lease every retry period; the holder renews it every retry period and gives up
// leading when it could not renew for the renew deadline. A lease counts as expired when its
// record has not changed for leaseDurationSeconds *as observed locally* — remote timestamps are
// never compared with the local clock, so clock skew between replicas does not matter.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { leases } from '../api/coordination/lease';
import type { Lease } from '../api/coordination/lease';
import { apiVersionOf } from '../api/resource';
import { microTimeOf } from '../codec/goTime';
import type { Clock } from './clock';
import { realClock, sleep } from './clock';
import { isConflict, isNotFound } from './errors';
import type { RestClient } from './restClient';

export type { Lease };

/** Reads and writes Leases; restLeaseClient() implements it over the API, tests with a fake. */
export interface LeaseClient {
  get(namespace: string, name: string, signal?: AbortSignal): Promise<Lease>;
  create(lease: Lease, signal?: AbortSignal): Promise<Lease>;
  /** Must fail with a Conflict when lease.metadata.resourceVersion is not current. */
  update(lease: Lease, signal?: AbortSignal): Promise<Lease>;
}

export function restLeaseClient(client: RestClient): LeaseClient {
  return {
    get: (namespace, name, signal) => client.get<Lease>(leases, name, { namespace, signal }),
    create: (lease, signal) => client.create<Lease>(leases, lease, { signal }),
    update: (lease, signal) => client.update<Lease>(leases, lease, { signal }),
  };
}

export interface LeaderCallbacks {
  /** Start the work; `signal` aborts when leadership ends. */
  onStartedLeading(signal: AbortSignal): void | Promise<void>;
  /** Called when run() ends — also when leadership was never gained (as client-go's Run). */
  onStoppedLeading(): void;
  /** The observed holder changed (also to "" after a release). */
  onNewLeader?(identity: string): void;
}

export interface LeaderElectionConfig {
  leases: LeaseClient;
  namespace: string;
  name: string;
  /** Default `<hostname>_<uuid>`. */
  identity?: string;
  /** How long non-leaders wait after the last observed change before taking over; default 15 s. */
  leaseDurationMs?: number;
  /** How long the leader retries renewing before it stops leading; default 10 s. */
  renewDeadlineMs?: number;
  /** Interval between attempts; default 2 s. */
  retryPeriodMs?: number;
  /** On stop (or loss), if still the holder, hand the lease back so another candidate need not wait it out. */
  releaseOnCancel?: boolean;
  callbacks: LeaderCallbacks;
  clock?: Clock;
  random?: () => number;
  /** Failed reads and writes of the lease (they are retried) and callback errors. */
  onError?: (err: unknown) => void;
}

/** client-go's JitterFactor: candidates retry after [1, 2.2) retry periods. */
export const leaderElectionJitterFactor = 1.2;

export function defaultLeaderIdentity(): string {
  return `${hostname()}_${randomUUID()}`;
}

/** The lease spec as the elector reasons about it (resourcelock.LeaderElectionRecord). */
interface ElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: string;
  renewTime: string;
  leaseTransitions: number;
  strategy?: string;
  preferredHolder?: string;
}

const emptyRecord: ElectionRecord = { holderIdentity: '', leaseDurationSeconds: 0, acquireTime: '', renewTime: '', leaseTransitions: 0 };

function recordOf(lease: Lease): ElectionRecord {
  const s = lease.spec ?? {};
  const r: ElectionRecord = {
    holderIdentity: s.holderIdentity ?? '',
    leaseDurationSeconds: s.leaseDurationSeconds ?? 0,
    acquireTime: s.acquireTime ?? '',
    renewTime: s.renewTime ?? '',
    leaseTransitions: s.leaseTransitions ?? 0,
  };
  if (s.strategy) r.strategy = s.strategy;
  if (s.preferredHolder) r.preferredHolder = s.preferredHolder;
  return r;
}

function specOf(r: ElectionRecord): NonNullable<Lease['spec']> {
  // holderIdentity is written even when empty: "" is how a released lease reads.
  const spec: NonNullable<Lease['spec']> = { holderIdentity: r.holderIdentity, leaseDurationSeconds: r.leaseDurationSeconds };
  if (r.acquireTime) spec.acquireTime = r.acquireTime;
  if (r.renewTime) spec.renewTime = r.renewTime;
  spec.leaseTransitions = r.leaseTransitions;
  if (r.strategy) spec.strategy = r.strategy;
  if (r.preferredHolder) spec.preferredHolder = r.preferredHolder;
  return spec;
}

export class LeaderElector {
  readonly identity: string;
  private readonly leases: LeaseClient;
  private readonly namespace: string;
  private readonly name: string;
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private readonly releaseOnCancel: boolean;
  private readonly callbacks: LeaderCallbacks;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly onError: (err: unknown) => void;
  private readonly stopping = new AbortController();
  private running?: Promise<void>;
  /** The Lease as last read or written: updates carry its resourceVersion. */
  private lease?: Lease;
  private observedRecord: ElectionRecord = emptyRecord;
  private observedRaw = '';
  /** Local time the observed record last changed: the base of expiry. */
  private observedTime = 0;
  private reportedLeader = '';

  constructor(config: LeaderElectionConfig) {
    this.leaseDurationMs = config.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = config.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = config.retryPeriodMs ?? 2_000;
    // NewLeaderElector's checks.
    if (this.leaseDurationMs <= this.renewDeadlineMs) throw new Error('leaseDuration must be greater than renewDeadline');
    if (this.renewDeadlineMs <= leaderElectionJitterFactor * this.retryPeriodMs) {
      throw new Error('renewDeadline must be greater than retryPeriod*JitterFactor');
    }
    if (this.leaseDurationMs < 1) throw new Error('leaseDuration must be greater than zero');
    if (this.renewDeadlineMs < 1) throw new Error('renewDeadline must be greater than zero');
    if (this.retryPeriodMs < 1) throw new Error('retryPeriod must be greater than zero');
    if (!config.namespace || !config.name) throw new Error('lease namespace and name are required');
    this.identity = config.identity ?? defaultLeaderIdentity();
    if (!this.identity) throw new Error('Lock identity is empty');
    this.leases = config.leases;
    this.namespace = config.namespace;
    this.name = config.name;
    this.releaseOnCancel = config.releaseOnCancel ?? false;
    this.callbacks = config.callbacks;
    this.clock = config.clock ?? realClock;
    this.random = config.random ?? Math.random;
    this.onError = config.onError ?? (() => undefined);
  }

  /**
   * Campaigns until leading, leads until the lease is lost or stop() is called, then (optionally)
   * releases and calls onStoppedLeading. An elector runs once; create a new one to campaign again.
   */
  run(): Promise<void> {
    this.running ??= this.campaign();
    return this.running;
  }

  /** Ends run(): stops campaigning or leading; resolves when run() has finished. */
  stop(): Promise<void> {
    this.stopping.abort();
    return this.running ?? Promise.resolve();
  }

  /** The holder as last observed ("" when none). */
  getLeader(): string {
    return this.observedRecord.holderIdentity;
  }

  isLeader(): boolean {
    return this.observedRecord.holderIdentity === this.identity;
  }

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  private async campaign(): Promise<void> {
    const leading = new AbortController();
    try {
      if (!(await this.acquire())) return;
      if (!this.stopped) this.startLeading(leading.signal);
      await this.renewWhileLeading();
      leading.abort();
      if (this.releaseOnCancel) await this.release();
    } finally {
      leading.abort();
      try {
        this.callbacks.onStoppedLeading();
      } catch (e) {
        this.onError(e);
      }
    }
  }

  private startLeading(signal: AbortSignal): void {
    try {
      const result = this.callbacks.onStartedLeading(signal);
      if (result && typeof result.then === 'function') result.then(undefined, (e: unknown) => this.onError(e));
    } catch (e) {
      this.onError(e);
    }
  }

  /** Tries every retry period (jittered) until it holds the lease; false when stopped first. */
  private async acquire(): Promise<boolean> {
    for (;;) {
      if (this.stopped) return false;
      const ok = await this.tryAcquireOrRenew(this.stopping.signal);
      this.maybeReportTransition();
      if (ok) return true;
      const delay = this.retryPeriodMs + this.random() * leaderElectionJitterFactor * this.retryPeriodMs;
      if (!(await sleep(this.clock, delay, this.stopping.signal))) return false;
    }
  }

  /** Renews every retry period; returns when a renewal kept failing for renewDeadline, or on stop. */
  private async renewWhileLeading(): Promise<void> {
    while (!this.stopped) {
      const renewed = await this.renewWithinDeadline();
      this.maybeReportTransition();
      if (this.stopped) return;
      if (!renewed) {
        this.onError(new Error(`failed to renew lease ${this.namespace}/${this.name}: timed out waiting for the condition`));
        return;
      }
      if (!(await sleep(this.clock, this.retryPeriodMs, this.stopping.signal))) return;
    }
  }

  /** PollUntilContextTimeout(retryPeriod, renewDeadline, immediate): attempts until one succeeds or time is up. */
  private async renewWithinDeadline(): Promise<boolean> {
    const deadline = new AbortController();
    const onStop = (): void => deadline.abort();
    this.stopping.signal.addEventListener('abort', onStop, { once: true });
    const timer = this.clock.setTimeout(() => deadline.abort(), this.renewDeadlineMs);
    try {
      for (;;) {
        if (await this.tryAcquireOrRenew(deadline.signal)) return true;
        if (deadline.signal.aborted) return false;
        if (!(await sleep(this.clock, this.retryPeriodMs, deadline.signal))) return false;
      }
    } finally {
      timer.cancel();
      this.stopping.signal.removeEventListener('abort', onStop);
    }
  }

  private async tryAcquireOrRenew(signal: AbortSignal): Promise<boolean> {
    const now = this.clock.now();
    const stamp = microTimeOf(new Date(now));
    const desired: ElectionRecord = {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.floor(this.leaseDurationMs / 1000),
      acquireTime: stamp,
      renewTime: stamp,
      leaseTransitions: 0,
    };

    // Fast path: still ours and not expired — update from the lease we last wrote.
    if (this.isLeader() && this.isLeaseValid(now)) {
      desired.acquireTime = this.observedRecord.acquireTime;
      desired.leaseTransitions = this.observedRecord.leaseTransitions;
      try {
        await this.writeLease(desired, signal);
        this.setObserved(desired);
        return true;
      } catch {
        // fall back to reading the lease
      }
    }

    let current: ElectionRecord;
    try {
      this.lease = await this.leases.get(this.namespace, this.name, signal);
      current = recordOf(this.lease);
    } catch (e) {
      if (!isNotFound(e)) {
        this.onError(e);
        return false;
      }
      try {
        this.lease = await this.leases.create(
          { apiVersion: apiVersionOf(leases), kind: leases.kind, metadata: { namespace: this.namespace, name: this.name }, spec: specOf(desired) },
          signal,
        );
      } catch (ce) {
        // Another candidate created it first (409): the next attempt reads it.
        this.onError(ce);
        return false;
      }
      this.setObserved(desired);
      return true;
    }

    const raw = JSON.stringify(current);
    if (raw !== this.observedRaw) {
      this.setObserved(current);
      this.observedRaw = raw;
    }
    if (current.holderIdentity !== '' && this.isLeaseValid(now) && !this.isLeader()) return false;

    if (this.isLeader()) {
      desired.acquireTime = current.acquireTime;
      desired.leaseTransitions = current.leaseTransitions;
    } else {
      desired.leaseTransitions = current.leaseTransitions + 1;
    }
    try {
      await this.writeLease(desired, signal);
    } catch (e) {
      // A Conflict means someone wrote since our read: the next attempt reads again.
      if (!isConflict(e)) this.onError(e);
      return false;
    }
    this.setObserved(desired);
    return true;
  }

  /** Hands the lease back (holder "", duration 1 s) if we still hold it; bounded by renewDeadline. */
  private async release(): Promise<boolean> {
    const deadline = new AbortController();
    const timer = this.clock.setTimeout(() => deadline.abort(), this.renewDeadlineMs);
    try {
      while (!deadline.signal.aborted) {
        let current: ElectionRecord;
        try {
          this.lease = await this.leases.get(this.namespace, this.name, deadline.signal);
          current = recordOf(this.lease);
        } catch (e) {
          if (!isNotFound(e)) this.onError(e);
          return false;
        }
        // Beyond client-go: never blank a lease someone else has taken meanwhile.
        if (!this.isLeader() || current.holderIdentity !== this.identity) return true;
        const stamp = microTimeOf(new Date(this.clock.now()));
        const released: ElectionRecord = {
          holderIdentity: '',
          leaseDurationSeconds: 1,
          acquireTime: stamp,
          renewTime: stamp,
          leaseTransitions: current.leaseTransitions,
        };
        try {
          await this.writeLease(released, deadline.signal);
        } catch (e) {
          if (isConflict(e)) continue;
          this.onError(e);
          return false;
        }
        this.setObserved(released);
        return true;
      }
      return false;
    } finally {
      timer.cancel();
    }
  }

  private async writeLease(record: ElectionRecord, signal: AbortSignal): Promise<void> {
    if (!this.lease) throw new Error('lease not initialized, call get or create first');
    this.lease = await this.leases.update({ ...this.lease, spec: specOf(record) }, signal);
  }

  private isLeaseValid(now: number): boolean {
    return this.observedTime + this.observedRecord.leaseDurationSeconds * 1000 > now;
  }

  private setObserved(record: ElectionRecord): void {
    this.observedRecord = record;
    this.observedTime = this.clock.now();
  }

  private maybeReportTransition(): void {
    const holder = this.observedRecord.holderIdentity;
    if (holder === this.reportedLeader) return;
    this.reportedLeader = holder;
    try {
      this.callbacks.onNewLeader?.(holder);
    } catch (e) {
      this.onError(e);
    }
  }
}
