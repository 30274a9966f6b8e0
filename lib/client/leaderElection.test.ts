import { hostname } from 'node:os';
import type { Lease } from '../api/coordination/lease';
import type { Status } from '../api/meta';
import { ClientApiError, ClientTransportError } from './errors';
import { FakeClock, flushPromises } from './fakeClock';
import { defaultLeaderIdentity, LeaderElector, LeaseClient } from './leaderElection';

const apiError = (code: number, reason: Status['reason'], message: string): ClientApiError =>
  new ClientApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });

/** One Lease with optimistic concurrency, shared by every elector's client. */
class FakeLeaseStore {
  lease?: Lease;
  private rv = 100;
  writes: Array<{ by: string; spec: Lease['spec'] }> = [];
  /** Runs before each update is applied (to interleave a competing write). */
  beforeUpdate?: () => void;

  client(who: string, reachable: () => boolean = () => true): LeaseClient {
    const check = (): void => {
      if (!reachable()) throw new ClientTransportError('connect ECONNREFUSED', { code: 'ECONNREFUSED' });
    };
    return {
      get: async (namespace, name) => {
        check();
        if (!this.lease) throw apiError(404, 'NotFound', `leases.coordination.svc.io "${name}" not found`);
        expect(this.lease.metadata).toMatchObject({ namespace, name });
        return structuredClone(this.lease);
      },
      create: async (lease) => {
        check();
        if (this.lease) throw apiError(409, 'AlreadyExists', 'already exists');
        this.lease = { ...structuredClone(lease), metadata: { ...lease.metadata, resourceVersion: String(++this.rv) } };
        this.writes.push({ by: who, spec: lease.spec });
        return structuredClone(this.lease);
      },
      update: async (lease) => {
        check();
        this.beforeUpdate?.();
        if (!this.lease) throw apiError(404, 'NotFound', 'not found');
        if (lease.metadata?.resourceVersion !== this.lease.metadata?.resourceVersion) throw apiError(409, 'Conflict', 'the object has been modified');
        this.lease = { ...structuredClone(lease), metadata: { ...lease.metadata, resourceVersion: String(++this.rv) } };
        this.writes.push({ by: who, spec: lease.spec });
        return structuredClone(this.lease);
      },
    };
  }

  /** Someone else writes the lease (bumps its resourceVersion). */
  touch(spec: Lease['spec']): void {
    this.lease = { ...(this.lease ?? { metadata: { namespace: 'svc-system', name: 'svc-controller-manager' } }), spec };
    this.lease.metadata = { ...this.lease.metadata, resourceVersion: String(++this.rv) };
  }
}

interface Candidate {
  elector: LeaderElector;
  events: string[];
  signal?: AbortSignal;
  reachable: boolean;
  done: Promise<void>;
  leading: () => boolean;
}

function candidate(store: FakeLeaseStore, clock: FakeClock, identity: string, extra: { releaseOnCancel?: boolean } = {}): Candidate {
  const c: Partial<Candidate> & { events: string[]; reachable: boolean } = { events: [], reachable: true };
  c.elector = new LeaderElector({
    leases: store.client(identity, () => c.reachable),
    namespace: 'svc-system',
    name: 'svc-controller-manager',
    identity,
    clock,
    random: () => 0,
    releaseOnCancel: extra.releaseOnCancel,
    callbacks: {
      onStartedLeading: (signal) => {
        c.signal = signal;
        c.events.push(`started@${clock.now() - t0}`);
      },
      onStoppedLeading: () => c.events.push(`stopped@${clock.now() - t0}`),
      onNewLeader: (id) => c.events.push(`leader=${id}`),
    },
  });
  c.leading = () => !!c.signal && !c.signal.aborted;
  c.done = c.elector.run();
  return c as Candidate;
}

const t0 = Date.UTC(2025, 0, 1);

/** Advances in small steps, checking that at most one candidate ever leads. */
async function advance(clock: FakeClock, ms: number, candidates: Candidate[]): Promise<void> {
  for (let t = 0; t < ms; t += 100) {
    await clock.advance(Math.min(100, ms - t));
    expect(candidates.filter((c) => c.leading()).length).toBeLessThanOrEqual(1);
  }
}

describe('LeaderElector', () => {
  it('elects exactly one of two candidates, which keeps renewing', async () => {
    const store = new FakeLeaseStore();
    const clock = new FakeClock(t0);
    const a = candidate(store, clock, 'a');
    const b = candidate(store, clock, 'b');
    await advance(clock, 30_000, [a, b]);
    expect(a.leading()).toBe(true);
    expect(b.leading()).toBe(false);
    expect(a.events).toEqual(['leader=a', 'started@0']);
    expect(b.events).toEqual(['leader=a']);
    expect(a.elector.isLeader()).toBe(true);
    expect(b.elector.getLeader()).toBe('a');
    const spec = store.lease?.spec;
    expect(spec).toMatchObject({ holderIdentity: 'a', leaseDurationSeconds: 15, leaseTransitions: 0, acquireTime: '2025-01-01T00:00:00.000000Z' });
    expect(spec?.renewTime).toMatch(/^2025-01-01T00:00:(2[89]|30)\.\d{6}Z$/);
    // Renewals every 2 s: the create plus ~15 updates, all by a.
    expect(store.writes.every((w) => w.by === 'a')).toBe(true);
    expect(store.writes.length).toBeGreaterThanOrEqual(15);
    await Promise.all([a.elector.stop(), b.elector.stop()]);
  });

  it('hands over when the leader stops renewing: it stops leading after the renew deadline, the other takes over after the lease duration', async () => {
    const store = new FakeLeaseStore();
    const clock = new FakeClock(t0);
    const a = candidate(store, clock, 'a');
    await flushPromises();
    const b = candidate(store, clock, 'b');
    await advance(clock, 4_000, [a, b]);
    a.reachable = false; // partitioned from the API at t=4 s
    const lastRenew = store.lease?.spec?.renewTime;
    await advance(clock, 30_000, [a, b]);
    expect(store.lease?.spec?.renewTime).not.toBe(lastRenew);
    const stoppedAt = Number(a.events.find((e) => e.startsWith('stopped@'))?.split('@')[1]);
    const startedB = Number(b.events.find((e) => e.startsWith('started@'))?.split('@')[1]);
    // a's last successful renew was at 4 s; it gives up within renewDeadline (10 s) of the failing attempt.
    expect(stoppedAt).toBeGreaterThan(4_000);
    expect(stoppedAt).toBeLessThanOrEqual(16_000);
    // b saw the last change at ≤ 4 s, so it may take over only 15 s later, and after a stopped.
    expect(startedB).toBeGreaterThanOrEqual(19_000);
    expect(startedB).toBeLessThanOrEqual(4_000 + 15_000 + 4_400);
    expect(startedB).toBeGreaterThan(stoppedAt);
    expect(store.lease?.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    expect(a.signal?.aborted).toBe(true);
    await a.done; // run() ends when leadership is lost
    expect(b.events).toEqual(['leader=a', 'leader=b', `started@${startedB}`]);
    await b.elector.stop();
  });

  it('measures expiry from when it observed the record, not from the remote renewTime', async () => {
    const store = new FakeLeaseStore();
    store.touch({ holderIdentity: 'ghost', leaseDurationSeconds: 15, renewTime: '2000-01-01T00:00:00.000000Z', acquireTime: '2000-01-01T00:00:00.000000Z', leaseTransitions: 4 });
    const clock = new FakeClock(t0);
    const b = candidate(store, clock, 'b');
    await advance(clock, 14_000, [b]);
    expect(b.leading()).toBe(false);
    await advance(clock, 6_000, [b]);
    expect(b.leading()).toBe(true);
    expect(store.lease?.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 5 });
    expect(b.events[0]).toBe('leader=ghost');
    await b.elector.stop();
  });

  it('a record that keeps changing never expires', async () => {
    const store = new FakeLeaseStore();
    const clock = new FakeClock(t0);
    const b = candidate(store, clock, 'b');
    for (let i = 0; i < 20; i++) {
      store.touch({ holderIdentity: 'other', leaseDurationSeconds: 15, renewTime: `2025-01-01T00:00:${String(i).padStart(2, '0')}.000000Z`, leaseTransitions: 0 });
      await advance(clock, 2_000, [b]);
    }
    expect(b.leading()).toBe(false);
    await b.elector.stop();
  });

  it('releases on stop when asked, so the other candidate need not wait out the lease', async () => {
    const store = new FakeLeaseStore();
    const clock = new FakeClock(t0);
    const a = candidate(store, clock, 'a', { releaseOnCancel: true });
    await flushPromises();
    const b = candidate(store, clock, 'b');
    await advance(clock, 5_000, [a, b]);
    expect(a.leading()).toBe(true);
    await a.elector.stop();
    expect(a.signal?.aborted).toBe(true);
    expect(a.events).toEqual(['leader=a', 'started@0', 'stopped@5000']);
    expect(store.lease?.spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1, renewTime: '2025-01-01T00:00:05.000000Z', leaseTransitions: 0 });
    await advance(clock, 5_000, [a, b]);
    expect(b.leading()).toBe(true);
    expect(store.lease?.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    await b.elector.stop();
  });

  it('without releaseOnCancel leaves the lease to expire', async () => {
    const store = new FakeLeaseStore();
    const clock = new FakeClock(t0);
    const a = candidate(store, clock, 'a');
    await advance(clock, 1_000, [a]);
    await a.elector.stop();
    expect(store.lease?.spec?.holderIdentity).toBe('a');
    expect(a.events).toEqual(['leader=a', 'started@0', 'stopped@1000']);
  });

  it('retries after a conflicting write instead of overwriting it', async () => {
    const store = new FakeLeaseStore();
    store.touch({ holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 2 });
    const clock = new FakeClock(t0);
    let interfere = true;
    store.beforeUpdate = () => {
      if (interfere) {
        interfere = false;
        store.touch({ holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 3 });
      }
    };
    const a = candidate(store, clock, 'a');
    await flushPromises();
    expect(a.leading()).toBe(false); // the first update hit a Conflict
    await advance(clock, 2_000, [a]);
    expect(a.leading()).toBe(true);
    expect(store.lease?.spec).toMatchObject({ holderIdentity: 'a', leaseTransitions: 4 });
    await a.elector.stop();
  });

  it('a candidate that loses the create race follows the winner', async () => {
    const store = new FakeLeaseStore();
    const clock = new FakeClock(t0);
    const a = candidate(store, clock, 'a');
    const b = candidate(store, clock, 'b'); // both read NotFound before either created
    await advance(clock, 6_000, [a, b]);
    expect([a.leading(), b.leading()]).toEqual([true, false]);
    expect(b.events).toEqual(['leader=a']);
    await Promise.all([a.elector.stop(), b.elector.stop()]);
  });

  it('calls onStoppedLeading when stopped before ever leading (as client-go)', async () => {
    const store = new FakeLeaseStore();
    store.touch({ holderIdentity: 'other', leaseDurationSeconds: 15, leaseTransitions: 0 });
    const clock = new FakeClock(t0);
    const b = candidate(store, clock, 'b');
    await advance(clock, 1_000, [b]);
    await b.elector.stop();
    expect(b.events).toEqual(['leader=other', 'stopped@1000']);
    expect(clock.pendingCount()).toBe(0);
  });

  it.each([
    [{ leaseDurationMs: 10_000, renewDeadlineMs: 10_000 }, 'leaseDuration must be greater than renewDeadline'],
    [{ renewDeadlineMs: 2_400, retryPeriodMs: 2_000 }, 'renewDeadline must be greater than retryPeriod*JitterFactor'],
    [{ retryPeriodMs: 0 }, 'retryPeriod must be greater than zero'],
    [{ identity: '' }, 'Lock identity is empty'],
  ])('validates %o', (over, message) => {
    const make = () =>
      new LeaderElector({
        leases: new FakeLeaseStore().client('x'),
        namespace: 'svc-system',
        name: 'l',
        callbacks: { onStartedLeading: () => undefined, onStoppedLeading: () => undefined },
        ...over,
      });
    expect(make).toThrow(message);
  });

  it('defaults the identity to <hostname>_<uuid>', () => {
    expect(defaultLeaderIdentity()).toMatch(new RegExp(`^${hostname().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}_[0-9a-f-]{36}$`));
  });
});
