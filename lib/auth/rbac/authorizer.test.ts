import { groups, signerNames } from '../../api/product';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, Subject } from '../../api/rbac';
import type { AuthorizationAttributes, AuthorizationResult } from '../authorizer';
import type { UserInfo } from '../user';
import { rbacAuthorizer } from './authorizer';
import { PolicyIndex } from './policySource';

// ---- fixture -----------------------------------------------------------------------------

const clusterRole = (name: string, rules: PolicyRule[]): ClusterRole => ({ metadata: { name }, rules });
const role = (namespace: string, name: string, rules: PolicyRule[]): Role => ({ metadata: { namespace, name }, rules });
const crb = (name: string, roleName: string, subjects: Subject[]): ClusterRoleBinding => ({
  metadata: { name },
  roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: roleName },
  subjects,
});
const rb = (namespace: string, name: string, kind: 'Role' | 'ClusterRole', roleName: string, subjects: Subject[]): RoleBinding => ({
  metadata: { namespace, name },
  roleRef: { apiGroup: groups.rbac, kind, name: roleName },
  subjects,
});
const U = (name: string): Subject => ({ kind: 'User', apiGroup: groups.rbac, name });
const G = (name: string): Subject => ({ kind: 'Group', apiGroup: groups.rbac, name });
const SA = (name: string, namespace?: string): Subject => (namespace === undefined ? { kind: 'ServiceAccount', name } : { kind: 'ServiceAccount', name, namespace });

function fixture(): PolicyIndex {
  const idx = new PolicyIndex();
  idx.replace('clusterroles', [
    clusterRole('cluster-admin', [
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      { verbs: ['*'], nonResourceURLs: ['*'] },
    ]),
    clusterRole('pod-reader', [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }]),
    clusterRole('sa-editor', [{ verbs: ['*'], apiGroups: [''], resources: ['serviceaccounts'] }]),
    clusterRole('status-updater', [{ verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] }]),
    clusterRole('signer-approver', [{ verbs: ['approve'], apiGroups: [groups.certificates], resources: ['signers'], resourceNames: [signerNames.apiserverClient] }]),
    clusterRole('health', [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/apis/*'] }]),
    clusterRole('ns-admin', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]),
    clusterRole('nothing', []),
  ]);
  idx.replace('roles', [
    role('ns1', 'lease-editor', [{ verbs: ['get', 'update'], apiGroups: [groups.coordination], resources: ['leases'], resourceNames: ['leader'] }]),
    role('ns2', 'lease-editor', [{ verbs: ['*'], apiGroups: [groups.coordination], resources: ['leases'] }]),
  ]);
  idx.replace('clusterrolebindings', [
    crb('masters', 'cluster-admin', [G('system:masters')]),
    crb('readers', 'pod-reader', [U('alice')]),
    crb('broken', 'ghost', [G('ops')]),
    crb('sa-editors', 'sa-editor', [U('nobody'), G('ops')]),
    crb('status', 'status-updater', [SA('robot', 'ns1')]),
    crb('approvers', 'signer-approver', [G('approvers')]),
    crb('health', 'health', [G('system:unauthenticated')]),
    // a ServiceAccount subject without namespace in a ClusterRoleBinding matches nobody
    crb('sa-no-ns', 'pod-reader', [SA('robot2')]),
    crb('empty', 'nothing', [U('alice')]),
  ]);
  idx.replace('rolebindings', [
    rb('ns1', 'rb-lease', 'Role', 'lease-editor', [SA('robot')]),
    rb('ns1', 'rb-admin', 'ClusterRole', 'ns-admin', [U('bob')]),
    rb('ns1', 'rb-missing', 'Role', 'nope', [U('carol'), G('ops')]),
    rb('ns1', 'rb-other-sa', 'ClusterRole', 'ns-admin', [SA('robot', 'ns2')]),
    rb('ns2', 'rb-admin2', 'ClusterRole', 'ns-admin', [U('dave')]),
    rb('ns2', 'rb-lease2', 'Role', 'lease-editor', [SA('robot2')]),
  ]);
  return idx;
}

const user = (name: string, groupList: string[] = []): UserInfo => ({ name, groups: groupList });
const sa = (ns: string, name: string): UserInfo => ({
  name: `system:serviceaccount:${ns}:${name}`,
  groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
});

function res(u: UserInfo, verb: string, group: string, resource: string, namespace = '', name = '', subresource = ''): AuthorizationAttributes {
  return { user: u, verb, isResourceRequest: true, path: '', namespace, apiGroup: group, apiVersion: 'v1', resource, subresource, name };
}
function url(u: UserInfo, verb: string, path: string): AuthorizationAttributes {
  return { user: u, verb, isResourceRequest: false, path, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}

const authz = rbacAuthorizer(fixture());
const C = groups.certificates;
const L = groups.coordination;

// ---- the matrix --------------------------------------------------------------------------

describe('rbacAuthorizer decision matrix', () => {
  it.each<[string, AuthorizationAttributes, 'allow' | 'noOpinion']>([
    // users
    ['alice reads pods in a namespace', res(user('alice'), 'get', '', 'pods', 'ns1', 'p'), 'allow'],
    ['alice lists pods across namespaces', res(user('alice'), 'list', '', 'pods'), 'allow'],
    ['alice may not delete pods', res(user('alice'), 'delete', '', 'pods', 'ns1', 'p'), 'noOpinion'],
    ['alice reads no pod subresource', res(user('alice'), 'get', '', 'pods', 'ns1', 'p', 'log'), 'noOpinion'],
    ['alice: pods in another group are others', res(user('alice'), 'get', 'x.svc.io', 'pods', 'ns1'), 'noOpinion'],
    ['user names are exact', res(user('Alice'), 'get', '', 'pods', 'ns1'), 'noOpinion'],
    ['a stranger gets nothing', res(user('eve'), 'get', '', 'pods', 'ns1'), 'noOpinion'],
    // groups; a missing role on another binding does not stop evaluation
    ['ops (with a broken binding) still edits serviceaccounts', res(user('x', ['ops']), 'create', '', 'serviceaccounts', 'ns9'), 'allow'],
    ['ops wildcard verb covers custom verbs', res(user('x', ['ops']), 'impersonate', '', 'serviceaccounts', '', 'sa'), 'allow'],
    ['ops wildcard verb does not reach other resources', res(user('x', ['ops']), 'get', '', 'namespaces', ''), 'noOpinion'],
    ['system:masters through cluster-admin', res(user('root', ['system:masters']), 'deletecollection', 'anything.io', 'widgets', 'ns'), 'allow'],
    ['cluster-admin covers non-resource URLs', url(user('root', ['system:masters']), 'post', '/whatever/x'), 'allow'],
    // wildcard subresource form
    ['*/status update of any group', res(sa('ns1', 'robot'), 'update', C, 'certificatesigningrequests', '', 'csr1', 'status'), 'allow'],
    ['*/status does not grant the main resource', res(sa('ns1', 'robot'), 'update', C, 'certificatesigningrequests', '', 'csr1'), 'noOpinion'],
    ['*/status does not grant other subresources', res(sa('ns1', 'robot'), 'update', C, 'certificatesigningrequests', '', 'csr1', 'approval'), 'noOpinion'],
    // resourceNames
    ['approve the named signer', res(user('a', ['approvers']), 'approve', C, 'signers', '', signerNames.apiserverClient), 'allow'],
    ['not another signer', res(user('a', ['approvers']), 'approve', C, 'signers', '', signerNames.svcletServing), 'noOpinion'],
    ['not the domain wildcard name', res(user('a', ['approvers']), 'approve', C, 'signers', '', 'svc.io/*'), 'noOpinion'],
    ['named lease get', res(sa('ns1', 'robot'), 'get', L, 'leases', 'ns1', 'leader'), 'allow'],
    ['named lease update', res(sa('ns1', 'robot'), 'update', L, 'leases', 'ns1', 'leader'), 'allow'],
    ['resourceNames never match list (no name)', res(sa('ns1', 'robot'), 'list', L, 'leases', 'ns1'), 'noOpinion'],
    ['resourceNames never match watch (no name)', res(sa('ns1', 'robot'), 'watch', L, 'leases', 'ns1'), 'noOpinion'],
    ['resourceNames do not match create (no name)', res(sa('ns1', 'robot'), 'create', L, 'leases', 'ns1'), 'noOpinion'],
    ['other lease name', res(sa('ns1', 'robot'), 'get', L, 'leases', 'ns1', 'other'), 'noOpinion'],
    // namespaces: RoleBindings only act in their namespace, and only for namespaced requests
    ['bob is admin of ns1', res(user('bob'), 'delete', L, 'leases', 'ns1', 'x'), 'allow'],
    ['bob is not admin of ns2', res(user('bob'), 'delete', L, 'leases', 'ns2', 'x'), 'noOpinion'],
    ['bob has no cluster-scoped power', res(user('bob'), 'delete', '', 'namespaces', '', 'ns1'), 'noOpinion'],
    ['bob cannot list across namespaces', res(user('bob'), 'list', L, 'leases'), 'noOpinion'],
    ['dave is admin of ns2 only', res(user('dave'), 'get', '', 'pods', 'ns2'), 'allow'],
    ['dave not in ns1', res(user('dave'), 'get', '', 'pods', 'ns1'), 'noOpinion'],
    // ServiceAccount subjects
    ['SA subject without namespace defaults to the binding namespace', res(sa('ns2', 'robot2'), 'delete', L, 'leases', 'ns2', 'x'), 'allow'],
    ['that binding does not apply to the same name elsewhere', res(sa('ns1', 'robot2'), 'delete', L, 'leases', 'ns2', 'x'), 'noOpinion'],
    ['SA subject with explicit other namespace', res(sa('ns2', 'robot'), 'delete', '', 'secrets', 'ns1', 'x'), 'allow'],
    ['explicit namespace is honoured', res(sa('ns3', 'robot'), 'delete', '', 'secrets', 'ns1', 'x'), 'noOpinion'],
    ['SA without namespace in a ClusterRoleBinding matches nobody', res(sa('ns1', 'robot2'), 'get', '', 'pods', 'ns1'), 'noOpinion'],
    ['SA user name must be exact', res(user('system:serviceaccount:ns1:robotx'), 'update', L, 'leases', 'ns1', 'leader'), 'noOpinion'],
    ['a plain user named like an SA with a colon-suffix', res(user('system:serviceaccount:ns1:robot:x'), 'update', L, 'leases', 'ns1', 'leader'), 'noOpinion'],
    // non-resource URLs
    ['anonymous /healthz', url(user('system:anonymous', ['system:unauthenticated']), 'get', '/healthz'), 'allow'],
    ['anonymous /healthz/etcd not granted', url(user('system:anonymous', ['system:unauthenticated']), 'get', '/healthz/etcd'), 'noOpinion'],
    ['anonymous /apis/x via /apis/*', url(user('system:anonymous', ['system:unauthenticated']), 'get', '/apis/x/v1'), 'allow'],
    ['/apis itself not via /apis/*', url(user('system:anonymous', ['system:unauthenticated']), 'get', '/apis'), 'noOpinion'],
    ['URL verb must match', url(user('system:anonymous', ['system:unauthenticated']), 'post', '/healthz'), 'noOpinion'],
    ['resource rules never grant URLs', url(user('alice'), 'get', '/api/v1/pods'), 'noOpinion'],
  ])('%s', (_name, a, want) => {
    expect(authz.authorize(a).decision).toBe(want);
  });
});

describe('rbacAuthorizer reasons', () => {
  it.each<[string, AuthorizationAttributes, AuthorizationResult]>([
    [
      'ClusterRoleBinding to a User',
      res(user('alice'), 'get', '', 'pods', 'ns1', 'p'),
      { decision: 'allow', reason: 'RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "pod-reader" to User "alice"' },
    ],
    [
      'ClusterRoleBinding names the first subject that applies',
      res(user('x', ['ops']), 'get', '', 'serviceaccounts', 'ns1'),
      { decision: 'allow', reason: 'RBAC: allowed by ClusterRoleBinding "sa-editors" of ClusterRole "sa-editor" to Group "ops"' },
    ],
    [
      'ClusterRoleBinding to a ServiceAccount',
      res(sa('ns1', 'robot'), 'update', C, 'certificatesigningrequests', '', 'c', 'status'),
      { decision: 'allow', reason: 'RBAC: allowed by ClusterRoleBinding "status" of ClusterRole "status-updater" to ServiceAccount "robot/ns1"' },
    ],
    [
      'RoleBinding of a Role to a defaulted ServiceAccount',
      res(sa('ns1', 'robot'), 'get', L, 'leases', 'ns1', 'leader'),
      { decision: 'allow', reason: 'RBAC: allowed by RoleBinding "rb-lease/ns1" of Role "lease-editor" to ServiceAccount "robot/ns1"' },
    ],
    [
      'RoleBinding of a ClusterRole',
      res(user('bob'), 'get', '', 'pods', 'ns1'),
      { decision: 'allow', reason: 'RBAC: allowed by RoleBinding "rb-admin/ns1" of ClusterRole "ns-admin" to User "bob"' },
    ],
    ['nothing applies: empty reason', res(user('eve'), 'get', '', 'pods', 'ns1'), { decision: 'noOpinion', reason: '' }],
    [
      'missing Role reported in the reason (lister spelling)',
      res(user('carol'), 'get', '', 'pods', 'ns1'),
      { decision: 'noOpinion', reason: 'RBAC: role.rbac.authorization.svc.io "nope" not found' },
    ],
    [
      'several missing roles aggregated',
      res(user('x', ['ops']), 'get', '', 'pods', 'ns1'),
      {
        decision: 'noOpinion',
        reason: 'RBAC: [clusterrole.rbac.authorization.svc.io "ghost" not found, role.rbac.authorization.svc.io "nope" not found]',
      },
    ],
    [
      'allowed despite a missing role: errors dropped',
      res(user('carol', ['ops']), 'list', '', 'serviceaccounts', 'ns1'),
      { decision: 'allow', reason: 'RBAC: allowed by ClusterRoleBinding "sa-editors" of ClusterRole "sa-editor" to Group "ops"' },
    ],
  ])('%s', (_name, a, want) => {
    expect(authz.authorize(a)).toEqual(want);
  });

  it('names the registry spelling of a missing role when asked to', () => {
    const z = rbacAuthorizer(fixture(), { roleNotFound: 'registry' });
    expect(z.authorize(res(user('x', ['ops']), 'get', '', 'pods', 'ns1')).reason).toBe(
      'RBAC: [clusterroles.rbac.authorization.svc.io "ghost" not found, roles.rbac.authorization.svc.io "nope" not found]',
    );
  });

  it('reports an unsupported roleRef kind', () => {
    const idx = new PolicyIndex();
    idx.upsert('clusterrolebindings', { metadata: { name: 'odd' }, roleRef: { apiGroup: groups.rbac, kind: 'Thing', name: 't' }, subjects: [U('u')] });
    expect(rbacAuthorizer(idx).authorize(res(user('u'), 'get', '', 'pods')).reason).toBe('RBAC: unsupported role reference kind: "Thing"');
  });
});

describe('rbacAuthorizer follows index changes', () => {
  it('allows after a binding is added, stops after it is removed', () => {
    const idx = fixture();
    const z = rbacAuthorizer(idx);
    const a = res(user('erin'), 'get', '', 'pods', 'ns1');
    expect(z.authorize(a).decision).toBe('noOpinion');
    const binding = crb('erin', 'pod-reader', [U('erin')]);
    idx.upsert('clusterrolebindings', binding);
    expect(z.authorize(a).decision).toBe('allow');
    idx.remove('clusterrolebindings', binding);
    expect(z.authorize(a).decision).toBe('noOpinion');
  });

  it('a changed role changes the answer (and the cached reason follows the new binding object)', () => {
    const idx = fixture();
    const z = rbacAuthorizer(idx);
    const a = res(user('alice'), 'delete', '', 'pods', 'ns1', 'p');
    expect(z.authorize(a).decision).toBe('noOpinion');
    idx.upsert('clusterroles', clusterRole('pod-reader', [{ verbs: ['*'], apiGroups: [''], resources: ['pods'] }]));
    expect(z.authorize(a).decision).toBe('allow');
    idx.upsert('clusterrolebindings', crb('readers', 'pod-reader', [G('x'), U('alice')]));
    expect(z.authorize(a).reason).toBe('RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "pod-reader" to User "alice"');
  });
});

describe('rbacAuthorizer.rulesFor', () => {
  it('lists resource and non-resource rules of the bindings that apply', () => {
    expect(authz.rulesFor(user('alice', ['system:unauthenticated']), 'ns1')).toEqual({
      resourceRules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/apis/*'] }],
      incomplete: false,
    });
  });

  it('includes RoleBinding rules of the namespace, with names, and reports resolution errors', () => {
    expect(authz.rulesFor(user('carol'), 'ns1')).toEqual({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: false,
      evaluationError: 'role.rbac.authorization.svc.io "nope" not found',
    });
    expect(authz.rulesFor(sa('ns1', 'robot'), 'ns1').resourceRules).toEqual([
      { verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] },
      { verbs: ['get', 'update'], apiGroups: [L], resources: ['leases'], resourceNames: ['leader'] },
    ]);
  });

  it('a cluster-admin rule appears in both lists', () => {
    const got = authz.rulesFor(user('root', ['system:masters']), '');
    expect(got.resourceRules).toEqual([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
    expect(got.nonResourceRules).toEqual([{ verbs: ['*'], nonResourceURLs: ['*'] }]);
  });
});
