import { groups, signerNames } from '../../api/product';
import type { PolicyRule, RoleRef, Subject } from '../../api/rbac';
import type { AuthorizationAttributes, Authorizer } from '../authorizer';
import type { UserInfo } from '../user';
import { rbacAuthorizer } from './authorizer';
import {
  aggregationRuleNeedsClusterAdmin,
  bindingAuthorized,
  breakdownRule,
  compactRules,
  confirmNoEscalation,
  covers,
  escalationAllowed,
  fullAuthorityRules,
  roleEscalationAuthorized,
} from './escalation';
import { PolicyIndex } from './policySource';
import { ruleResolver } from './ruleResolver';
import { compactString } from './ruleString';

const R = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule =>
  resourceNames ? { verbs, apiGroups, resources, resourceNames } : { verbs, apiGroups, resources };
const URL = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({ verbs, nonResourceURLs });

describe('breakdownRule', () => {
  it('splits into group × resource × verb (× name), then URL × verb', () => {
    expect(breakdownRule({ verbs: ['get', 'list'], apiGroups: ['', 'x'], resources: ['pods'], resourceNames: ['a', 'b'] })).toEqual([
      R(['get'], [''], ['pods'], ['a']),
      R(['get'], [''], ['pods'], ['b']),
      R(['list'], [''], ['pods'], ['a']),
      R(['list'], [''], ['pods'], ['b']),
      R(['get'], ['x'], ['pods'], ['a']),
      R(['get'], ['x'], ['pods'], ['b']),
      R(['list'], ['x'], ['pods'], ['a']),
      R(['list'], ['x'], ['pods'], ['b']),
    ]);
    expect(breakdownRule({ verbs: ['get', 'post'], nonResourceURLs: ['/a', '/b'] })).toEqual([
      URL(['get'], ['/a']),
      URL(['post'], ['/a']),
      URL(['get'], ['/b']),
      URL(['post'], ['/b']),
    ]);
    // resources without groups grant nothing, so there is nothing to cover
    expect(breakdownRule({ verbs: ['get'], resources: ['pods'] })).toEqual([]);
  });
});

describe('covers', () => {
  it.each<[string, PolicyRule[], PolicyRule[], PolicyRule[]]>([
    ['exact', [R(['get'], [''], ['pods'])], [R(['get'], [''], ['pods'])], []],
    ['subset of verbs and resources', [R(['get', 'list'], [''], ['pods', 'services'])], [R(['list'], [''], ['services'])], []],
    ['split across owner rules', [R(['get'], [''], ['pods']), R(['list'], [''], ['pods'])], [R(['get', 'list'], [''], ['pods'])], []],
    ['missing verb', [R(['get'], [''], ['pods'])], [R(['get', 'delete'], [''], ['pods'])], [R(['delete'], [''], ['pods'])]],
    ['star verb, group and resource', [R(['*'], ['*'], ['*'])], [R(['escalate'], ['x.io'], ['things'], ['n'])], []],
    ['owner group "" does not cover servant "*"', [R(['get'], [''], ['pods'])], [R(['get'], ['*'], ['pods'])], [R(['get'], ['*'], ['pods'])]],
    ['owner resource "pods" does not cover "*"', [R(['get'], [''], ['pods'])], [R(['get'], [''], ['*'])], [R(['get'], [''], ['*'])]],
    ['owner without names covers named', [R(['get'], [''], ['pods'])], [R(['get'], [''], ['pods'], ['a'])], []],
    ['owner with names does not cover unnamed', [R(['get'], [''], ['pods'], ['a'])], [R(['get'], [''], ['pods'])], [R(['get'], [''], ['pods'])]],
    ['owner names must include servant name', [R(['get'], [''], ['pods'], ['a'])], [R(['get'], [''], ['pods'], ['a', 'b'])], [R(['get'], [''], ['pods'], ['b'])]],
    ['*/subresource covers pods/status', [R(['update'], ['*'], ['*/status'])], [R(['update'], [''], ['pods/status'])], []],
    ['*/subresource does not cover the resource', [R(['update'], ['*'], ['*/status'])], [R(['update'], [''], ['pods'])], [R(['update'], [''], ['pods'])]],
    ['resource does not cover its subresources', [R(['get'], [''], ['pods'])], [R(['get'], [''], ['pods/log'])], [R(['get'], [''], ['pods/log'])]],
    ['URL prefix', [URL(['get'], ['/api/*'])], [URL(['get'], ['/api/v1', '/api/'])], []],
    ['URL prefix does not cover its stem', [URL(['get'], ['/api/*'])], [URL(['get'], ['/api'])], [URL(['get'], ['/api'])]],
    ['URL star', [URL(['*'], ['*'])], [URL(['get'], ['/anything'])], []],
    ['resource rules do not cover URLs', [R(['*'], ['*'], ['*'])], [URL(['get'], ['/x'])], [URL(['get'], ['/x'])]],
    ['URL rules do not cover resources', [URL(['*'], ['*'])], [R(['get'], [''], ['pods'])], [R(['get'], [''], ['pods'])]],
    ['nothing owned', [], [R(['get'], [''], ['pods'])], [R(['get'], [''], ['pods'])]],
    ['nothing asked', [], [], []],
  ])('%s', (_name, owner, servant, uncovered) => {
    expect(covers(owner, servant)).toEqual({ covered: uncovered.length === 0, uncovered });
  });
});

describe('compactRules and compactString', () => {
  it('merges simple one-group-one-resource rules by verb, keeps the rest', () => {
    const pieces = [R(['get'], [''], ['pods']), URL(['get'], ['/x']), R(['list'], [''], ['pods']), R(['get'], [''], ['pods'], ['n']), R(['get'], ['x'], ['pods'])];
    expect(compactRules(pieces)).toEqual([URL(['get'], ['/x']), R(['get'], [''], ['pods'], ['n']), R(['get', 'list'], [''], ['pods']), R(['get'], ['x'], ['pods'])]);
    // the input is not modified
    expect(pieces[0]).toEqual(R(['get'], [''], ['pods']));
  });

  it.each<[PolicyRule, string]>([
    [R(['get', 'list'], [''], ['pods']), '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}'],
    [R(['approve'], [groups.certificates], ['signers'], ['svc.io/x']), '{APIGroups:["certificates.svc.io"], Resources:["signers"], ResourceNames:["svc.io/x"], Verbs:["approve"]}'],
    [URL(['get'], ['/healthz']), '{NonResourceURLs:["/healthz"], Verbs:["get"]}'],
    [{ verbs: [] }, '{}'],
    [R(['get'], ['a"b'], ['x\ty']), '{APIGroups:["a\\"b"], Resources:["x\\ty"], Verbs:["get"]}'],
  ])('%j → %s', (rule, want) => {
    expect(compactString(rule)).toBe(want);
  });
});

// ---- confirmNoEscalation -----------------------------------------------------------------

const G = (name: string): Subject => ({ kind: 'Group', apiGroup: groups.rbac, name });
const U = (name: string): Subject => ({ kind: 'User', apiGroup: groups.rbac, name });

function policy(): PolicyIndex {
  const idx = new PolicyIndex();
  idx.replace('clusterroles', [
    { metadata: { name: 'pod-reader' }, rules: [R(['get', 'list', 'watch'], [''], ['pods'])] },
    { metadata: { name: 'admin-all' }, rules: [...fullAuthorityRules] },
    { metadata: { name: 'escalator' }, rules: [R(['escalate'], [groups.rbac], ['clusterroles'], ['target']), R(['escalate'], [groups.rbac], ['roles'])] },
    { metadata: { name: 'binder' }, rules: [R(['bind'], [groups.rbac], ['clusterroles'], ['pod-reader'])] },
  ]);
  idx.replace('roles', [{ metadata: { namespace: 'ns1', name: 'local' }, rules: [R(['*'], [groups.coordination], ['leases'])] }]);
  idx.replace('clusterrolebindings', [
    { metadata: { name: 'r' }, roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: 'pod-reader' }, subjects: [G('ops')] },
    { metadata: { name: 'g' }, roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: 'ghost' }, subjects: [G('broken')] },
    { metadata: { name: 'a' }, roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: 'admin-all' }, subjects: [U('root')] },
    { metadata: { name: 'e' }, roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: 'escalator' }, subjects: [U('esc')] },
    { metadata: { name: 'b' }, roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: 'binder' }, subjects: [U('binder')] },
  ]);
  idx.replace('rolebindings', [
    { metadata: { namespace: 'ns1', name: 'l' }, roleRef: { apiGroup: groups.rbac, kind: 'Role', name: 'local' }, subjects: [G('ops')] },
    { metadata: { namespace: 'ns2', name: 'b2' }, roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: 'binder' }, subjects: [U('nsbinder')] },
  ]);
  return idx;
}

const resolver = ruleResolver(policy(), { roleNotFound: 'registry' });
const alice: UserInfo = { name: 'alice', groups: ['ops', 'system:authenticated'] };

describe('confirmNoEscalation', () => {
  const head = 'user "alice" (groups=["ops" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n';

  it.each<[string, UserInfo, string, PolicyRule[], string | undefined]>([
    ['held rules pass', alice, '', [R(['get', 'watch'], [''], ['pods'])], undefined],
    ['namespace rules count in their namespace', alice, 'ns1', [R(['delete'], [groups.coordination], ['leases'])], undefined],
    ['nothing asked passes', alice, '', [], undefined],
    ['full authority covers everything', { name: 'root', groups: [] }, '', [...fullAuthorityRules], undefined],
    [
      'namespace rules do not count elsewhere',
      alice,
      'ns2',
      [R(['delete'], [groups.coordination], ['leases'])],
      `${head}{APIGroups:["coordination.svc.io"], Resources:["leases"], Verbs:["delete"]}`,
    ],
    [
      'missing pieces compacted, sorted, de-duplicated',
      alice,
      '',
      [R(['get', 'delete', 'create'], [''], ['pods', 'secrets']), URL(['get'], ['/x']), R(['delete'], [''], ['pods'])],
      `${head}{APIGroups:[""], Resources:["pods"], Verbs:["delete" "create" "delete"]}\n` +
        `{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete" "create"]}\n` +
        '{NonResourceURLs:["/x"], Verbs:["get"]}',
    ],
    [
      'named pieces are not compacted',
      alice,
      '',
      [R(['approve'], [groups.certificates], ['signers'], [signerNames.apiserverClient, signerNames.svcletServing])],
      `${head}{APIGroups:["certificates.svc.io"], Resources:["signers"], ResourceNames:["svc.io/svc-apiserver-client"], Verbs:["approve"]}\n` +
        '{APIGroups:["certificates.svc.io"], Resources:["signers"], ResourceNames:["svc.io/svclet-serving"], Verbs:["approve"]}',
    ],
    [
      'resolution errors appended',
      { name: 'bob', groups: ['broken'] },
      '',
      [R(['get'], [''], ['pods'])],
      'user "bob" (groups=["broken"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["get"]}; resolution errors: [clusterroles.rbac.authorization.svc.io "ghost" not found]',
    ],
    [
      'no groups print as []',
      { name: 'nobody', groups: [] },
      '',
      [URL(['get'], ['/healthz'])],
      'user "nobody" (groups=[]) is attempting to grant RBAC permissions not currently held:\n{NonResourceURLs:["/healthz"], Verbs:["get"]}',
    ],
  ])('%s', (_name, user, namespace, rules, want) => {
    expect(confirmNoEscalation(user, namespace, rules, resolver)).toBe(want);
  });

  it('the aggregationRule check uses full authority', () => {
    expect(confirmNoEscalation(alice, '', fullAuthorityRules, resolver)).toContain('{APIGroups:["*"], Resources:["*"], Verbs:["*"]}');
    expect(aggregationRuleNeedsClusterAdmin).toBe('must have cluster-admin privileges to use the aggregationRule');
  });
});

describe('escalationAllowed', () => {
  it.each<[string[], boolean]>([
    [['system:masters'], true],
    [['a', 'system:masters'], true],
    [['system:authenticated'], false],
    [[], false],
  ])('%j → %s', (g, want) => {
    expect(escalationAllowed({ name: 'u', groups: g })).toBe(want);
  });
});

/** Records what is asked and answers from the RBAC authorizer over the fixture. */
function spy(): Authorizer & { asked: AuthorizationAttributes[] } {
  const inner = rbacAuthorizer(policy());
  const z = {
    asked: [] as AuthorizationAttributes[],
    authorize(a: AuthorizationAttributes) {
      z.asked.push(a);
      return inner.authorize(a);
    },
  };
  return z;
}

describe('roleEscalationAuthorized', () => {
  it.each<[string, string, 'roles' | 'clusterroles', string, string, boolean]>([
    ['escalate on the named clusterrole', 'esc', 'clusterroles', '', 'target', true],
    ['not another clusterrole', 'esc', 'clusterroles', '', 'other', false],
    ['roles in any namespace', 'esc', 'roles', 'ns1', 'r', true],
    ['others may not', 'alice', 'roles', 'ns1', 'r', false],
  ])('%s', (_name, userName, resource, namespace, name, want) => {
    const z = spy();
    expect(roleEscalationAuthorized(z, { name: userName, groups: [] }, { namespace, resource, name })).toBe(want);
    expect(z.asked[0]).toEqual({
      user: { name: userName, groups: [] },
      verb: 'escalate',
      isResourceRequest: true,
      path: '',
      namespace,
      apiGroup: groups.rbac,
      apiVersion: '*',
      resource,
      subresource: '',
      name,
    });
  });
});

describe('bindingAuthorized', () => {
  const ref = (kind: string, name: string): RoleRef => ({ apiGroup: groups.rbac, kind, name });
  it.each<[string, string, string, RoleRef, boolean, string | undefined]>([
    ['bind on the named clusterrole, cluster-wide', 'binder', '', ref('ClusterRole', 'pod-reader'), true, 'clusterroles'],
    ['cluster-wide bind also works in a namespace', 'binder', 'ns1', ref('ClusterRole', 'pod-reader'), true, 'clusterroles'],
    ['not another role', 'binder', '', ref('ClusterRole', 'admin-all'), false, 'clusterroles'],
    ['namespaced bind only in its namespace', 'nsbinder', 'ns2', ref('ClusterRole', 'pod-reader'), true, 'clusterroles'],
    ['namespaced bind not cluster-wide', 'nsbinder', '', ref('ClusterRole', 'pod-reader'), false, 'clusterroles'],
    ['Role kind asks about roles', 'binder', 'ns1', ref('Role', 'pod-reader'), false, 'roles'],
    ['unknown kind is never authorized and asks nothing', 'binder', '', ref('Thing', 'pod-reader'), false, undefined],
  ])('%s', (_name, userName, ns, roleRef, want, askedResource) => {
    const z = spy();
    expect(bindingAuthorized(z, { name: userName, groups: [] }, ns, roleRef)).toBe(want);
    if (askedResource === undefined) {
      expect(z.asked).toEqual([]);
      return;
    }
    expect(z.asked[0]).toMatchObject({ verb: 'bind', namespace: ns, apiGroup: groups.rbac, apiVersion: '*', resource: askedResource, name: roleRef.name, isResourceRequest: true });
  });
});
