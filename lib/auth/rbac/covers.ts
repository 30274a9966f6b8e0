// Do some rules grant at least what other rules grant? Upstream
// component-helpers/auth/rbac/validation/policy_comparator.go: break the servant rules into
// one-verb, one-resource, one-name pieces; each piece must be covered by a single owner rule.
import type { PolicyRule } from '../../api/rbac';
import { apiGroupAll, resourceAll, trimRightStars, verbAll } from './rules';

export interface CoversResult {
  covered: boolean;
  /** The uncovered pieces, each with at most one group, resource, name and verb. */
  uncovered: PolicyRule[];
}

export function covers(ownerRules: readonly PolicyRule[], servantRules: readonly PolicyRule[]): CoversResult {
  const uncovered: PolicyRule[] = [];
  for (const servant of servantRules) {
    for (const piece of breakdownRule(servant)) {
      if (!ownerRules.some((owner) => ruleCovers(owner, piece))) uncovered.push(piece);
    }
  }
  return { covered: uncovered.length === 0, uncovered };
}

/**
 * One rule per group × resource × verb (× name), then one per URL × verb. A rule with resources
 * but no groups yields no resource pieces (upstream: it grants nothing either).
 */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  const verbs = rule.verbs ?? [];
  const names = rule.resourceNames ?? [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of verbs) {
        if (names.length > 0) {
          for (const n of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [n] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

function has(set: readonly string[] | undefined, x: string): boolean {
  return set !== undefined && set.includes(x);
}

function hasAll(set: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if (!wanted || wanted.length === 0) return true;
  if (!set) return false;
  return wanted.every((w) => set.includes(w));
}

function resourceCoversAll(owned: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if (has(owned, resourceAll) || hasAll(owned, wanted)) return true;
  for (const path of wanted ?? []) {
    if (has(owned, path)) continue;
    const slash = path.indexOf('/');
    // A subresource is also covered by `*/<subresource>`.
    if (slash < 0 || !has(owned, `*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function nonResourceURLCovers(owner: string, path: string): boolean {
  return owner === path || (owner.endsWith('*') && path.startsWith(trimRightStars(owner)));
}

function nonResourceURLsCoverAll(owned: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  return (wanted ?? []).every((p) => (owned ?? []).some((o) => nonResourceURLCovers(o, p)));
}

/** Does one owner rule cover one broken-down piece? */
export function ruleCovers(owner: PolicyRule, piece: PolicyRule): boolean {
  const verbOk = has(owner.verbs, verbAll) || hasAll(owner.verbs, piece.verbs);
  const groupOk = has(owner.apiGroups, apiGroupAll) || hasAll(owner.apiGroups, piece.apiGroups);
  const resourceOk = resourceCoversAll(owner.resources, piece.resources);
  const urlOk = nonResourceURLsCoverAll(owner.nonResourceURLs, piece.nonResourceURLs);
  const ownerNames = owner.resourceNames ?? [];
  const pieceNames = piece.resourceNames ?? [];
  const nameOk = pieceNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, pieceNames);
  return verbOk && groupOk && resourceOk && nameOk && urlOk;
}
