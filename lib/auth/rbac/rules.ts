// Does one PolicyRule match a request? Upstream pkg/apis/rbac/v1/evaluation_helpers.go and
// RuleAllows in plugin/pkg/auth/authorizer/rbac/rbac.go. An absent list matches nothing.
import type { PolicyRule } from '../../api/rbac';
import type { AuthorizationAttributes } from '../authorizer';

export const verbAll = '*';
export const apiGroupAll = '*';
export const resourceAll = '*';
export const nonResourceAll = '*';

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  const verbs = rule.verbs;
  if (!verbs) return false;
  for (const v of verbs) if (v === verbAll || v === verb) return true;
  return false;
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  const groups = rule.apiGroups;
  if (!groups) return false;
  for (const g of groups) if (g === apiGroupAll || g === group) return true;
  return false;
}

/**
 * `combined` is `resource` or `resource/subresource`. A rule resource matches when it is `*`,
 * equal to `combined`, or a star, a slash and the requested subresource (any resource's subresource).
 */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  const resources = rule.resources;
  if (!resources) return false;
  for (const r of resources) {
    if (r === resourceAll || r === combined) return true;
    if (subresource && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

/** No resourceNames means any name (including none, as for list and create). */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames;
  if (!names || names.length === 0) return true;
  return names.includes(name);
}

/** Exact URL, `*`, or a prefix ending in `*` (`/apis/*` matches `/apis/x/y`, not `/apis`). */
export function nonResourceURLMatches(rule: PolicyRule, url: string): boolean {
  const urls = rule.nonResourceURLs;
  if (!urls) return false;
  for (const u of urls) {
    if (u === nonResourceAll || u === url) return true;
    if (u.endsWith('*') && url.startsWith(trimRightStars(u))) return true;
  }
  return false;
}

/** Go's strings.TrimRight(s, "*"). */
export function trimRightStars(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 42) end--;
  return s.slice(0, end);
}

/** `resource` or `resource/subresource`, as rules name them. */
export function combinedResource(a: Pick<AuthorizationAttributes, 'resource' | 'subresource'>): string {
  return a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
}

/**
 * A request matcher with the combined resource computed once, for checking many rules
 * against one request (the authorizer's hot path).
 */
export function requestMatcher(a: AuthorizationAttributes): (rule: PolicyRule) => boolean {
  if (!a.isResourceRequest) {
    return (rule) => verbMatches(rule, a.verb) && nonResourceURLMatches(rule, a.path);
  }
  const combined = combinedResource(a);
  return (rule) =>
    verbMatches(rule, a.verb) &&
    apiGroupMatches(rule, a.apiGroup) &&
    resourceMatches(rule, combined, a.subresource) &&
    resourceNameMatches(rule, a.name);
}

/** Upstream RuleAllows. */
export function ruleAllows(a: AuthorizationAttributes, rule: PolicyRule): boolean {
  return requestMatcher(a)(rule);
}

/** Upstream RulesAllow: any rule allows. */
export function rulesAllow(a: AuthorizationAttributes, rules: readonly PolicyRule[]): boolean {
  const m = requestMatcher(a);
  return rules.some(m);
}
