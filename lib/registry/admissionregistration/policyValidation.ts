// Upstream's ValidateValidatingAdmissionPolicy (pkg/apis/admissionregistration/validation):
// spec rules with upstream's messages; every expression is compiled at write, a compile error
// being Invalid at the expression's path with "compilation failed: …".
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicySpec } from '../../api';
import { failurePolicies, validationReasons } from '../../api';
import { policyEnvironment } from '../../cel';
import { fieldErr, type FieldError } from '../../machinery/fieldErrors';
import { isDNS1123Subdomain, isQualifiedName } from '../../machinery/validation/names';
import { validateMatchResources } from './matchResourcesValidation';

const maxAuditAnnotations = 20;
const maxAuditAnnotationValueExpressionLength = 5 * 1024;
const celIdentifier = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const celReserved = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);
const dns1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

function compileErrors(expression: string, hasParams: boolean, path: string): FieldError[] {
  const r = policyEnvironment(hasParams).compile(expression);
  return r.error === undefined ? [] : [fieldErr.invalid(path, expression, r.error)];
}

function validateParamKind(pk: NonNullable<ValidatingAdmissionPolicySpec['paramKind']>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const av = pk.apiVersion ?? '';
  if (!av) errs.push(fieldErr.required(`${path}.apiVersion`));
  else {
    const parts = av === '/' ? ['', ''] : av.split('/');
    if (parts.length > 2) errs.push(fieldErr.invalid(`${path}.apiVersion`, av, `unexpected GroupVersion string: ${av}`));
    else {
      const [group, version] = parts.length === 1 ? ['', parts[0]] : parts;
      const groupErrs = group ? isDNS1123Subdomain(group) : [];
      if (groupErrs.length) errs.push(fieldErr.invalid(`${path}.apiVersion`, group, groupErrs.join(',')));
      if (!version) errs.push(fieldErr.invalid(`${path}.apiVersion`, av, 'version must be specified'));
      else if (!dns1035.test(version) || version.length > 63) errs.push(fieldErr.invalid(`${path}.apiVersion`, version, dns1035Message));
    }
  }
  const kind = pk.kind ?? '';
  if (!kind) errs.push(fieldErr.required(`${path}.kind`));
  else if (!dns1035.test(kind.toLowerCase()) || kind.length > 63) errs.push(fieldErr.invalid(`${path}.kind`, kind, `may have mixed case, but should otherwise match: ${dns1035Message}`));
  return errs;
}

const dns1035Message =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

export function validatePolicySpec(name: string, spec: ValidatingAdmissionPolicySpec | undefined, path = 'spec'): FieldError[] {
  const s = spec ?? {};
  const errs: FieldError[] = [];
  const hasParams = s.paramKind !== undefined;
  if (s.failurePolicy === undefined) errs.push(fieldErr.required(`${path}.failurePolicy`));
  else if (!(failurePolicies as readonly string[]).includes(s.failurePolicy)) errs.push(fieldErr.notSupported(`${path}.failurePolicy`, s.failurePolicy, ['Fail', 'Ignore']));
  if (s.paramKind) errs.push(...validateParamKind(s.paramKind, `${path}.paramKind`));
  if (!s.matchConstraints) errs.push(fieldErr.required(`${path}.matchConstraints`));
  else {
    errs.push(...validateMatchResources(s.matchConstraints, `${path}.matchConstraints`));
    if (!s.matchConstraints.resourceRules?.length) errs.push(fieldErr.required(`${path}.matchConstraints.resourceRules`));
  }
  const conditions = s.matchConditions ?? [];
  if (conditions.length > 64) errs.push(fieldErr.tooMany(`${path}.matchConditions`, conditions.length, 64));
  const conditionNames = new Set<string>();
  conditions.forEach((c, i) => {
    const p = `${path}.matchConditions[${i}]`;
    const expr = (c.expression ?? '').trim();
    if (!expr) errs.push(fieldErr.required(`${p}.expression`));
    else errs.push(...compileErrors(expr, hasParams, `${p}.expression`));
    if (!c.name) errs.push(fieldErr.required(`${p}.name`));
    else for (const msg of isQualifiedName(c.name)) errs.push(fieldErr.invalid(`${p}.name`, c.name, msg));
    if (c.name) {
      if (conditionNames.has(c.name)) errs.push(fieldErr.duplicate(`${p}.name`, c.name));
      conditionNames.add(c.name);
    }
  });
  (s.variables ?? []).forEach((v, i) => {
    const p = `${path}.variables[${i}]`;
    if (!(v.name ?? '').trim()) errs.push(fieldErr.required(`${p}.name`, 'name is not specified'));
    else if (!celIdentifier.test(v.name ?? '') || celReserved.has(v.name ?? '')) errs.push(fieldErr.invalid(`${p}.name`, v.name, 'name is not a valid CEL identifier'));
    if (!(v.expression ?? '').trim()) errs.push(fieldErr.required(`${p}.expression`, 'expression is not specified'));
    else errs.push(...compileErrors(v.expression ?? '', hasParams, `${p}.expression`));
  });
  const validations = s.validations ?? [];
  const audits = s.auditAnnotations ?? [];
  if (validations.length === 0 && audits.length === 0) {
    errs.push(fieldErr.required(`${path}.validations`, 'validations or auditAnnotations must contain at least one item'));
    errs.push(fieldErr.required(`${path}.auditAnnotations`, 'validations or auditAnnotations must contain at least one item'));
    return errs;
  }
  validations.forEach((v, i) => {
    const p = `${path}.validations[${i}]`;
    const expression = v.expression ?? '';
    if (!expression.trim()) errs.push(fieldErr.required(`${p}.expression`, 'expression is not specified'));
    else errs.push(...compileErrors(expression, hasParams, `${p}.expression`));
    const me = v.messageExpression ?? '';
    if (me.length > 0 && !me.trim()) errs.push(fieldErr.invalid(`${p}.messageExpression`, me, 'must be non-empty if specified'));
    else if (me.trim()) errs.push(...compileErrors(me, hasParams, `${p}.messageExpression`));
    const msg = v.message ?? '';
    if (msg.length > 0 && !msg.trim()) errs.push(fieldErr.invalid(`${p}.message`, msg, 'message must be non-empty if specified'));
    else if (/[\n\r]/.test(msg.trim())) errs.push(fieldErr.invalid(`${p}.message`, msg, 'message must not contain line breaks'));
    if (v.reason !== undefined && !(validationReasons as readonly string[]).includes(v.reason)) errs.push(fieldErr.notSupported(`${p}.reason`, v.reason, [...validationReasons]));
  });
  if (audits.length > maxAuditAnnotations) errs.push(fieldErr.invalid(`${path}.auditAnnotations`, audits, `must not have more than ${maxAuditAnnotations} auditAnnotations`));
  const keys = new Set<string>();
  audits.forEach((a, i) => {
    const p = `${path}.auditAnnotations[${i}]`;
    if (name) for (const msg of isQualifiedName(`${name}/${a.key ?? ''}`)) errs.push(fieldErr.invalid(`${p}.key`, `${name}/${a.key ?? ''}`, msg));
    else errs.push(fieldErr.invalid(`${p}.key`, a.key ?? '', 'requires metadata.name be non-empty'));
    const ve = (a.valueExpression ?? '').trim();
    if (!ve) errs.push(fieldErr.required(`${p}.valueExpression`, 'valueExpression is not specified'));
    else if (ve.length > maxAuditAnnotationValueExpressionLength) errs.push(fieldErr.required(`${p}.valueExpression`, `must not exceed ${maxAuditAnnotationValueExpressionLength} bytes in length`));
    else errs.push(...compileErrors(ve, hasParams, `${p}.valueExpression`));
    if (keys.has(a.key ?? '')) errs.push(fieldErr.duplicate(`${p}.key`, a.key ?? ''));
    keys.add(a.key ?? '');
  });
  return errs;
}

export function validatePolicy(p: ValidatingAdmissionPolicy): FieldError[] {
  return validatePolicySpec(p.metadata?.name ?? '', p.spec);
}

/** Upstream's validateValidatingAdmissionPolicyStatus (typeChecking warnings; conditions loosely). */
export function validatePolicyStatus(p: ValidatingAdmissionPolicy): FieldError[] {
  const errs: FieldError[] = [];
  (p.status?.typeChecking?.expressionWarnings ?? []).forEach((w, i) => {
    const path = `status.typeChecking.expressionWarnings[${i}]`;
    if (!w.warning) errs.push(fieldErr.required(`${path}.warning`));
    if (!(w.fieldRef ?? '').trim()) errs.push(fieldErr.required(`${path}.fieldRef`));
  });
  return errs;
}
