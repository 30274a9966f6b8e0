// The /healthz `leaderElection` check (client-go's HealthzAdaptor): a process that believes it
// leads but has not renewed its lease for longer than the lease duration plus a tolerance is
// stuck (it should have stopped leading) and reports unhealthy so it gets restarted.
import type { Lease } from '../../lib/api';
import type { LeaseClient } from '../../lib/client';

/** Upstream's kube-controller-manager passes 20 s (NewLeaderHealthzAdaptor(time.Second * 20)). */
export const leaderHealthTolerance = 20_000;

export interface LeaderHealthOptions {
  /** Lease name, for the failure text. */
  leaseName: string;
  identity: string;
  leaseDurationMs: number;
  toleranceMs?: number;
  now?: () => number;
}

export class LeaderElectionHealth {
  private lastRenewal: number;
  private readonly now: () => number;
  /** Whether the elector currently believes it leads; set once the elector exists. */
  isLeader: () => boolean = () => false;

  constructor(private readonly opts: LeaderHealthOptions) {
    this.now = opts.now ?? Date.now;
    this.lastRenewal = this.now();
  }

  /** The LeaseClient the elector should use: successful writes naming us as holder count as renewals. */
  track(leases: LeaseClient): LeaseClient {
    const seen = (lease: Lease): Lease => {
      if (lease.spec?.holderIdentity === this.opts.identity) this.lastRenewal = this.now();
      return lease;
    };
    return {
      get: (ns, name, signal) => leases.get(ns, name, signal),
      create: async (lease, signal) => seen(await leases.create(lease, signal)),
      update: async (lease, signal) => seen(await leases.update(lease, signal)),
    };
  }

  /** null when healthy; the upstream failure text otherwise. */
  readonly check = (): string | null => {
    if (!this.isLeader()) return null;
    const limit = this.opts.leaseDurationMs + (this.opts.toleranceMs ?? leaderHealthTolerance);
    if (this.now() - this.lastRenewal > limit) return `failed election to renew leadership on lease ${this.opts.leaseName}`;
    return null;
  };
}
