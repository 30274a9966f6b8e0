// Public surface of lib/auth/rbac: the RBAC authorizer and rule resolver, the policy index fed
// from watch events, escalation checks, aggregation, the bootstrap policy and its reconciliation.
export { aggregatedRules, labelSelectorFromWire, needsUpdate } from './aggregation';
export { rbacAuthorizer } from './authorizer';
export type { RbacAuthorizer } from './authorizer';
export { bootstrapClusterRoleBindings, bootstrapClusterRoles, bootstrapRoleNames, monitoringGroup } from './bootstrapPolicy';
export { breakdownRule, covers, ruleCovers } from './covers';
export type { CoversResult } from './covers';
export {
  aggregationRuleNeedsClusterAdmin,
  bindingAuthorized,
  compactRules,
  confirmNoEscalation,
  escalationAllowed,
  fullAuthorityRules,
  roleEscalationAuthorized,
} from './escalation';
export type { RoleTarget } from './escalation';
export { PolicyIndex } from './policySource';
export type { PolicyObjects, PolicyResource, PolicySource } from './policySource';
export { reconcileClusterRole, reconcileClusterRoleBinding, reconcileRole, reconcileRoleBinding } from './reconcile';
export type { BindingReconcileResult, RoleReconcileResult } from './reconcile';
export { describeBinding, ruleResolver } from './ruleResolver';
export type { PolicyRuleResolver, RoleNotFoundStyle, RoleReferenceRules, RuleResolverOptions, RuleSource, RuleVisitor } from './ruleResolver';
export {
  apiGroupMatches,
  nonResourceURLMatches,
  requestMatcher,
  resourceMatches,
  resourceNameMatches,
  ruleAllows,
  rulesAllow,
  verbMatches,
} from './rules';
export { compactString } from './ruleString';
export { appliesToUser, describeSubject } from './subjects';
