// The Lease strategy driven through a GenericStore on the in-memory backend: PUT must carry a
// resourceVersion for an existing lease, and may create a missing one.
import { MemoryStorage } from '../../etcd/memory';
import type { ApiObject } from '../../api';
import { ApiError, isApiError } from '../../machinery/errors';
import { GenericStore } from '../store';
import type { RequestContext } from '../strategy';
import { leaseStrategy } from './index';

const ctx: RequestContext = {
  user: { name: 'system:node:n1', groups: ['system:nodes'] },
  namespace: 'svc-node-lease',
  subresource: '',
  dryRun: false,
  now: () => new Date('2026-01-10T08:05:00Z'),
};

const store = (): GenericStore => new GenericStore({ storage: new MemoryStorage(), strategy: leaseStrategy, prefix: '/registry' });

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (isApiError(e)) return e;
    throw e;
  }
  throw new Error('expected the request to fail');
}

const body = (spec: Record<string, unknown> = {}): ApiObject => ({
  metadata: { name: 'n1' },
  spec: { holderIdentity: 'n1', leaseDurationSeconds: 40, renewTime: '2026-01-10T08:05:00.123456Z', ...spec },
});

describe('Lease through the store', () => {
  it('PUT creates a missing lease and drops gated fields', async () => {
    const s = store();
    const { obj, created } = await s.update(ctx, 'n1', () => body({ strategy: 'OldestEmulationVersion', preferredHolder: 'n2' }));
    expect(created).toBe(true);
    expect(obj.spec).toEqual({ holderIdentity: 'n1', leaseDurationSeconds: 40, renewTime: '2026-01-10T08:05:00.123456Z' });
  });

  it('an update without resourceVersion is refused; with it, it succeeds', async () => {
    const s = store();
    const first = await s.create(ctx, body());
    const e = await failure(s.update(ctx, 'n1', () => body({ renewTime: '2026-01-10T08:05:10.000000Z' })));
    expect(e.code).toBe(422);
    expect(e.status.message).toBe('Lease.coordination.svc.io "n1" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update');
    const { obj } = await s.update(ctx, 'n1', () => ({ ...body({ renewTime: '2026-01-10T08:05:10.000000Z' }), metadata: { name: 'n1', resourceVersion: first.metadata?.resourceVersion } }));
    expect(obj.spec).toMatchObject({ renewTime: '2026-01-10T08:05:10.000000Z' });
  });

  it('a zero duration is refused with upstream text', async () => {
    const e = await failure(store().create(ctx, body({ leaseDurationSeconds: 0 })));
    expect(e.status.message).toBe('Lease.coordination.svc.io "n1" is invalid: spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0');
  });

  it('DELETE answers with a Success Status', async () => {
    const s = store();
    await s.create(ctx, body());
    const { body: deleted } = await s.delete(ctx, 'n1');
    expect(deleted).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'n1', group: 'coordination.svc.io', kind: 'leases' } });
  });
});
