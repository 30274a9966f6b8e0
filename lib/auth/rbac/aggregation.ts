// ClusterRole aggregation (upstream pkg/controller/clusterroleaggregation): a ClusterRole with an
// aggregationRule gets the union of the rules of every other ClusterRole its selectors match.
import type { LabelSelector as WireLabelSelector } from '../../api/meta';
import type { ClusterRole, PolicyRule } from '../../api/rbac';
import { goQuote } from '../../machinery/goStrconv';
import { LabelSelector, type LabelOperator, type LabelRequirement } from '../../machinery/labelSelector';
import { semanticEqual } from './semanticEqual';

const operators: Readonly<Record<string, LabelOperator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * A wire LabelSelector as a matcher (upstream metav1.LabelSelectorAsSelector): empty selects
 * everything; matchLabels are equality requirements. Throws on an unknown operator with
 * upstream's text.
 */
export function labelSelectorFromWire(ls: WireLabelSelector): LabelSelector {
  const reqs: LabelRequirement[] = [];
  for (const [key, value] of Object.entries(ls.matchLabels ?? {})) reqs.push({ key, operator: '=', values: [value] });
  for (const expr of ls.matchExpressions ?? []) {
    const op = operators[expr.operator ?? ''];
    if (!op) throw new Error(`${goQuote(expr.operator ?? '')} is not a valid label selector operator`);
    reqs.push({ key: expr.key ?? '', operator: op, values: [...new Set(expr.values ?? [])].sort() });
  }
  return new LabelSelector(reqs);
}

/**
 * The rules `target` should hold: for each selector in order, the matching ClusterRoles sorted by
 * name (the target itself skipped), each rule added unless an equal one is already there. A role
 * without an aggregationRule keeps its own rules.
 */
export function aggregatedRules(target: ClusterRole, all: Iterable<ClusterRole>): PolicyRule[] {
  const selectors = target.aggregationRule?.clusterRoleSelectors;
  if (!target.aggregationRule) return [...(target.rules ?? [])];
  const name = target.metadata?.name ?? '';
  const roles = [...all].sort((a, b) => compareNames(a.metadata?.name ?? '', b.metadata?.name ?? ''));
  const out: PolicyRule[] = [];
  for (const wire of selectors ?? []) {
    const selector = labelSelectorFromWire(wire);
    for (const role of roles) {
      if ((role.metadata?.name ?? '') === name || !selector.matches(role.metadata?.labels)) continue;
      for (const rule of role.rules ?? []) if (!out.some((r) => semanticEqual(r, rule))) out.push(rule);
    }
  }
  return out;
}

/** Does the role need writing to hold exactly `rules` (nil and empty lists count as equal)? */
export function needsUpdate(target: ClusterRole, rules: readonly PolicyRule[]): boolean {
  return !semanticEqual(target.rules ?? [], rules);
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
