// metav1 LabelSelector validation as upstream's meta/v1/validation (ValidateLabelSelector) and
// the conversion check of metav1.LabelSelectorAsSelector, for aggregationRule selectors.
// lib/machinery has only the query-string selector parser, not the API type's rules.
import type { LabelSelector } from '../../api';
import { fieldErr, FieldError } from '../../machinery/fieldErrors';
import { isQualifiedName, isValidLabelValue } from '../../machinery/validation/names';

type LabelSelectorRequirement = NonNullable<LabelSelector['matchExpressions']>[number];

export interface LabelSelectorValidationOptions {
  /** Skip label-value checks of matchExpressions values (tolerating values already stored). */
  allowInvalidLabelValueInSelector: boolean;
}

const setOperators: readonly string[] = ['In', 'NotIn'];
const existenceOperators: readonly string[] = ['Exists', 'DoesNotExist'];

function valuesOf(r: LabelSelectorRequirement): string[] {
  return Array.isArray(r.values) ? r.values : [];
}

function expressionsOf(s: LabelSelector): LabelSelectorRequirement[] {
  return Array.isArray(s.matchExpressions) ? s.matchExpressions.map((r) => r ?? {}) : [];
}

/** matchLabels in key order (Go walks the map in random order; sorted keeps tests stable). */
function labelsOf(s: LabelSelector): [string, string][] {
  const m = s.matchLabels;
  if (!m || typeof m !== 'object') return [];
  return Object.keys(m)
    .sort()
    .map((k) => [k, m[k] ?? '']);
}

function validateLabelName(name: string, path: string): FieldError[] {
  return isQualifiedName(name).map((msg) => fieldErr.invalid(path, name, msg));
}

function validateRequirement(r: LabelSelectorRequirement, opts: LabelSelectorValidationOptions, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const operator = r.operator ?? '';
  const values = valuesOf(r);
  if (setOperators.includes(operator)) {
    if (values.length === 0) errs.push(fieldErr.required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (existenceOperators.includes(operator)) {
    if (values.length > 0) errs.push(fieldErr.forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  } else {
    errs.push(fieldErr.invalid(`${path}.operator`, operator, 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(r.key ?? '', `${path}.key`));
  if (!opts.allowInvalidLabelValueInSelector) {
    values.forEach((v, i) => {
      for (const msg of isValidLabelValue(v)) errs.push(fieldErr.invalid(`${path}.values[${i}]`, v, msg));
    });
  }
  return errs;
}

/** Upstream's ValidateLabelSelector: matchLabels errors sit on the map path, without the key. */
export function validateLabelSelector(s: LabelSelector, opts: LabelSelectorValidationOptions, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of labelsOf(s)) {
    errs.push(...validateLabelName(k, `${path}.matchLabels`));
    for (const msg of isValidLabelValue(v)) errs.push(fieldErr.invalid(`${path}.matchLabels`, v, msg));
  }
  expressionsOf(s).forEach((r, i) => errs.push(...validateRequirement(r, opts, `${path}.matchExpressions[${i}]`)));
  return errs;
}

/**
 * Whether upstream's LabelSelectorAsSelector refuses the selector. Its checks do not honour
 * allowInvalidLabelValueInSelector, so a stored invalid value still fails here.
 */
export function labelSelectorConversionFails(s: LabelSelector): boolean {
  const labels = labelsOf(s);
  const expressions = expressionsOf(s);
  if (labels.length + expressions.length === 0) return false;
  const badKey = (k: string): boolean => isQualifiedName(k).length > 0;
  const badValue = (v: string): boolean => isValidLabelValue(v).length > 0;
  if (labels.some(([k, v]) => badKey(k) || badValue(v))) return true;
  return expressions.some((r) => {
    const operator = r.operator ?? '';
    const values = valuesOf(r);
    if (setOperators.includes(operator)) {
      if (values.length === 0) return true;
    } else if (existenceOperators.includes(operator)) {
      if (values.length > 0) return true;
    } else {
      return true;
    }
    return badKey(r.key ?? '') || values.some(badValue);
  });
}
