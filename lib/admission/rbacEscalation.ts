// RBAC escalation prevention (upstream's policy-based RBAC storage): a role may only hold rules
// its writer holds, and a binding may only grant a role whose rules its writer holds — unless the
// writer is system:masters, has `escalate` on the role, or `bind` on the referenced role.
// A ClusterRole with an aggregationRule needs full authority.
import type { ClusterRole, PolicyRule, Role, RoleBinding } from '../api';
import { groups } from '../api';
import type { Authorizer } from '../auth/authorizer';
import {
  aggregationRuleNeedsClusterAdmin,
  bindingAuthorized,
  confirmNoEscalation,
  escalationAllowed,
  fullAuthorityRules,
  roleEscalationAuthorized,
  type PolicyRuleResolver,
} from '../auth/rbac';
import { deepEqual } from '../machinery/deepEqual';
import { errors } from '../machinery/errors';
import type { AdmissionAttributes, ValidatingPlugin } from './attributes';

const roleResources = new Set(['roles', 'clusterroles']);
const bindingResources = new Set(['rolebindings', 'clusterrolebindings']);

/** Updates that touch only what garbage collection needs (finalizers, ownerReferences) are let through, as upstream. */
function onlyGCFieldsChange(a: AdmissionAttributes): boolean {
  if (!a.old) return false;
  const strip = (o: object): object => {
    const { metadata, ...rest } = o as { metadata?: Record<string, unknown> };
    const m = { ...(metadata ?? {}) };
    for (const k of ['finalizers', 'ownerReferences', 'resourceVersion', 'managedFields', 'generation']) delete m[k];
    return { ...rest, metadata: m };
  };
  return deepEqual(strip(a.obj), strip(a.old));
}

export function rbacEscalation(authorizer: Authorizer, resolver: Pick<PolicyRuleResolver, 'policyRulesFor' | 'roleReferenceRules'>): ValidatingPlugin {
  const refuse = (a: AdmissionAttributes, reason: string): never => {
    throw errors.forbidden(a.resource, a.name, reason);
  };
  const confirm = (a: AdmissionAttributes, namespace: string, rules: readonly PolicyRule[]): void => {
    const msg = confirmNoEscalation(a.user, namespace, rules, resolver);
    if (msg !== undefined) refuse(a, msg);
  };

  return (a) => {
    if (a.operation === 'DELETE' || a.resource.group !== groups.rbac || a.subresource) return;
    if (escalationAllowed(a.user)) return;
    if (a.operation === 'UPDATE' && onlyGCFieldsChange(a)) return;

    if (roleResources.has(a.resource.resource)) {
      const target = { namespace: a.namespace, resource: a.resource.resource as 'roles' | 'clusterroles', name: a.name };
      if (roleEscalationAuthorized(authorizer, a.user, target)) return;
      const role = a.obj as Role | ClusterRole;
      confirm(a, a.namespace, role.rules ?? []);
      // An aggregationRule can gather anything, so setting one takes * on everything.
      if (a.resource.resource === 'clusterroles' && (role as ClusterRole).aggregationRule) {
        if (confirmNoEscalation(a.user, '', fullAuthorityRules, resolver) !== undefined) refuse(a, aggregationRuleNeedsClusterAdmin);
      }
      return;
    }

    if (bindingResources.has(a.resource.resource)) {
      const binding = a.obj as RoleBinding;
      const roleRef = binding.roleRef ?? {};
      if (bindingAuthorized(authorizer, a.user, a.namespace, roleRef)) return;
      const rules = resolver.roleReferenceRules(roleRef, a.namespace);
      if (!rules.ok) refuse(a, rules.error.message);
      else confirm(a, a.namespace, rules.rules);
    }
  };
}
