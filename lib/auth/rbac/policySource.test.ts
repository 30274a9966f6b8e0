import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../../api/rbac';
import { PolicyIndex } from './policySource';

const cr = (name: string, verb = 'get'): ClusterRole => ({ metadata: { name }, rules: [{ verbs: [verb] }] });
const role = (namespace: string, name: string): Role => ({ metadata: { namespace, name }, rules: [] });
const crb = (name: string): ClusterRoleBinding => ({ metadata: { name }, roleRef: { apiGroup: 'g', kind: 'ClusterRole', name } });
const rb = (namespace: string, name: string): RoleBinding => ({ metadata: { namespace, name }, roleRef: { apiGroup: 'g', kind: 'Role', name } });

const names = (it: Iterable<{ metadata?: { name?: string } }>): string[] => [...it].map((o) => o.metadata?.name ?? '');

describe('PolicyIndex', () => {
  it('starts empty and not ready', () => {
    const idx = new PolicyIndex();
    expect(idx.ready).toEqual({ roles: false, clusterroles: false, rolebindings: false, clusterrolebindings: false });
    expect(idx.allReady()).toBe(false);
    expect(names(idx.clusterRoles())).toEqual([]);
    expect(names(idx.roleBindings('ns'))).toEqual([]);
    expect(idx.getClusterRole('x')).toBeUndefined();
    expect(idx.getRole('ns', 'x')).toBeUndefined();
  });

  it('replace loads a resource and marks only it ready', () => {
    const idx = new PolicyIndex();
    idx.replace('clusterroles', [cr('a'), cr('b')]);
    expect(idx.ready.clusterroles).toBe(true);
    expect(idx.ready.roles).toBe(false);
    expect(names(idx.clusterRoles())).toEqual(['a', 'b']);
    idx.replace('roles', []);
    idx.replace('rolebindings', []);
    idx.replace('clusterrolebindings', []);
    expect(idx.allReady()).toBe(true);
  });

  it('replace drops objects missing from the new list', () => {
    const idx = new PolicyIndex();
    idx.replace('roles', [role('ns1', 'a'), role('ns2', 'b')]);
    idx.replace('roles', [role('ns2', 'c')]);
    expect(idx.getRole('ns1', 'a')).toBeUndefined();
    expect(idx.getRole('ns2', 'b')).toBeUndefined();
    expect(idx.getRole('ns2', 'c')?.metadata?.name).toBe('c');
  });

  it('upsert adds and replaces, remove deletes', () => {
    const idx = new PolicyIndex();
    idx.upsert('clusterroles', cr('a', 'get'));
    idx.upsert('clusterroles', cr('a', 'list'));
    expect(idx.getClusterRole('a')?.rules).toEqual([{ verbs: ['list'] }]);
    idx.remove('clusterroles', cr('a'));
    expect(idx.getClusterRole('a')).toBeUndefined();
    // removing the unknown is harmless
    idx.remove('clusterroles', cr('zzz'));
    idx.remove('roles', role('nowhere', 'x'));
  });

  it('keeps namespaced objects apart by namespace', () => {
    const idx = new PolicyIndex();
    idx.replace('rolebindings', [rb('ns1', 'x'), rb('ns1', 'y'), rb('ns2', 'x')]);
    expect(names(idx.roleBindings('ns1'))).toEqual(['x', 'y']);
    expect(names(idx.roleBindings('ns2'))).toEqual(['x']);
    expect(names(idx.roleBindings(''))).toEqual([]);
    idx.remove('rolebindings', rb('ns1', 'x'));
    expect(names(idx.roleBindings('ns1'))).toEqual(['y']);
    idx.remove('rolebindings', rb('ns1', 'y'));
    expect(names(idx.roleBindings('ns1'))).toEqual([]);
    idx.upsert('roles', role('ns1', 'r'));
    expect(idx.getRole('ns1', 'r')?.metadata?.name).toBe('r');
    expect(idx.getRole('ns2', 'r')).toBeUndefined();
    expect(names(idx.roles('ns1'))).toEqual(['r']);
  });

  it('cluster role bindings by name', () => {
    const idx = new PolicyIndex();
    idx.replace('clusterrolebindings', [crb('a')]);
    idx.upsert('clusterrolebindings', crb('b'));
    expect(names(idx.clusterRoleBindings())).toEqual(['a', 'b']);
    idx.remove('clusterrolebindings', crb('a'));
    expect(names(idx.clusterRoleBindings())).toEqual(['b']);
  });
});
