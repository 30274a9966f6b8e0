// Privilege-escalation prevention for writes of roles and bindings (upstream
// pkg/registry/rbac/escalation_check.go, validation/rule.go ConfirmNoEscalation,
// validation/policy_compact.go). A user may only grant what they already hold, unless they are
// system:masters, hold `escalate` on the role, or `bind` on the referenced role.
import type { PolicyRule, RoleRef } from '../../api/rbac';
import { groups } from '../../api/product';
import { goQuote } from '../../machinery/goStrconv';
import { aggregateErrorText, type Authorizer } from '../authorizer';
import { groupNames, type UserInfo } from '../user';
import { covers } from './covers';
import type { PolicyRuleResolver } from './ruleResolver';
import { compactString, goQuoteList } from './ruleString';

export { breakdownRule, covers, type CoversResult } from './covers';

/** `*` on everything: what setting an aggregationRule requires (upstream clusterrole policybased storage). */
export const fullAuthorityRules: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** Forbidden reason when a ClusterRole with an aggregationRule is written without full authority. */
export const aggregationRuleNeedsClusterAdmin = 'must have cluster-admin privileges to use the aggregationRule';

/**
 * Merges rules that differ only in verbs and name exactly one group and one resource, nothing
 * else; other rules pass unchanged (upstream CompactRules, used on the uncovered pieces).
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const key = simpleResourceKey(rule);
    if (key === undefined) {
      compacted.push(rule);
      continue;
    }
    const existing = simple.get(key);
    if (existing) existing.verbs = [...(existing.verbs ?? []), ...(rule.verbs ?? [])];
    else simple.set(key, { apiGroups: [...rule.apiGroups!], resources: [...rule.resources!], verbs: [...(rule.verbs ?? [])] });
  }
  compacted.push(...simple.values());
  return compacted;
}

/** The group/resource of a rule holding only verbs, one group and one resource. */
function simpleResourceKey(rule: PolicyRule): string | undefined {
  // Upstream compares with reflect.DeepEqual, so even an empty (non-nil) list makes a rule complex.
  if (rule.resourceNames !== undefined || rule.nonResourceURLs !== undefined) return undefined;
  if (rule.apiGroups?.length !== 1 || rule.resources?.length !== 1) return undefined;
  return `${rule.apiGroups[0]}\u0000${rule.resources[0]}`;
}

/**
 * Undefined when the user's rules in the namespace cover `rules`; otherwise upstream's message:
 * `user "alice" (groups=["a" "b"]) is attempting to grant RBAC permissions not currently held:`
 * then one compact rule per line (sorted, de-duplicated), then `; resolution errors: [...]` when
 * some of the user's roles could not be resolved. The caller wraps it in a 403 for the object.
 */
export function confirmNoEscalation(
  user: UserInfo,
  namespace: string,
  rules: readonly PolicyRule[],
  resolver: Pick<PolicyRuleResolver, 'policyRulesFor'>,
): string | undefined {
  const owned = resolver.policyRulesFor(user, namespace);
  const result = covers(owned.rules, rules);
  if (result.covered) return undefined;
  const missing = [...new Set(compactRules(result.uncovered).map(compactString))].sort(byteOrder);
  let msg = `user ${goQuote(user.name)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${missing.join('\n')}`;
  const err = aggregateErrorText(owned.errors.map((e) => e.message));
  if (err !== undefined) msg += `; resolution errors: [${err}]`;
  return msg;
}

/** Go's sort.Strings order (bytes of UTF-8; equal to code-unit order outside surrogates). */
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Members of system:masters may always write any role or binding (upstream EscalationAllowed). */
export function escalationAllowed(user: UserInfo): boolean {
  return user.groups.includes(groupNames.masters);
}

export interface RoleTarget {
  namespace: string;
  resource: 'roles' | 'clusterroles';
  name: string;
}

/** Is the user allowed the `escalate` verb on this role (upstream RoleEscalationAuthorized)? */
export function roleEscalationAuthorized(authorizer: Authorizer, user: UserInfo, target: RoleTarget): boolean {
  return (
    authorizer.authorize({
      user,
      verb: 'escalate',
      isResourceRequest: true,
      path: '',
      namespace: target.namespace,
      apiGroup: groups.rbac,
      apiVersion: '*',
      resource: target.resource,
      subresource: '',
      name: target.name,
    }).decision === 'allow'
  );
}

/**
 * Is the user allowed `bind` on the role the binding references, in the binding's namespace
 * ('' for a ClusterRoleBinding)? Unknown roleRef kinds are never authorized (upstream BindingAuthorized).
 */
export function bindingAuthorized(authorizer: Authorizer, user: UserInfo, bindingNamespace: string, roleRef: RoleRef): boolean {
  let resource: string;
  if (roleRef.kind === 'ClusterRole') resource = 'clusterroles';
  else if (roleRef.kind === 'Role') resource = 'roles';
  else return false;
  return (
    authorizer.authorize({
      user,
      verb: 'bind',
      isResourceRequest: true,
      path: '',
      namespace: bindingNamespace,
      apiGroup: roleRef.apiGroup ?? '',
      apiVersion: '*',
      resource,
      subresource: '',
      name: roleRef.name ?? '',
    }).decision === 'allow'
  );
}
