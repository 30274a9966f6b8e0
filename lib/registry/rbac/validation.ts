// RBAC validation and defaulting shared by the four kinds (upstream's pkg/apis/rbac/validation
// and rbac/v1 defaults). ObjectMeta rules are the generic store's; everything here is
// kind-specific and reports upstream's paths and texts.
import type { AggregationRule, PolicyRule, RoleRef, Subject } from '../../api';
import { groups } from '../../api';
import { fieldErr, FieldError } from '../../machinery/fieldErrors';
import { nameIsDNSSubdomain, validatePathSegmentName } from '../../machinery/validation/names';
import { labelSelectorConversionFails, validateLabelSelector } from './labelSelectorValidation';

export const subjectKinds = { serviceAccount: 'ServiceAccount', user: 'User', group: 'Group' } as const;
export const roleKinds = { role: 'Role', clusterRole: 'ClusterRole' } as const;

/**
 * Names of roles and bindings, and roleRef.name: anything usable as one path segment. Upstream
 * ignores `prefix`, so a generateName of "." or ".." is refused too.
 */
export function validateRBACName(name: string, _prefix: boolean): string[] {
  return validatePathSegmentName(name, false);
}

function listOf<T>(v: readonly (T | null | undefined)[] | null | undefined): T[] {
  return Array.isArray(v) ? v.map((x) => x ?? ({} as T)) : [];
}

function count(v: readonly unknown[] | null | undefined): number {
  return Array.isArray(v) ? v.length : 0;
}

/** One rule; namespaced (Role) rules may not name non-resource URLs. */
export function validatePolicyRule(rule: PolicyRule, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (count(rule.verbs) === 0) errs.push(fieldErr.required(`${path}.verbs`, 'verbs must contain at least one value'));
  if (count(rule.nonResourceURLs) > 0) {
    const urls = rule.nonResourceURLs;
    if (namespaced) errs.push(fieldErr.invalid(`${path}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (count(rule.apiGroups) > 0 || count(rule.resources) > 0 || count(rule.resourceNames) > 0) {
      errs.push(fieldErr.invalid(`${path}.nonResourceURLs`, urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (count(rule.apiGroups) === 0) errs.push(fieldErr.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (count(rule.resources) === 0) errs.push(fieldErr.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return errs;
}

export function validatePolicyRules(rules: readonly (PolicyRule | null)[] | null | undefined, namespaced: boolean): FieldError[] {
  return listOf(rules).flatMap((r, i) => validatePolicyRule(r, namespaced, `rules[${i}]`));
}

/**
 * A ClusterRole's aggregationRule (absent or null means none). A selector the conversion to
 * a labels.Selector refuses gets one extra error whose value is the nil selector.
 */
export function validateAggregationRule(rule: AggregationRule | null | undefined, allowInvalidLabelValueInSelector: boolean): FieldError[] {
  if (rule === null || rule === undefined) return [];
  const path = 'aggregationRule.clusterRoleSelectors';
  const selectors = listOf(rule.clusterRoleSelectors);
  const errs: FieldError[] = [];
  if (selectors.length === 0) errs.push(fieldErr.required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  selectors.forEach((s, i) => {
    errs.push(...validateLabelSelector(s, { allowInvalidLabelValueInSelector }, `${path}[${i}]`));
    if (labelSelectorConversionFails(s)) errs.push(fieldErr.invalid(`${path}[${i}]`, null, 'invalid label selector.'));
  });
  return errs;
}

/** Upstream relaxes label-value checks on update when a stored selector already fails validation. */
export function aggregationRuleHasInvalidSelector(rule: AggregationRule | null | undefined): boolean {
  if (rule === null || rule === undefined) return false;
  return listOf(rule.clusterRoleSelectors).some((s) => validateLabelSelector(s, { allowInvalidLabelValueInSelector: false }, '').length > 0);
}

/** roleRef of a RoleBinding (Role or ClusterRole) or ClusterRoleBinding (ClusterRole only). */
export function validateRoleRef(ref: RoleRef | null | undefined, allowedKinds: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  const apiGroup = ref?.apiGroup ?? '';
  const kind = ref?.kind ?? '';
  const name = ref?.name ?? '';
  if (apiGroup !== groups.rbac) errs.push(fieldErr.notSupported('roleRef.apiGroup', apiGroup, [groups.rbac]));
  if (!allowedKinds.includes(kind)) errs.push(fieldErr.notSupported('roleRef.kind', kind, allowedKinds));
  if (name === '') errs.push(fieldErr.required('roleRef.name'));
  else for (const msg of validateRBACName(name, false)) errs.push(fieldErr.invalid('roleRef.name', name, msg));
  return errs;
}

/** One subject; a ClusterRoleBinding's ServiceAccount subjects must name their namespace. */
export function validateSubject(subject: Subject, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = subject.name ?? '';
  const apiGroup = subject.apiGroup ?? '';
  if (name === '') errs.push(fieldErr.required(`${path}.name`));
  switch (subject.kind ?? '') {
    case subjectKinds.serviceAccount:
      if (name !== '') for (const msg of nameIsDNSSubdomain(name, false)) errs.push(fieldErr.invalid(`${path}.name`, name, msg));
      if (apiGroup !== '') errs.push(fieldErr.notSupported(`${path}.apiGroup`, apiGroup, ['']));
      if (!namespaced && !subject.namespace) errs.push(fieldErr.required(`${path}.namespace`));
      break;
    case subjectKinds.user:
    case subjectKinds.group:
      if (apiGroup !== groups.rbac) errs.push(fieldErr.notSupported(`${path}.apiGroup`, apiGroup, [groups.rbac]));
      break;
    default:
      errs.push(fieldErr.notSupported(`${path}.kind`, subject.kind ?? '', Object.values(subjectKinds)));
  }
  return errs;
}

export function validateSubjects(subjects: readonly (Subject | null)[] | null | undefined, namespaced: boolean): FieldError[] {
  return listOf(subjects).flatMap((s, i) => validateSubject(s, namespaced, `subjects[${i}]`));
}

/** rbac/v1 defaulting of a binding: roleRef.apiGroup, and each subject's apiGroup by kind. */
export function applyBindingDefaults(binding: { roleRef?: RoleRef; subjects?: Subject[] }): void {
  const ref = (binding.roleRef ??= {});
  if (!ref.apiGroup) ref.apiGroup = groups.rbac;
  if (!Array.isArray(binding.subjects)) return;
  for (const s of binding.subjects) {
    if (!s || s.apiGroup) continue;
    // ServiceAccount subjects keep the core group "" (absent).
    if (s.kind === subjectKinds.user || s.kind === subjectKinds.group) s.apiGroup = groups.rbac;
  }
}

/**
 * Upstream's RBAC ValidateUpdate runs the create rules twice (ValidateX, then ValidateXUpdate,
 * which starts with ValidateX again): each error is listed twice in the Status causes while
 * the message prints it once. Kept so causes match.
 */
export function createRulesOnUpdate(errs: readonly FieldError[]): FieldError[] {
  return [...errs, ...errs];
}
