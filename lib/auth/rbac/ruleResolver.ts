// Finds the rules that apply to a user in a namespace: every ClusterRoleBinding, then the
// RoleBindings of that namespace, each resolved to its role's rules (upstream
// pkg/registry/rbac/validation/rule.go DefaultRuleResolver). A missing role is an error that is
// reported alongside the rules found; evaluation goes on, since rules only ever add permissions.
import type { ClusterRoleBinding, PolicyRule, RoleBinding, RoleRef } from '../../api/rbac';
import { groups } from '../../api/product';
import { errors } from '../../machinery/errors';
import { goQuote } from '../../machinery/goStrconv';
import type { UserInfo } from '../user';
import type { PolicySource } from './policySource';
import { describeSubject, firstApplyingSubject } from './subjects';

/** Where a rule came from; described only when needed (the text is cached per binding object). */
export interface RuleSource {
  describe(): string;
}

/** Return false to stop visiting. `rule` is absent when `err` reports a resolution failure. */
export type RuleVisitor = (source: RuleSource | undefined, rule: PolicyRule | undefined, err: Error | undefined) => boolean;

export type RoleReferenceRules = { ok: true; rules: readonly PolicyRule[] } | { ok: false; error: Error };

/** The rules of a user in a namespace, for escalation checks (upstream AuthorizationRuleResolver). */
export interface PolicyRuleResolver {
  visitRulesFor(user: UserInfo, namespace: string, visitor: RuleVisitor): void;
  /** Every applying rule and every resolution error; the rules are valid even when errors exist. */
  policyRulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: Error[] };
  /** The rules a binding's roleRef points at; bindingNamespace is '' for ClusterRoleBindings. */
  roleReferenceRules(roleRef: RoleRef, bindingNamespace: string): RoleReferenceRules;
}

/**
 * How a missing role is named in errors. The authorizer reads listers, whose NotFound names the
 * singular resource (`clusterrole.rbac… "x" not found`); the escalation checks of the RBAC
 * storage read the registry, whose NotFound names the plural (`clusterroles.rbac… "x" not found`).
 */
export type RoleNotFoundStyle = 'lister' | 'registry';

export interface RuleResolverOptions {
  roleNotFound?: RoleNotFoundStyle;
}

export function ruleResolver(source: PolicySource, options: RuleResolverOptions = {}): PolicyRuleResolver {
  const plural = options.roleNotFound === 'registry';
  const clusterRoleGR = { group: groups.rbac, resource: plural ? 'clusterroles' : 'clusterrole' };
  const roleGR = { group: groups.rbac, resource: plural ? 'roles' : 'role' };

  function roleReferenceRules(roleRef: RoleRef, bindingNamespace: string): RoleReferenceRules {
    const name = roleRef.name ?? '';
    switch (roleRef.kind) {
      case 'Role': {
        const role = source.getRole(bindingNamespace, name);
        return role ? { ok: true, rules: role.rules ?? [] } : { ok: false, error: errors.notFound(roleGR, name) };
      }
      case 'ClusterRole': {
        const role = source.getClusterRole(name);
        return role ? { ok: true, rules: role.rules ?? [] } : { ok: false, error: errors.notFound(clusterRoleGR, name) };
      }
      default:
        return { ok: false, error: new Error(`unsupported role reference kind: ${goQuote(roleRef.kind ?? '')}`) };
    }
  }

  function visitRulesFor(user: UserInfo, namespace: string, visitor: RuleVisitor): void {
    for (const b of source.clusterRoleBindings()) {
      const i = firstApplyingSubject(user, b.subjects, '');
      if (i < 0) continue;
      const got = roleReferenceRules(b.roleRef ?? {}, '');
      if (!got.ok) {
        if (!visitor(undefined, undefined, got.error)) return;
        continue;
      }
      const src = bindingSource(b, i, '');
      for (const rule of got.rules) if (!visitor(src, rule, undefined)) return;
    }
    if (!namespace) return;
    for (const b of source.roleBindings(namespace)) {
      const i = firstApplyingSubject(user, b.subjects, namespace);
      if (i < 0) continue;
      const got = roleReferenceRules(b.roleRef ?? {}, namespace);
      if (!got.ok) {
        if (!visitor(undefined, undefined, got.error)) return;
        continue;
      }
      const src = bindingSource(b, i, namespace);
      for (const rule of got.rules) if (!visitor(src, rule, undefined)) return;
    }
  }

  return {
    visitRulesFor,
    roleReferenceRules,
    policyRulesFor(user, namespace) {
      const rules: PolicyRule[] = [];
      const errs: Error[] = [];
      visitRulesFor(user, namespace, (_src, rule, err) => {
        if (rule) rules.push(rule);
        if (err) errs.push(err);
        return true;
      });
      return { rules, errors: errs };
    },
  };
}

type AnyBinding = ClusterRoleBinding | RoleBinding;

// Bindings are immutable once indexed (a change replaces the object), so their descriptions can
// be cached by identity and the allow path builds no strings.
const descriptions = new WeakMap<AnyBinding, string[]>();

function bindingSource(binding: AnyBinding, subjectIndex: number, bindingNamespace: string): RuleSource {
  return {
    describe() {
      let cached = descriptions.get(binding);
      if (!cached) descriptions.set(binding, (cached = []));
      return (cached[subjectIndex] ??= describeBinding(binding, subjectIndex, bindingNamespace));
    },
  };
}

/**
 * `ClusterRoleBinding "b" of ClusterRole "r" to Group "g"`, or for a RoleBinding
 * `RoleBinding "b/ns" of Role "r" to User "u"` (upstream's binding describers).
 */
export function describeBinding(binding: AnyBinding, subjectIndex: number, bindingNamespace: string): string {
  const ref = binding.roleRef ?? {};
  const name = binding.metadata?.name ?? '';
  const subject = describeSubject(binding.subjects?.[subjectIndex] ?? {}, bindingNamespace);
  const head = bindingNamespace ? `RoleBinding ${goQuote(`${name}/${bindingNamespace}`)}` : `ClusterRoleBinding ${goQuote(name)}`;
  return `${head} of ${ref.kind ?? ''} ${goQuote(ref.name ?? '')} to ${subject}`;
}
