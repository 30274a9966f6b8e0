// Which requests a policy or binding selects (upstream pkg/admission/plugin/policy/matching and
// webhook/predicates/rules): resourceRules minus excludeResourceRules, then the namespace and
// object selectors. matchPolicy Equivalent also accepts the other versions the same
// group/resource is served in.
import type { LabelSelector as WireLabelSelector, MatchResources, NamedRuleWithOperations } from '../../api';
import { labelSelectorFromWire } from '../../auth/rbac/aggregation';

export interface MatchRequest {
  operation: string;
  group: string;
  version: string;
  /** Every version the group/resource is served in (for matchPolicy Equivalent). */
  versions: readonly string[];
  resource: string;
  subresource: string;
  name: string;
  namespaced: boolean;
  /** Labels of the request's namespace; undefined when cluster-scoped (or the namespace is unknown). */
  namespaceLabels?: Readonly<Record<string, string>>;
  /** Labels of the object and of the old object (an object selector matches either). */
  objectLabels?: Readonly<Record<string, string>>;
  oldObjectLabels?: Readonly<Record<string, string>>;
  /** The request is on a Namespace: the namespace selector looks at the object's own labels. */
  isNamespace: boolean;
  /**
   * Everything rules look at except the name (see ruleKeyOf): set, rule results are remembered
   * per matchResources and key, so a request walks each policy's rules once per kind of request.
   */
  ruleKey?: string;
}

/** The part of a request resourceRules depend on (versions follow from group/resource). */
export function ruleKeyOf(r: Omit<MatchRequest, 'ruleKey'>): string {
  return `${r.operation} ${r.group} ${r.version} ${r.resource} ${r.subresource} ${r.namespaced ? 'n' : 'c'}`;
}

const hasOrStar = (xs: readonly string[] | undefined, v: string): boolean => !!xs && (xs.includes('*') || xs.includes(v));

function resourceMatches(patterns: readonly string[] | undefined, resource: string, subresource: string): boolean {
  const full = subresource ? `${resource}/${subresource}` : resource;
  for (const p of patterns ?? []) {
    if (p === '*/*' || p === full) return true;
    if (p === '*' && !subresource) return true;
    const slash = p.indexOf('/');
    if (slash < 0 || !subresource) continue;
    const [res, sub] = [p.slice(0, slash), p.slice(slash + 1)];
    if ((res === '*' || res === resource) && (sub === '*' || sub === subresource)) return true;
  }
  return false;
}

function scopeMatches(scope: string | undefined, namespaced: boolean): boolean {
  if (!scope || scope === '*') return true;
  return scope === 'Namespaced' ? namespaced : !namespaced;
}

export function ruleMatches(rule: NamedRuleWithOperations, r: MatchRequest, equivalent: boolean): boolean {
  if (!hasOrStar(rule.operations, r.operation)) return false;
  if (!hasOrStar(rule.apiGroups, r.group)) return false;
  const versionOk = hasOrStar(rule.apiVersions, r.version) || (equivalent && r.versions.some((v) => hasOrStar(rule.apiVersions, v)));
  if (!versionOk) return false;
  if (!resourceMatches(rule.resources, r.resource, r.subresource)) return false;
  if (!scopeMatches(rule.scope, r.namespaced)) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(r.name);
}

/** Parsed selectors per stored selector object (policies and bindings are immutable once stored). */
const parsedSelectors = new WeakMap<WireLabelSelector, ReturnType<typeof labelSelectorFromWire>>();

function selectorMatches(s: WireLabelSelector | undefined, labels: Readonly<Record<string, string>> | undefined): boolean {
  if (!s) return true;
  let parsed = parsedSelectors.get(s);
  if (!parsed) parsedSelectors.set(s, (parsed = labelSelectorFromWire(s)));
  return parsed.matches(labels ?? {});
}

/** Upstream's namespace matcher: cluster-scoped requests (other than on Namespaces) are not filtered. */
function namespaceMatches(s: WireLabelSelector | undefined, r: MatchRequest): boolean {
  if (r.isNamespace) return selectorMatches(s, r.objectLabels ?? r.oldObjectLabels);
  if (!r.namespaced) return true;
  return selectorMatches(s, r.namespaceLabels);
}

function objectMatches(s: WireLabelSelector | undefined, r: MatchRequest): boolean {
  if (!s) return true;
  let sel = parsedSelectors.get(s);
  if (!sel) parsedSelectors.set(s, (sel = labelSelectorFromWire(s)));
  return (r.objectLabels !== undefined && sel.matches(r.objectLabels)) || (r.oldObjectLabels !== undefined && sel.matches(r.oldObjectLabels));
}

/** Whether a selector can refuse anything: an absent or empty one selects every namespace. */
export function selectorRestricts(s: WireLabelSelector | undefined): boolean {
  return !!s && (Object.keys(s.matchLabels ?? {}).length > 0 || (s.matchExpressions ?? []).length > 0);
}

function rulesMatch(mr: MatchResources, r: MatchRequest, requireRules: boolean): boolean {
  const equivalent = (mr.matchPolicy ?? 'Equivalent') === 'Equivalent';
  const rules = mr.resourceRules ?? [];
  if ((rules.length > 0 || requireRules) && !rules.some((rule) => ruleMatches(rule, r, equivalent))) return false;
  return !(mr.excludeResourceRules ?? []).some((rule) => ruleMatches(rule, r, equivalent));
}

interface RuleMemo {
  /** Results by ruleKey and requireRules; absent when a rule names resources (the name matters). */
  byKey?: [Map<string, boolean>, Map<string, boolean>];
}

/** Per stored matchResources (immutable once stored, like the selectors). */
const ruleMemos = new WeakMap<MatchResources, RuleMemo>();

function memoFor(mr: MatchResources): RuleMemo {
  let memo = ruleMemos.get(mr);
  if (!memo) {
    const named = [...(mr.resourceRules ?? []), ...(mr.excludeResourceRules ?? [])].some((x) => (x.resourceNames ?? []).length > 0);
    ruleMemos.set(mr, (memo = named ? {} : { byKey: [new Map(), new Map()] }));
  }
  return memo;
}

/**
 * Whether matchResources selects the request. `requireRules`: a policy's matchConstraints must
 * list the resource; a binding without resourceRules matches every resource its policy does.
 */
export function matchResourcesMatch(mr: MatchResources | undefined, r: MatchRequest, requireRules: boolean): boolean {
  if (!mr) return !requireRules;
  if (!namespaceMatches(mr.namespaceSelector, r)) return false;
  if (!objectMatches(mr.objectSelector, r)) return false;
  const maps = r.ruleKey === undefined ? undefined : memoFor(mr).byKey;
  if (!maps) return rulesMatch(mr, r, requireRules);
  const byKey = maps[requireRules ? 1 : 0];
  let ok = byKey.get(r.ruleKey!);
  if (ok === undefined) byKey.set(r.ruleKey!, (ok = rulesMatch(mr, r, requireRules)));
  return ok;
}
