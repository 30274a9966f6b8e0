import { groups } from '../../api/product';
import type { PolicyRule, RoleRef } from '../../api/rbac';
import { isApiError } from '../../machinery/errors';
import { PolicyIndex } from './policySource';
import { describeBinding, ruleResolver } from './ruleResolver';

const rule = (verb: string): PolicyRule => ({ verbs: [verb], apiGroups: [''], resources: ['pods'] });

function index(): PolicyIndex {
  const idx = new PolicyIndex();
  idx.replace('clusterroles', [{ metadata: { name: 'c' }, rules: [rule('get'), rule('list')] }]);
  idx.replace('roles', [{ metadata: { namespace: 'ns1', name: 'r' }, rules: [rule('delete')] }]);
  idx.replace('clusterrolebindings', [
    { metadata: { name: 'b1' }, roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: 'c' }, subjects: [{ kind: 'User', name: 'u' }] },
    { metadata: { name: 'b2' }, roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: 'missing' }, subjects: [{ kind: 'User', name: 'u' }] },
  ]);
  idx.replace('rolebindings', [
    { metadata: { namespace: 'ns1', name: 'rb' }, roleRef: { apiGroup: groups.rbac, kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: 'u' }] },
  ]);
  return idx;
}

describe('roleReferenceRules', () => {
  const ref = (kind: string, name: string): RoleRef => ({ apiGroup: groups.rbac, kind, name });
  it.each<[string, 'lister' | 'registry', RoleRef, string, PolicyRule[] | string]>([
    ['ClusterRole', 'lister', ref('ClusterRole', 'c'), '', [rule('get'), rule('list')]],
    ['Role in the binding namespace', 'lister', ref('Role', 'r'), 'ns1', [rule('delete')]],
    ['Role elsewhere is missing (lister)', 'lister', ref('Role', 'r'), 'ns2', 'role.rbac.authorization.svc.io "r" not found'],
    ['Role elsewhere is missing (registry)', 'registry', ref('Role', 'r'), 'ns2', 'roles.rbac.authorization.svc.io "r" not found'],
    ['missing ClusterRole (lister)', 'lister', ref('ClusterRole', 'x'), '', 'clusterrole.rbac.authorization.svc.io "x" not found'],
    ['missing ClusterRole (registry)', 'registry', ref('ClusterRole', 'x'), '', 'clusterroles.rbac.authorization.svc.io "x" not found'],
    ['unsupported kind', 'lister', ref('Other', 'x'), '', 'unsupported role reference kind: "Other"'],
  ])('%s', (_name, style, roleRef, ns, want) => {
    const got = ruleResolver(index(), { roleNotFound: style }).roleReferenceRules(roleRef, ns);
    if (typeof want === 'string') {
      expect(got.ok).toBe(false);
      if (!got.ok) expect(got.error.message).toBe(want);
    } else expect(got).toEqual({ ok: true, rules: want });
  });

  it('missing roles are NotFound API errors (a 404 when returned to a client)', () => {
    const got = ruleResolver(index()).roleReferenceRules(ref('ClusterRole', 'x'), '');
    expect(!got.ok && isApiError(got.error) && got.error.code).toBe(404);
  });
});

describe('visitRulesFor and policyRulesFor', () => {
  it('visits cluster bindings, then the namespace bindings, reporting errors in place', () => {
    const seen: string[] = [];
    ruleResolver(index()).visitRulesFor({ name: 'u', groups: [] }, 'ns1', (src, r, err) => {
      seen.push(err ? `error: ${err.message}` : `${r?.verbs?.[0]} from ${src?.describe()}`);
      return true;
    });
    expect(seen).toEqual([
      'get from ClusterRoleBinding "b1" of ClusterRole "c" to User "u"',
      'list from ClusterRoleBinding "b1" of ClusterRole "c" to User "u"',
      'error: clusterrole.rbac.authorization.svc.io "missing" not found',
      'delete from RoleBinding "rb/ns1" of Role "r" to User "u"',
    ]);
  });

  it('stops when the visitor says so', () => {
    let n = 0;
    ruleResolver(index()).visitRulesFor({ name: 'u', groups: [] }, 'ns1', () => ++n < 2);
    expect(n).toBe(2);
  });

  it('without a namespace only cluster bindings count', () => {
    const got = ruleResolver(index()).policyRulesFor({ name: 'u', groups: [] }, '');
    expect(got.rules).toEqual([rule('get'), rule('list')]);
    expect(got.errors.map((e) => e.message)).toEqual(['clusterrole.rbac.authorization.svc.io "missing" not found']);
  });
});

describe('describeBinding', () => {
  it('quotes as Go does', () => {
    expect(
      describeBinding({ metadata: { name: 'a"b' }, roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: 'r' }, subjects: [{ kind: 'Group', name: 'g' }] }, 0, ''),
    ).toBe('ClusterRoleBinding "a\\"b" of ClusterRole "r" to Group "g"');
  });
});
