// Escalation prevention over the real RBAC authorizer: grant only what you hold, unless
// system:masters, `escalate` on the role, or `bind` on the referenced role.
import { groups, type ApiObject, type ClusterRole, type ClusterRoleBinding } from '../api';
import { PolicyIndex, rbacAuthorizer } from '../auth/rbac';
import type { UserInfo } from '../auth/user';
import { isApiError } from '../machinery/errors';
import type { AdmissionAttributes } from './attributes';
import { rbacEscalation } from './rbacEscalation';

const rbac = groups.rbac;
const clusterRole = (name: string, rules: ClusterRole['rules']): ClusterRole => ({ metadata: { name }, rules });
const bindUser = (name: string, role: string, user: string): ClusterRoleBinding => ({
  metadata: { name },
  roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: role },
  subjects: [{ kind: 'User', apiGroup: rbac, name: user }],
});

function setup(): ReturnType<typeof rbacEscalation> {
  const index = new PolicyIndex();
  index.replace('clusterroles', [
    clusterRole('sa-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['serviceaccounts'] }]),
    clusterRole('sa-admin', [{ verbs: ['*'], apiGroups: [''], resources: ['serviceaccounts'] }]),
    clusterRole('role-writer', [{ verbs: ['create', 'update'], apiGroups: [rbac], resources: ['clusterroles', 'clusterrolebindings'] }]),
    clusterRole('escalator', [{ verbs: ['escalate'], apiGroups: [rbac], resources: ['clusterroles'] }]),
    clusterRole('binder', [{ verbs: ['bind'], apiGroups: [rbac], resources: ['clusterroles'], resourceNames: ['sa-admin'] }]),
  ]);
  index.replace('clusterrolebindings', [
    bindUser('b1', 'sa-reader', 'alice'),
    bindUser('b2', 'role-writer', 'alice'),
    bindUser('b3', 'role-writer', 'erin'),
    bindUser('b4', 'escalator', 'erin'),
    bindUser('b5', 'role-writer', 'bob'),
    bindUser('b6', 'binder', 'bob'),
  ]);
  index.replace('roles', []);
  index.replace('rolebindings', []);
  const az = rbacAuthorizer(index);
  return rbacEscalation(az, az);
}

const user = (name: string, groupsOf: string[] = ['system:authenticated']): UserInfo => ({ name, groups: groupsOf });

function attrs(resource: string, obj: ApiObject, u: UserInfo, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return { operation: 'CREATE', resource: { group: rbac, resource }, subresource: '', namespaced: false, namespace: '', name: obj.metadata?.name ?? '', obj, old: null, user: u, dryRun: false, ...over };
}

/** A plugin's answer: it may refuse by throwing at once or through its promise. */
async function outcome(run: () => Promise<void> | void): Promise<string> {
  try {
    await run();
    return 'admitted';
  } catch (e) {
    if (isApiError(e)) return `${e.code} ${e.message}`;
    throw e;
  }
}

describe('RBAC escalation prevention', () => {
  const plugin = setup();
  const readerRole = clusterRole('mine', [{ verbs: ['get'], apiGroups: [''], resources: ['serviceaccounts'] }]);
  const adminRole = clusterRole('mine', [{ verbs: ['delete'], apiGroups: [''], resources: ['serviceaccounts'] }]);

  test.each([
    ['a role within what alice holds', 'alice', readerRole, 'admitted'],
    [
      'a role beyond what alice holds',
      'alice',
      adminRole,
      '403 clusterroles.rbac.authorization.svc.io "mine" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["serviceaccounts"], Verbs:["delete"]}',
    ],
    ['any role with escalate', 'erin', adminRole, 'admitted'],
  ])('%s', async (_, who, role, want) => {
    expect(await outcome(() => plugin(attrs('clusterroles', role, user(who))))).toBe(want);
  });

  test('system:masters may write anything', async () => {
    expect(await outcome(() => plugin(attrs('clusterroles', adminRole, user('root', ['system:masters']))))).toBe('admitted');
  });

  test('an aggregationRule needs full authority', async () => {
    const agg = { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] }, rules: [] } as ClusterRole;
    expect(await outcome(() => plugin(attrs('clusterroles', agg, user('erin'))))).toBe('admitted'); // escalate allows it
    expect(await outcome(() => plugin(attrs('clusterroles', agg, user('alice'))))).toBe(
      '403 clusterroles.rbac.authorization.svc.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule',
    );
  });

  test.each([
    ['binding a role alice holds', 'alice', 'sa-reader', 'admitted'],
    [
      'binding a role beyond alice',
      'alice',
      'sa-admin',
      '403 clusterrolebindings.rbac.authorization.svc.io "grant" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["serviceaccounts"], Verbs:["*"]}',
    ],
    ['binding with bind on that role', 'bob', 'sa-admin', 'admitted'],
    ['bind on one role is not bind on another', 'bob', 'escalator', '403'],
  ])('%s', async (_, who, role, want) => {
    const got = await outcome(() => plugin(attrs('clusterrolebindings', bindUser('grant', role, 'someone'), user(who))));
    expect(want === '403' ? got.slice(0, 3) : got).toBe(want);
  });

  test('a missing role is named in the refusal', async () => {
    const got = await outcome(() => plugin(attrs('clusterrolebindings', bindUser('grant', 'nope', 'x'), user('alice'))));
    expect(got).toMatch(/^403 clusterrolebindings.rbac.authorization.svc.io "grant" is forbidden: clusterroles?.rbac.authorization.svc.io "nope" not found$/);
  });

  test('deletes and other groups are not its business', async () => {
    expect(await outcome(() => plugin(attrs('clusterroles', adminRole, user('alice'), { operation: 'DELETE' })))).toBe('admitted');
    expect(await outcome(() => plugin({ ...attrs('clusterroles', adminRole, user('alice')), resource: { group: '', resource: 'clusterroles' } }))).toBe('admitted');
  });
});
