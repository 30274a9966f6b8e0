// Upstream's validateMatchResources, validateNamedRuleWithOperations, validateRuleWithOperations
// and validateRule/validateResources (pkg/apis/admissionregistration/validation): messages and
// field paths as upstream; supported-value lists sorted, as Go's sets.List.
import type { MatchResources, NamedRuleWithOperations } from '../../api';
import { matchPolicies, operationTypes, ruleScopes } from '../../api';
import { fieldErr, type FieldError } from '../../machinery/fieldErrors';
import { validatePathSegmentName } from '../../machinery/validation/names';
import { validateLabelSelector } from '../rbac/labelSelectorValidation';

// Validated strictly: these types were released after upstream issue #99139 was resolved.
export const strict = { allowInvalidLabelValueInSelector: false };

const sorted = (xs: readonly string[]): string[] => [...xs].sort();

function validateResources(resources: readonly string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(fieldErr.required(path));
  const resourcesWithWildcardSub = new Set<string>();
  const subsWithWildcardResource = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSub = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(fieldErr.required(`${path}[${i}]`));
      return;
    }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      withoutSub = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (resourcesWithWildcardSub.has(res)) errs.push(fieldErr.invalid(`${path}[${i}]`, resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subsWithWildcardResource.has(sub)) errs.push(fieldErr.invalid(`${path}[${i}]`, resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') resourcesWithWildcardSub.add(res);
    if (res === '*') subsWithWildcardResource.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errs.push(fieldErr.invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSub) errs.push(fieldErr.invalid(path, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

export function validateRuleWithOperations(r: NamedRuleWithOperations, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = r.operations ?? [];
  if (ops.length === 0) errs.push(fieldErr.required(`${path}.operations`));
  if (ops.length > 1 && ops.includes('*')) errs.push(fieldErr.invalid(`${path}.operations`, ops, "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => {
    if (!(operationTypes as readonly string[]).includes(op)) errs.push(fieldErr.notSupported(`${path}.operations[${i}]`, op, sorted(operationTypes)));
  });
  const groups = r.apiGroups ?? [];
  if (groups.length === 0) errs.push(fieldErr.required(`${path}.apiGroups`));
  if (groups.length > 1 && groups.includes('*')) errs.push(fieldErr.invalid(`${path}.apiGroups`, groups, "if '*' is present, must not specify other API groups"));
  const versions = r.apiVersions ?? [];
  if (versions.length === 0) errs.push(fieldErr.required(`${path}.apiVersions`));
  if (versions.length > 1 && versions.includes('*')) errs.push(fieldErr.invalid(`${path}.apiVersions`, versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(fieldErr.required(`${path}.apiVersions[${i}]`));
  });
  errs.push(...validateResources(r.resources ?? [], `${path}.resources`));
  if (r.scope !== undefined && !(ruleScopes as readonly string[]).includes(r.scope)) errs.push(fieldErr.notSupported(`${path}.scope`, r.scope, sorted(ruleScopes)));
  return errs;
}

function validateNamedRule(r: NamedRuleWithOperations, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (r.resourceNames ?? []).forEach((n, i) => {
    for (const msg of validatePathSegmentName(n, false)) errs.push(fieldErr.invalid(`${path}.resourceNames[${i}]`, n, msg));
    if (seen.has(n)) errs.push(fieldErr.duplicate(`${path}.resourceNames[${i}]`, n));
    seen.add(n);
  });
  return [...errs, ...validateRuleWithOperations(r, path)];
}

export function validateMatchResources(mc: MatchResources | undefined, path: string): FieldError[] {
  if (!mc) return [];
  const errs: FieldError[] = [];
  if (mc.matchPolicy === undefined) errs.push(fieldErr.required(`${path}.matchPolicy`));
  else if (!(matchPolicies as readonly string[]).includes(mc.matchPolicy)) errs.push(fieldErr.notSupported(`${path}.matchPolicy`, mc.matchPolicy, sorted(matchPolicies)));
  if (!mc.namespaceSelector) errs.push(fieldErr.required(`${path}.namespaceSelector`));
  else errs.push(...validateLabelSelector(mc.namespaceSelector, strict, `${path}.namespaceSelector`));
  if (!mc.objectSelector) errs.push(fieldErr.required(`${path}.objectSelector`));
  else errs.push(...validateLabelSelector(mc.objectSelector, strict, `${path}.objectSelector`));
  (mc.resourceRules ?? []).forEach((r, i) => errs.push(...validateNamedRule(r, `${path}.resourceRules[${i}]`)));
  (mc.excludeResourceRules ?? []).forEach((r, i) => errs.push(...validateNamedRule(r, `${path}.excludeResourceRules[${i}]`)));
  return errs;
}

/** Upstream's SetDefaults_MatchResources and SetDefaults_Rule (admissionregistration/v1 defaults.go). */
export function defaultMatchResources(mc: MatchResources | undefined): void {
  if (!mc) return;
  mc.matchPolicy ??= 'Equivalent';
  mc.namespaceSelector ??= {};
  mc.objectSelector ??= {};
  for (const r of [...(mc.resourceRules ?? []), ...(mc.excludeResourceRules ?? [])]) r.scope ??= '*';
}
