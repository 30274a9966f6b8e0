// Upstream's ValidateValidatingAdmissionPolicyBinding (pkg/apis/admissionregistration/validation).
// Upstream spells the matchResources path "matchResouces"; kept, as clients may match on it.
import type { ParamRef, ValidatingAdmissionPolicyBinding } from '../../api';
import { validationActions } from '../../api';
import { fieldErr, type FieldError } from '../../machinery/fieldErrors';
import { nameIsDNSSubdomain, validatePathSegmentName } from '../../machinery/validation/names';
import { strict, validateMatchResources } from './matchResourcesValidation';
import { validateLabelSelector } from '../rbac/labelSelectorValidation';

function validateParamRef(pr: ParamRef | undefined, path: string): FieldError[] {
  if (!pr) return [];
  const errs: FieldError[] = [];
  const exclusive = 'name and selector are mutually exclusive';
  if (pr.name) {
    for (const msg of validatePathSegmentName(pr.name, false)) errs.push(fieldErr.invalid(`${path}.name`, pr.name, msg));
    if (pr.selector) errs.push(fieldErr.forbidden(`${path}.name`, exclusive));
  }
  if (pr.selector) {
    errs.push(...validateLabelSelector(pr.selector, strict, `${path}.selector`));
    if (pr.name) errs.push(fieldErr.forbidden(`${path}.selector`, exclusive));
  }
  if (!pr.name && !pr.selector) errs.push(fieldErr.required(path, 'one of name or selector must be specified'));
  if (!pr.parameterNotFoundAction) errs.push(fieldErr.required(`${path}.parameterNotFoundAction`));
  else if (pr.parameterNotFoundAction !== 'Deny' && pr.parameterNotFoundAction !== 'Allow') {
    errs.push(fieldErr.notSupported(`${path}.parameterNotFoundAction`, pr.parameterNotFoundAction, ['Deny', 'Allow']));
  }
  return errs;
}

function validateValidationActions(va: readonly string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  va.forEach((a, i) => {
    if (!(validationActions as readonly string[]).includes(a)) errs.push(fieldErr.notSupported(`${path}[${i}]`, a, ['Audit', 'Deny', 'Warn']));
    if (seen.has(a)) errs.push(fieldErr.duplicate(`${path}[${i}]`, a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(fieldErr.invalid(path, va, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  if (seen.size === 0) errs.push(fieldErr.required(path, 'at least one validation action is required'));
  return errs;
}

export function validateBinding(b: ValidatingAdmissionPolicyBinding): FieldError[] {
  const spec = b.spec ?? {};
  const errs: FieldError[] = [];
  if (!spec.policyName) errs.push(fieldErr.required('spec.policyName'));
  else for (const msg of nameIsDNSSubdomain(spec.policyName, false)) errs.push(fieldErr.invalid('spec.policyName', spec.policyName, msg));
  errs.push(...validateParamRef(spec.paramRef, 'spec.paramRef'));
  errs.push(...validateMatchResources(spec.matchResources, 'spec.matchResouces'));
  errs.push(...validateValidationActions(spec.validationActions ?? [], 'spec.validationActions'));
  return errs;
}
