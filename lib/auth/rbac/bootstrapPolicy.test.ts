import { controllerManagerUserName, groups, rbacPolicyKeys, signerNames } from '../../api/product';
import type { ClusterRole } from '../../api/rbac';
import type { AuthorizationAttributes } from '../authorizer';
import type { UserInfo } from '../user';
import { aggregatedRules, needsUpdate } from './aggregation';
import { rbacAuthorizer } from './authorizer';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles, bootstrapRoleNames } from './bootstrapPolicy';
import { PolicyIndex } from './policySource';

/** The bootstrap policy with aggregation run to a fixed point, as the controller would leave it. */
function bootstrapIndex(): PolicyIndex {
  const roles = bootstrapClusterRoles();
  for (let changed = true; changed; ) {
    changed = false;
    for (const r of roles) {
      const want = aggregatedRules(r, roles);
      if (needsUpdate(r, want)) {
        r.rules = want;
        changed = true;
      }
    }
  }
  const idx = new PolicyIndex();
  idx.replace('clusterroles', roles);
  idx.replace('clusterrolebindings', bootstrapClusterRoleBindings());
  idx.replace('roles', []);
  idx.replace('rolebindings', []);
  return idx;
}

const authz = rbacAuthorizer(bootstrapIndex());

const anonymous: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
const someone: UserInfo = { name: 'someone', groups: ['system:authenticated'] };
const root: UserInfo = { name: 'root', groups: ['system:masters', 'system:authenticated'] };
const monitor: UserInfo = { name: 'prom', groups: ['system:monitoring', 'system:authenticated'] };
const cm: UserInfo = { name: controllerManagerUserName, groups: ['system:authenticated'] };

const url = (user: UserInfo, path: string, verb = 'get'): AuthorizationAttributes => ({
  user,
  verb,
  isResourceRequest: false,
  path,
  namespace: '',
  apiGroup: '',
  apiVersion: '',
  resource: '',
  subresource: '',
  name: '',
});
const res = (user: UserInfo, verb: string, apiGroup: string, resource: string, namespace = '', name = '', subresource = ''): AuthorizationAttributes => ({
  user,
  verb,
  isResourceRequest: true,
  path: '',
  namespace,
  apiGroup,
  apiVersion: 'v1',
  resource,
  subresource,
  name,
});

describe('bootstrap policy shape', () => {
  const roles = bootstrapClusterRoles();
  const bindings = bootstrapClusterRoleBindings();

  it('names are unique and every binding refers to a bootstrap ClusterRole', () => {
    const roleNames = roles.map((r) => r.metadata?.name);
    expect(new Set(roleNames).size).toBe(roleNames.length);
    expect(new Set(bindings.map((b) => b.metadata?.name)).size).toBe(bindings.length);
    for (const b of bindings) {
      expect(b.roleRef).toEqual({ apiGroup: groups.rbac, kind: 'ClusterRole', name: b.metadata?.name });
      expect(roleNames).toContain(b.roleRef?.name);
      expect(b.subjects?.length).toBeGreaterThan(0);
    }
  });

  it('every object carries the bootstrapping label and autoupdate annotation', () => {
    for (const o of [...roles, ...bindings]) {
      expect(o.metadata?.labels?.[rbacPolicyKeys.bootstrappingLabel]).toBe('rbac-defaults');
      expect(o.metadata?.annotations).toEqual({ [rbacPolicyKeys.autoupdateAnnotation]: 'true' });
      expect(o.apiVersion).toBe('rbac.authorization.svc.io/v1');
    }
    expect(rbacPolicyKeys).toEqual({
      bootstrappingLabel: 'svc.io/bootstrapping',
      autoupdateAnnotation: 'rbac.authorization.svc.io/autoupdate',
      aggregateToAdmin: 'rbac.authorization.svc.io/aggregate-to-admin',
      aggregateToEdit: 'rbac.authorization.svc.io/aggregate-to-edit',
      aggregateToView: 'rbac.authorization.svc.io/aggregate-to-view',
    });
  });

  it('uses the svc names', () => {
    expect(roles.map((r) => r.metadata?.name)).toEqual(
      expect.arrayContaining([
        'system:svc-controller-manager',
        'system:certificates.svc.io:certificatesigningrequests:nodeclient',
        'system:certificates.svc.io:certificatesigningrequests:selfnodeclient',
        'system:certificates.svc.io:svc-apiserver-client-approver',
        'system:certificates.svc.io:svc-apiserver-client-svclet-approver',
        'system:certificates.svc.io:svclet-serving-approver',
        'system:certificates.svc.io:legacy-unknown-approver',
      ]),
    );
    expect(bindings.find((b) => b.metadata?.name === 'system:svc-controller-manager')?.subjects).toEqual([
      { kind: 'User', apiGroup: groups.rbac, name: 'system:svc-controller-manager' },
    ]);
  });

  it('admin/edit/view aggregate by label; aggregated roles hold no rules of their own', () => {
    const byName = new Map(roles.map((r) => [r.metadata?.name, r] as [string, ClusterRole]));
    expect(byName.get('admin')?.aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { [rbacPolicyKeys.aggregateToAdmin]: 'true' } }] });
    expect(byName.get('edit')?.metadata?.labels?.[rbacPolicyKeys.aggregateToAdmin]).toBe('true');
    expect(byName.get('view')?.metadata?.labels?.[rbacPolicyKeys.aggregateToEdit]).toBe('true');
    expect(byName.get('system:aggregate-to-view')?.metadata?.labels?.[rbacPolicyKeys.aggregateToView]).toBe('true');
    for (const n of ['admin', 'edit', 'view']) expect(byName.get(n)?.rules).toBeUndefined();
  });

  it('public-info-viewer is bound to everyone, discovery and basic-user to the authenticated', () => {
    const subjectsOf = (n: string) => bindings.find((b) => b.metadata?.name === n)?.subjects?.map((s) => `${s.kind}:${s.name}`);
    expect(subjectsOf('system:public-info-viewer')).toEqual(['Group:system:authenticated', 'Group:system:unauthenticated']);
    expect(subjectsOf('system:discovery')).toEqual(['Group:system:authenticated']);
    expect(subjectsOf('system:basic-user')).toEqual(['Group:system:authenticated']);
    expect(subjectsOf('cluster-admin')).toEqual(['Group:system:masters']);
  });

  it('hands out fresh copies', () => {
    const a = bootstrapClusterRoles();
    a[0].rules = [];
    a[0].metadata!.labels!.x = 'y';
    expect(bootstrapClusterRoles()[0].rules?.length).toBe(2);
    expect(bootstrapClusterRoles()[0].metadata?.labels?.x).toBeUndefined();
  });
});

describe('bootstrap policy authorizes', () => {
  it.each<[string, AuthorizationAttributes, 'allow' | 'noOpinion']>([
    // cluster-admin grants everything
    ['masters: any resource verb', res(root, 'escalate', 'whatever.io', 'anything', 'ns', 'n', 'sub'), 'allow'],
    ['masters: any URL', url(root, '/debug/pprof', 'post'), 'allow'],
    // public info for everyone
    ...['/healthz', '/livez', '/readyz', '/version', '/version/'].map((p): [string, AuthorizationAttributes, 'allow'] => [`anonymous ${p}`, url(anonymous, p), 'allow']),
    ['anonymous not /api', url(anonymous, '/api'), 'noOpinion'],
    ['anonymous not /apis/x', url(anonymous, '/apis/certificates.svc.io'), 'noOpinion'],
    ['anonymous not /openapi/v2', url(anonymous, '/openapi/v2'), 'noOpinion'],
    ['anonymous not /healthz/etcd', url(anonymous, '/healthz/etcd'), 'noOpinion'],
    ['anonymous not /metrics', url(anonymous, '/metrics'), 'noOpinion'],
    ['anonymous no resources', res(anonymous, 'get', '', 'namespaces', '', 'default'), 'noOpinion'],
    ['anonymous may not self-review', res(anonymous, 'create', groups.authorization, 'selfsubjectaccessreviews'), 'noOpinion'],
    // discovery and basic-user for the authenticated
    ['authenticated /api', url(someone, '/api'), 'allow'],
    ['authenticated /apis/x/v1', url(someone, '/apis/coordination.svc.io/v1'), 'allow'],
    ['authenticated /openapi/v3/x', url(someone, '/openapi/v3/api/v1'), 'allow'],
    ['authenticated not /metrics', url(someone, '/metrics'), 'noOpinion'],
    ['authenticated not post /api', url(someone, '/api', 'post'), 'noOpinion'],
    ['authenticated self access review', res(someone, 'create', groups.authorization, 'selfsubjectaccessreviews'), 'allow'],
    ['authenticated self rules review', res(someone, 'create', groups.authorization, 'selfsubjectrulesreviews'), 'allow'],
    ['authenticated self review', res(someone, 'create', groups.authentication, 'selfsubjectreviews'), 'allow'],
    ['authenticated no subject access review', res(someone, 'create', groups.authorization, 'subjectaccessreviews'), 'noOpinion'],
    ['authenticated no namespaces', res(someone, 'list', '', 'namespaces'), 'noOpinion'],
    // monitoring
    ['monitoring /metrics', url(monitor, '/metrics'), 'allow'],
    ['monitoring /readyz/etcd', url(monitor, '/readyz/etcd'), 'allow'],
    // the controller manager
    ['cm leases create', res(cm, 'create', groups.coordination, 'leases', 'svc-system'), 'allow'],
    ['cm leases update', res(cm, 'update', groups.coordination, 'leases', 'svc-system', 'svc-controller-manager'), 'allow'],
    ['cm watch csrs', res(cm, 'watch', groups.certificates, 'certificatesigningrequests'), 'allow'],
    ['cm delete csr', res(cm, 'delete', groups.certificates, 'certificatesigningrequests', '', 'c'), 'allow'],
    ['cm csr approval', res(cm, 'update', groups.certificates, 'certificatesigningrequests', '', 'c', 'approval'), 'allow'],
    ['cm csr status', res(cm, 'update', groups.certificates, 'certificatesigningrequests', '', 'c', 'status'), 'allow'],
    ['cm approve svclet client signer', res(cm, 'approve', groups.certificates, 'signers', '', signerNames.apiserverClientSvclet), 'allow'],
    ['cm may not approve apiserver client signer', res(cm, 'approve', groups.certificates, 'signers', '', signerNames.apiserverClient), 'noOpinion'],
    ...Object.values(signerNames).map((s): [string, AuthorizationAttributes, 'allow'] => [`cm sign ${s}`, res(cm, 'sign', groups.certificates, 'signers', '', s), 'allow']),
    ['cm may not sign other signers', res(cm, 'sign', groups.certificates, 'signers', '', 'example.com/x'), 'noOpinion'],
    ['cm SAR', res(cm, 'create', groups.authorization, 'subjectaccessreviews'), 'allow'],
    ['cm TokenReview', res(cm, 'create', groups.authentication, 'tokenreviews'), 'allow'],
    ['cm create serviceaccount', res(cm, 'create', '', 'serviceaccounts', 'ns1'), 'allow'],
    ['cm delete namespace', res(cm, 'delete', '', 'namespaces', '', 'ns1'), 'allow'],
    ['cm finalize namespace', res(cm, 'update', '', 'namespaces', '', 'ns1', 'finalize'), 'allow'],
    ['cm namespace status', res(cm, 'update', '', 'namespaces', '', 'ns1', 'status'), 'allow'],
    ['cm deletecollection anything', res(cm, 'deletecollection', groups.rbac, 'rolebindings', 'ns1'), 'allow'],
    ['cm may not create roles', res(cm, 'create', groups.rbac, 'roles', 'ns1'), 'noOpinion'],
    ['cm may not update namespaces', res(cm, 'update', '', 'namespaces', '', 'ns1'), 'noOpinion'],
  ])('%s', (_name, a, want) => {
    expect(authz.authorize(a).decision).toBe(want);
  });
});

describe('aggregated admin/edit/view through RoleBindings', () => {
  const idx = bootstrapIndex();
  const bind = (ns: string, roleName: string, user: string) =>
    idx.upsert('rolebindings', {
      metadata: { namespace: ns, name: `${roleName}-${user}` },
      roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: roleName },
      subjects: [{ kind: 'User', apiGroup: groups.rbac, name: user }],
    });
  bind('ns1', bootstrapRoleNames.view, 'viewer');
  bind('ns1', bootstrapRoleNames.edit, 'editor');
  bind('ns1', bootstrapRoleNames.admin, 'admin');
  const z = rbacAuthorizer(idx);
  const u = (name: string): UserInfo => ({ name, groups: ['system:authenticated'] });

  it.each<[string, AuthorizationAttributes, 'allow' | 'noOpinion']>([
    ['view reads serviceaccounts', res(u('viewer'), 'list', '', 'serviceaccounts', 'ns1'), 'allow'],
    ['view reads its namespace', res(u('viewer'), 'get', '', 'namespaces', 'ns1', 'ns1'), 'allow'],
    ['view cannot create serviceaccounts', res(u('viewer'), 'create', '', 'serviceaccounts', 'ns1'), 'noOpinion'],
    ['view cannot read leases', res(u('viewer'), 'get', groups.coordination, 'leases', 'ns1', 'l'), 'noOpinion'],
    ['view reads configmaps (upstream view)', res(u('viewer'), 'watch', '', 'configmaps', 'ns1'), 'allow'],
    ['view cannot write configmaps', res(u('viewer'), 'update', '', 'configmaps', 'ns1', 'c'), 'noOpinion'],
    ['view only in its namespace', res(u('viewer'), 'list', '', 'serviceaccounts', 'ns2'), 'noOpinion'],
    ['edit creates serviceaccounts', res(u('editor'), 'create', '', 'serviceaccounts', 'ns1'), 'allow'],
    ['edit reads what view reads', res(u('editor'), 'watch', '', 'serviceaccounts', 'ns1'), 'allow'],
    ['edit requests tokens', res(u('editor'), 'create', '', 'serviceaccounts', 'ns1', 'sa', 'token'), 'allow'],
    ['edit writes leases', res(u('editor'), 'update', groups.coordination, 'leases', 'ns1', 'l'), 'allow'],
    ['edit writes configmaps (upstream edit)', res(u('editor'), 'deletecollection', '', 'configmaps', 'ns1'), 'allow'],
    ['edit reads configmaps', res(u('editor'), 'get', '', 'configmaps', 'ns1', 'c'), 'allow'],
    ['admin writes configmaps', res(u('admin'), 'create', '', 'configmaps', 'ns1'), 'allow'],
    ['edit cannot write configmaps elsewhere', res(u('editor'), 'create', '', 'configmaps', 'ns2'), 'noOpinion'],
    ['edit cannot write roles', res(u('editor'), 'create', groups.rbac, 'roles', 'ns1'), 'noOpinion'],
    ['admin writes roles', res(u('admin'), 'create', groups.rbac, 'roles', 'ns1'), 'allow'],
    ['admin writes rolebindings', res(u('admin'), 'delete', groups.rbac, 'rolebindings', 'ns1', 'x'), 'allow'],
    ['admin local SAR', res(u('admin'), 'create', groups.authorization, 'localsubjectaccessreviews', 'ns1'), 'allow'],
    ['admin has edit powers', res(u('admin'), 'patch', '', 'serviceaccounts', 'ns1', 'x'), 'allow'],
    ['admin cannot escalate roles', res(u('admin'), 'escalate', groups.rbac, 'roles', 'ns1', 'x'), 'noOpinion'],
    ['admin cannot delete its namespace', res(u('admin'), 'delete', '', 'namespaces', 'ns1', 'ns1'), 'noOpinion'],
  ])('%s', (_name, a, want) => {
    expect(z.authorize(a).decision).toBe(want);
  });
});
