// The RBAC strategies driven through a GenericStore on the in-memory backend: what a client
// sees for defaulting, validation, roleRef immutability, PUT-create and DELETE.
import { MemoryStorage } from '../../etcd/memory';
import type { ApiObject, Status } from '../../api';
import { ApiError, isApiError } from '../../machinery/errors';
import { GenericStore } from '../store';
import type { RequestContext, Strategy } from '../strategy';
import { clusterRoleBindingStrategy, clusterRoleStrategy, roleBindingStrategy, roleStrategy } from './index';

const group = 'rbac.authorization.svc.io';
const now = new Date('2026-01-10T08:05:00Z');

function ctx(namespace = ''): RequestContext {
  return { user: { name: 'admin', groups: ['system:masters'] }, namespace, subresource: '', dryRun: false, now: () => now };
}

function storeOf(strategy: Strategy): GenericStore {
  return new GenericStore({ storage: new MemoryStorage(), strategy, prefix: '/registry' });
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (isApiError(e)) return e;
    throw e;
  }
  throw new Error('expected the request to fail');
}

describe('RoleBinding through the store', () => {
  const body = (): ApiObject => ({
    metadata: { name: 'readers' },
    roleRef: { kind: 'Role', name: 'reader' },
    subjects: [{ kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', name: 'builder' }],
  });

  it('stores the defaulted groups', async () => {
    const store = storeOf(roleBindingStrategy);
    const created = await store.create(ctx('team'), body());
    expect(created).toMatchObject({
      kind: 'RoleBinding',
      apiVersion: `${group}/v1`,
      metadata: { name: 'readers', namespace: 'team' },
      roleRef: { apiGroup: group, kind: 'Role', name: 'reader' },
      subjects: [
        { kind: 'User', apiGroup: group, name: 'alice' },
        { kind: 'ServiceAccount', name: 'builder' },
      ],
    });
  });

  it('refuses a roleRef change with a 422 naming the new roleRef', async () => {
    const store = storeOf(roleBindingStrategy);
    await store.create(ctx('team'), body());
    const e = await failure(store.update(ctx('team'), 'readers', (cur) => ({ ...cur!, roleRef: { apiGroup: group, kind: 'ClusterRole', name: 'edit' } })));
    expect(e.code).toBe(422);
    expect(e.status.message).toBe(
      `RoleBinding.${group} "readers" is invalid: roleRef: Invalid value: {"APIGroup":"${group}","Kind":"ClusterRole","Name":"edit"}: cannot change roleRef`,
    );
    expect(e.status.details?.causes).toEqual([
      { reason: 'FieldValueInvalid', message: `Invalid value: {"APIGroup":"${group}","Kind":"ClusterRole","Name":"edit"}: cannot change roleRef`, field: 'roleRef' },
    ]);
  });

  it('a bad name is refused before anything is stored', async () => {
    const store = storeOf(roleBindingStrategy);
    const e = await failure(store.create(ctx('team'), { ...body(), metadata: { name: '..' } }));
    expect(e.code).toBe(422);
    expect(e.status.message).toBe(`RoleBinding.${group} ".." is invalid: metadata.name: Invalid value: "..": may not be '..'`);
  });

  it('PUT creates a missing binding, DELETE answers with a Success Status', async () => {
    const store = storeOf(roleBindingStrategy);
    const { created } = await store.update(ctx('team'), 'readers', () => body());
    expect(created).toBe(true);
    const { body: deleted } = await store.delete(ctx('team'), 'readers');
    expect(deleted).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'readers', group, kind: 'rolebindings' } } as Partial<Status>);
  });
});

describe('other RBAC kinds through the store', () => {
  it('a Role with non-resource URLs is refused; causes list update errors twice, the message once', async () => {
    const store = storeOf(roleStrategy);
    const bad = { metadata: { name: 'r' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }] };
    const created = await failure(store.create(ctx('team'), bad));
    const text = 'rules[0].nonResourceURLs: Invalid value: ["/metrics"]: namespaced rules cannot apply to non-resource URLs';
    expect(created.status.message).toBe(`Role.${group} "r" is invalid: ${text}`);

    await store.create(ctx('team'), { metadata: { name: 'r' }, rules: [] });
    const updated = await failure(store.update(ctx('team'), 'r', (cur) => ({ ...cur!, rules: bad.rules })));
    expect(updated.status.message).toBe(`Role.${group} "r" is invalid: ${text}`);
    expect(updated.status.details?.causes).toHaveLength(2);
  });

  it('a ClusterRole with an empty aggregationRule is refused', async () => {
    const store = storeOf(clusterRoleStrategy);
    const e = await failure(store.create(ctx(), { metadata: { name: 'agg' }, aggregationRule: {} }));
    expect(e.status.message).toBe(
      `ClusterRole.${group} "agg" is invalid: aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil`,
    );
  });

  it('a ClusterRoleBinding to a Role is refused even after defaulting', async () => {
    const store = storeOf(clusterRoleBindingStrategy);
    const e = await failure(store.create(ctx(), { metadata: { name: 'b' }, roleRef: { kind: 'Role', name: 'x' }, subjects: [{ kind: 'ServiceAccount', name: 's' }] }));
    expect(e.status.message).toBe(
      `ClusterRoleBinding.${group} "b" is invalid: [roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole", subjects[0].namespace: Required value]`,
    );
  });
});
