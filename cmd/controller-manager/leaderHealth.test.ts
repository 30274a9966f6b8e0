import type { Lease } from '../../lib/api';
import type { LeaseClient } from '../../lib/client';
import { LeaderElectionHealth } from './leaderHealth';

const lease = (holder: string): Lease => ({ metadata: { name: 'cm', namespace: 'svc-system' }, spec: { holderIdentity: holder } });

function setup(): { t: { now: number }; health: LeaderElectionHealth; leases: LeaseClient } {
  const t = { now: 1_000_000 };
  const health = new LeaderElectionHealth({ leaseName: 'svc-controller-manager', identity: 'me', leaseDurationMs: 15_000, now: () => t.now });
  const store: LeaseClient = { get: async () => lease('me'), create: async (l) => l, update: async (l) => l };
  return { t, health, leases: health.track(store) };
}

describe('LeaderElectionHealth', () => {
  test.each<[string, boolean, number, string | null]>([
    ['a standby is always healthy', false, 10 * 60_000, null],
    ['a leader that renewed recently', true, 35_000, null],
    ['a leader stuck past lease duration + 20 s', true, 35_001, 'failed election to renew leadership on lease svc-controller-manager'],
  ])('%s', (_n, leading, elapsed, want) => {
    const { t, health } = setup();
    health.isLeader = () => leading;
    t.now += elapsed;
    expect(health.check()).toBe(want);
  });

  test('only writes that name us as holder count as renewals', async () => {
    const { t, health, leases } = setup();
    health.isLeader = () => true;
    t.now += 30_000;
    await leases.update(lease('someone-else'));
    t.now += 6_000;
    expect(health.check()).not.toBeNull();
    await leases.update(lease('me'));
    expect(health.check()).toBeNull();
    t.now += 30_000;
    await leases.create(lease('me'));
    expect(health.check()).toBeNull();
  });
});
