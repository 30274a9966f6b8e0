// Policy evaluation: the first rule that matches a request decides its level (upstream's
// pkg/audit/policy/checker.go). A rule matches when every field it sets matches; with no
// policy, or no matching rule, the level is None and nothing is recorded.
import { GroupResources, Level, Policy, PolicyRule, Stage, stages } from './policy';

/** The requesting user, as authentication produced it. */
export interface AuditUser {
  name: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** What the policy looks at; the HTTP layer fills it from its request info and the user. */
export interface RequestAttributes {
  user: AuditUser;
  /** The API verb, or the lowercase HTTP method for non-resource requests. */
  verb: string;
  isResourceRequest: boolean;
  /** The URL path (no query). */
  path: string;
  namespace: string;
  /** The API group; "" is the core group. */
  group: string;
  resource: string;
  subresource: string;
  name: string;
  apiVersion: string;
}

export interface PolicyDecision {
  level: Level;
  /** Stages for which no event is emitted: the policy's and the matching rule's, together. */
  omitStages: Stage[];
  omitManagedFields: boolean;
}

export function evaluatePolicy(policy: Policy | undefined, attrs: RequestAttributes): PolicyDecision {
  if (!policy) return { level: 'None', omitStages: [], omitManagedFields: false };
  for (const rule of policy.rules) {
    if (ruleMatches(rule, attrs)) {
      return {
        level: rule.level,
        omitStages: unionStages(policy.omitStages, rule.omitStages),
        omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields ?? false,
      };
    }
  }
  return { level: 'None', omitStages: unionStages(policy.omitStages), omitManagedFields: policy.omitManagedFields ?? false };
}

/** The union in the stages' natural order, so results are deterministic. */
function unionStages(...lists: (readonly Stage[] | undefined)[]): Stage[] {
  return stages.filter((s) => lists.some((l) => l?.includes(s)));
}

function ruleMatches(rule: PolicyRule, attrs: RequestAttributes): boolean {
  if (rule.users?.length && !rule.users.includes(attrs.user.name)) return false;
  if (rule.userGroups?.length && !attrs.user.groups.some((g) => rule.userGroups!.includes(g))) return false;
  if (rule.verbs?.length && !rule.verbs.includes(attrs.verb)) return false;
  if (rule.namespaces?.length || rule.resources?.length) return resourceMatches(rule, attrs);
  if (rule.nonResourceURLs?.length) return !attrs.isResourceRequest && rule.nonResourceURLs.some((spec) => pathMatches(attrs.path, spec));
  return true;
}

function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  // Upstream trims every trailing '*' before the prefix test.
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function resourceMatches(rule: PolicyRule, attrs: RequestAttributes): boolean {
  if (!attrs.isResourceRequest) return false;
  // Cluster-scoped resources carry namespace "", which a rule names as "".
  if (rule.namespaces?.length && !rule.namespaces.includes(attrs.namespace)) return false;
  if (!rule.resources?.length) return true;
  return rule.resources.some((gr) => groupResourcesMatch(gr, attrs));
}

function groupResourcesMatch(gr: GroupResources, attrs: RequestAttributes): boolean {
  if ((gr.group ?? '') !== attrs.group) return false;
  if (!gr.resources?.length) return true;
  if (gr.resourceNames?.length && !gr.resourceNames.includes(attrs.name)) return false;
  const { resource, subresource } = attrs;
  const combined = subresource ? `${resource}/${subresource}` : resource;
  return gr.resources.some(
    (res) =>
      res === '*' ||
      res === combined ||
      (subresource !== '' && res.startsWith('*/') && res.slice(2) === subresource) ||
      (res.endsWith('/*') && res.slice(0, -2) === resource),
  );
}
