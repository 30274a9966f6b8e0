// Where the RBAC authorizer reads policy from: an in-memory index the server keeps current from
// watch events on the four RBAC resources (upstream: the informers' listers).
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../../api/rbac';

export interface PolicySource {
  getClusterRole(name: string): ClusterRole | undefined;
  getRole(namespace: string, name: string): Role | undefined;
  clusterRoleBindings(): Iterable<ClusterRoleBinding>;
  roleBindings(namespace: string): Iterable<RoleBinding>;
  clusterRoles(): Iterable<ClusterRole>;
}

export type PolicyResource = 'roles' | 'clusterroles' | 'rolebindings' | 'clusterrolebindings';

export interface PolicyObjects {
  roles: Role;
  clusterroles: ClusterRole;
  rolebindings: RoleBinding;
  clusterrolebindings: ClusterRoleBinding;
}

type Named = { metadata?: { name?: string; namespace?: string } };

const none: readonly never[] = [];

/**
 * Maps by name, and by namespace then name for the namespaced kinds, so a lookup is O(1) and a
 * namespace's bindings are one map. Objects are kept as given: callers must not mutate them
 * afterwards (the authorizer caches per-object text).
 */
export class PolicyIndex implements PolicySource {
  private readonly clusterRoleMap = new Map<string, ClusterRole>();
  private readonly clusterRoleBindingMap = new Map<string, ClusterRoleBinding>();
  private readonly roleMap = new Map<string, Map<string, Role>>();
  private readonly roleBindingMap = new Map<string, Map<string, RoleBinding>>();
  private readonly readyFlags: Record<PolicyResource, boolean> = {
    roles: false,
    clusterroles: false,
    rolebindings: false,
    clusterrolebindings: false,
  };

  /** Per resource: true once a full list has been loaded with replace(). */
  get ready(): Readonly<Record<PolicyResource, boolean>> {
    return this.readyFlags;
  }

  /** True when all four resources are loaded. */
  allReady(): boolean {
    return this.readyFlags.roles && this.readyFlags.clusterroles && this.readyFlags.rolebindings && this.readyFlags.clusterrolebindings;
  }

  getClusterRole(name: string): ClusterRole | undefined {
    return this.clusterRoleMap.get(name);
  }

  getRole(namespace: string, name: string): Role | undefined {
    return this.roleMap.get(namespace)?.get(name);
  }

  clusterRoleBindings(): Iterable<ClusterRoleBinding> {
    return this.clusterRoleBindingMap.values();
  }

  roleBindings(namespace: string): Iterable<RoleBinding> {
    return this.roleBindingMap.get(namespace)?.values() ?? none;
  }

  clusterRoles(): Iterable<ClusterRole> {
    return this.clusterRoleMap.values();
  }

  roles(namespace: string): Iterable<Role> {
    return this.roleMap.get(namespace)?.values() ?? none;
  }

  /** Replaces everything of one resource (a relist) and marks it ready. */
  replace<R extends PolicyResource>(resource: R, objects: Iterable<PolicyObjects[R]>): void {
    this.clear(resource);
    for (const o of objects) this.upsert(resource, o);
    this.readyFlags[resource] = true;
  }

  /** Adds or replaces one object (ADDED / MODIFIED). */
  upsert<R extends PolicyResource>(resource: R, obj: PolicyObjects[R]): void {
    const { namespace, name } = keyOf(obj);
    switch (resource) {
      case 'clusterroles':
        this.clusterRoleMap.set(name, obj as ClusterRole);
        break;
      case 'clusterrolebindings':
        this.clusterRoleBindingMap.set(name, obj as ClusterRoleBinding);
        break;
      case 'roles':
        inner(this.roleMap, namespace).set(name, obj as Role);
        break;
      case 'rolebindings':
        inner(this.roleBindingMap, namespace).set(name, obj as RoleBinding);
        break;
    }
  }

  /** Removes one object (DELETED); unknown objects are ignored. */
  remove<R extends PolicyResource>(resource: R, obj: PolicyObjects[R]): void {
    const { namespace, name } = keyOf(obj);
    switch (resource) {
      case 'clusterroles':
        this.clusterRoleMap.delete(name);
        break;
      case 'clusterrolebindings':
        this.clusterRoleBindingMap.delete(name);
        break;
      case 'roles':
        removeInner(this.roleMap, namespace, name);
        break;
      case 'rolebindings':
        removeInner(this.roleBindingMap, namespace, name);
        break;
    }
  }

  private clear(resource: PolicyResource): void {
    switch (resource) {
      case 'clusterroles':
        return this.clusterRoleMap.clear();
      case 'clusterrolebindings':
        return this.clusterRoleBindingMap.clear();
      case 'roles':
        return this.roleMap.clear();
      case 'rolebindings':
        return this.roleBindingMap.clear();
    }
  }
}

function keyOf(obj: Named): { namespace: string; name: string } {
  return { namespace: obj.metadata?.namespace ?? '', name: obj.metadata?.name ?? '' };
}

function inner<T>(outer: Map<string, Map<string, T>>, namespace: string): Map<string, T> {
  let m = outer.get(namespace);
  if (!m) outer.set(namespace, (m = new Map()));
  return m;
}

function removeInner<T>(outer: Map<string, Map<string, T>>, namespace: string, name: string): void {
  const m = outer.get(namespace);
  if (!m) return;
  m.delete(name);
  // Drop empty namespaces so deleted namespaces do not leave maps behind.
  if (m.size === 0) outer.delete(namespace);
}
