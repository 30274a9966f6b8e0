import { groups, rbacPolicyKeys } from '../../api/product';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Subject } from '../../api/rbac';
import { deepCopy } from '../../machinery/deepCopy';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from './bootstrapPolicy';
import { reconcileClusterRole, reconcileClusterRoleBinding, reconcileRole, reconcileRoleBinding } from './reconcile';

const auto = rbacPolicyKeys.autoupdateAnnotation;
const boot = rbacPolicyKeys.bootstrappingLabel;
const R = (verbs: string[], resources: string[]): PolicyRule => ({ verbs, apiGroups: [''], resources });

const desiredRole: ClusterRole = {
  metadata: { name: 'r', labels: { [boot]: 'rbac-defaults' }, annotations: { [auto]: 'true' } },
  rules: [R(['get', 'list'], ['pods'])],
};
const withMeta = (role: ClusterRole, meta: Partial<NonNullable<ClusterRole['metadata']>>): ClusterRole => ({
  ...role,
  metadata: { ...role.metadata, ...meta },
});

describe('reconcileClusterRole', () => {
  it.each<[string, ClusterRole | undefined, ClusterRole, 'create' | 'update' | 'none', ClusterRole | 'existing', PolicyRule[], boolean]>([
    ['absent → create the desired role', undefined, desiredRole, 'create', desiredRole, [R(['get', 'list'], ['pods'])], false],
    ['equal → nothing', desiredRole, desiredRole, 'none', 'existing', [], false],
    [
      'missing verb → append the missing piece, keep extra rules',
      { ...desiredRole, rules: [R(['get'], ['pods']), R(['*'], ['secrets'])] },
      desiredRole,
      'update',
      { ...desiredRole, rules: [R(['get'], ['pods']), R(['*'], ['secrets']), R(['list'], ['pods'])] },
      [R(['list'], ['pods'])],
      false,
    ],
    ['broader existing rule covers the default → nothing', { ...desiredRole, rules: [R(['*'], ['*'])] }, desiredRole, 'none', 'existing', [], false],
    [
      'missing label and annotation are added; existing values win',
      { metadata: { name: 'r', labels: { mine: '1' }, annotations: { note: 'x' } }, rules: desiredRole.rules },
      desiredRole,
      'update',
      {
        metadata: { name: 'r', labels: { [boot]: 'rbac-defaults', mine: '1' }, annotations: { [auto]: 'true', note: 'x' } },
        rules: desiredRole.rules,
      },
      [],
      false,
    ],
    [
      'labels absent entirely',
      { metadata: { name: 'r' }, rules: desiredRole.rules },
      desiredRole,
      'update',
      { metadata: { name: 'r', labels: { [boot]: 'rbac-defaults' }, annotations: { [auto]: 'true' } }, rules: desiredRole.rules },
      [],
      false,
    ],
    [
      'autoupdate "false" → left alone, missing rules still reported',
      withMeta({ ...desiredRole, rules: [] }, { annotations: { [auto]: 'false' } }),
      desiredRole,
      'none',
      'existing',
      [R(['get'], ['pods']), R(['list'], ['pods'])],
      true,
    ],
    [
      'autoupdate "true" kept as is',
      withMeta(desiredRole, { annotations: { [auto]: 'true', other: 'y' } }),
      desiredRole,
      'none',
      'existing',
      [],
      false,
    ],
  ])('%s', (_name, existing, desired, action, object, missingRules, prot) => {
    const before = deepCopy(existing);
    const got = reconcileClusterRole(existing, desired);
    expect(got.action).toBe(action);
    expect(got.object).toEqual(object === 'existing' ? existing : object);
    expect(got.missingRules).toEqual(missingRules);
    expect(got.protected).toBe(prot);
    // inputs are never modified
    expect(existing).toEqual(before);
    if (action !== 'none') expect(got.object).not.toBe(existing);
  });

  describe('aggregated roles', () => {
    const sel = (v: string) => ({ matchLabels: { [v]: 'true' } });
    const desired: ClusterRole = { ...deepCopy(desiredRole), rules: undefined, aggregationRule: { clusterRoleSelectors: [sel('a')] } };

    it('aggregated rules already present are kept, not removed', () => {
      const existing: ClusterRole = { ...deepCopy(desired), rules: [R(['get'], ['pods'])] };
      expect(reconcileClusterRole(existing, desired)).toEqual({ action: 'none', object: existing, protected: false, missingRules: [] });
    });

    it('missing selectors are appended', () => {
      const existing: ClusterRole = { ...deepCopy(desired), aggregationRule: { clusterRoleSelectors: [sel('mine')] } };
      const got = reconcileClusterRole(existing, desired);
      expect(got.action).toBe('update');
      expect(got.object.aggregationRule).toEqual({ clusterRoleSelectors: [sel('mine'), sel('a')] });
    });

    it('selectors compare semantically (empty lists are absent)', () => {
      const existing: ClusterRole = { ...deepCopy(desired), aggregationRule: { clusterRoleSelectors: [{ ...sel('a'), matchExpressions: [] }] } };
      expect(reconcileClusterRole(existing, desired).action).toBe('none');
    });

    it('an aggregationRule the default does not have is dropped', () => {
      const existing: ClusterRole = { ...deepCopy(desiredRole), aggregationRule: { clusterRoleSelectors: [sel('x')] } };
      const got = reconcileClusterRole(existing, desiredRole);
      expect(got.action).toBe('update');
      expect(got.object.aggregationRule).toBeUndefined();
      expect(got.object.rules).toEqual(desiredRole.rules);
    });
  });

  it('namespaced Roles reconcile the same way', () => {
    const got = reconcileRole({ metadata: { namespace: 'ns', name: 'r' }, rules: [] }, { metadata: { namespace: 'ns', name: 'r' }, rules: [R(['get'], ['pods'])] });
    expect(got.action).toBe('update');
    expect(got.object).toEqual({ metadata: { namespace: 'ns', name: 'r' }, rules: [R(['get'], ['pods'])] });
  });

  it('every bootstrap role reconciles to nothing against itself', () => {
    for (const r of bootstrapClusterRoles()) expect(reconcileClusterRole(deepCopy(r), r).action).toBe('none');
  });
});

const G = (name: string): Subject => ({ kind: 'Group', apiGroup: groups.rbac, name });
const desiredBinding: ClusterRoleBinding = {
  metadata: { name: 'b', labels: { [boot]: 'rbac-defaults' }, annotations: { [auto]: 'true' } },
  roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: 'r' },
  subjects: [G('a'), G('b')],
};

describe('reconcileClusterRoleBinding', () => {
  it.each<[string, ClusterRoleBinding | undefined, 'create' | 'update' | 'recreate' | 'none', ClusterRoleBinding | 'existing', Subject[], boolean]>([
    ['absent → create', undefined, 'create', desiredBinding, [G('a'), G('b')], false],
    ['equal → nothing', desiredBinding, 'none', 'existing', [], false],
    [
      'missing subject appended, extra kept',
      { ...desiredBinding, subjects: [G('x'), G('b')] },
      'update',
      { ...desiredBinding, subjects: [G('x'), G('b'), G('a')] },
      [G('a')],
      false,
    ],
    [
      'subjects compare all four fields',
      { ...desiredBinding, subjects: [{ ...G('a'), namespace: 'n' }, G('b')] },
      'update',
      { ...desiredBinding, subjects: [{ ...G('a'), namespace: 'n' }, G('b'), G('a')] },
      [G('a')],
      false,
    ],
    [
      'different roleRef → recreate with the default',
      { ...desiredBinding, roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: 'other' }, subjects: [G('z')] },
      'recreate',
      desiredBinding,
      [G('a'), G('b')],
      false,
    ],
    [
      'different roleRef but autoupdate "false" → nothing',
      { ...desiredBinding, metadata: { name: 'b', annotations: { [auto]: 'false' } }, roleRef: { apiGroup: groups.rbac, kind: 'Role', name: 'r' } },
      'none',
      'existing',
      [],
      true,
    ],
    [
      'autoupdate "false" → subjects not added',
      { ...desiredBinding, metadata: { name: 'b', annotations: { [auto]: 'false' } }, subjects: [] },
      'none',
      'existing',
      [G('a'), G('b')],
      true,
    ],
    [
      'missing metadata merged',
      { ...desiredBinding, metadata: { name: 'b' } },
      'update',
      desiredBinding,
      [],
      false,
    ],
  ])('%s', (_name, existing, action, object, missingSubjects, prot) => {
    const before = deepCopy(existing);
    const got = reconcileClusterRoleBinding(existing, desiredBinding);
    expect(got.action).toBe(action);
    expect(got.object).toEqual(object === 'existing' ? existing : object);
    expect(got.missingSubjects).toEqual(missingSubjects);
    expect(got.protected).toBe(prot);
    expect(existing).toEqual(before);
  });

  it('duplicate default subjects are added once', () => {
    const got = reconcileRoleBinding({ ...desiredBinding, subjects: [] }, { ...desiredBinding, subjects: [G('a'), G('a')] });
    expect(got.object.subjects).toEqual([G('a')]);
  });

  it('every bootstrap binding reconciles to nothing against itself', () => {
    for (const b of bootstrapClusterRoleBindings()) expect(reconcileClusterRoleBinding(deepCopy(b), b).action).toBe('none');
  });
});
