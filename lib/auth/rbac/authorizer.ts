// The RBAC authorizer (upstream plugin/pkg/auth/authorizer/rbac/rbac.go): allow when any rule
// reachable through the user's bindings matches; otherwise no opinion, so later authorizers of a
// union may still decide. Resolution errors (a missing role) never deny by themselves.
import type { NonResourceRule, ResourceRule } from '../../api/authorization';
import type { PolicyRule } from '../../api/rbac';
import { aggregateErrorText, type Authorizer, type RuleResolver } from '../authorizer';
import type { PolicySource } from './policySource';
import { type PolicyRuleResolver, ruleResolver, type RuleResolverOptions, type RuleSource } from './ruleResolver';
import { requestMatcher } from './rules';

export type RbacAuthorizer = Authorizer & RuleResolver & PolicyRuleResolver;

export function rbacAuthorizer(source: PolicySource, options: RuleResolverOptions = {}): RbacAuthorizer {
  const resolver = ruleResolver(source, options);
  return {
    ...resolver,
    authorize(a) {
      const matches = requestMatcher(a);
      let allowedBy: RuleSource | undefined;
      let errs: string[] | undefined;
      resolver.visitRulesFor(a.user, a.namespace, (src, rule, err) => {
        if (rule && src && matches(rule)) {
          allowedBy = src;
          return false;
        }
        if (err) (errs ??= []).push(err.message);
        return true;
      });
      if (allowedBy) return { decision: 'allow', reason: `RBAC: allowed by ${allowedBy.describe()}` };
      // Upstream reports resolution errors in the reason, not as an evaluation error.
      return { decision: 'noOpinion', reason: errs ? `RBAC: ${aggregateErrorText(errs)}` : '' };
    },
    rulesFor(user, namespace) {
      const { rules, errors } = resolver.policyRulesFor(user, namespace);
      const resourceRules: ResourceRule[] = [];
      const nonResourceRules: NonResourceRule[] = [];
      for (const r of rules) {
        if (r.resources?.length) resourceRules.push(toResourceRule(r));
        if (r.nonResourceURLs?.length) nonResourceRules.push({ verbs: r.verbs ?? [], nonResourceURLs: r.nonResourceURLs });
      }
      const err = aggregateErrorText(errors.map((e) => e.message));
      return err === undefined
        ? { resourceRules, nonResourceRules, incomplete: false }
        : { resourceRules, nonResourceRules, incomplete: false, evaluationError: err };
    },
  };
}

function toResourceRule(r: PolicyRule): ResourceRule {
  const out: ResourceRule = { verbs: r.verbs ?? [] };
  if (r.apiGroups) out.apiGroups = r.apiGroups;
  out.resources = r.resources;
  if (r.resourceNames) out.resourceNames = r.resourceNames;
  return out;
}
