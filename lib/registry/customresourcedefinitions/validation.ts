// Upstream's ValidateCustomResourceDefinition / …Update / …Status (apiextensions validation.go,
// Kubernetes 1.32), on the internal view of the spec (internalSpec.ts) so paths match upstream's.
// ObjectMeta's generic rules are the store's; the name rule that depends on the spec is here.
import { crdConditionTrue, crdConditionTypes, labelDomain, productDomain, type CustomResourceDefinition, type CustomResourceDefinitionNames, type CustomResourceColumnDefinition, type CustomResourceSubresources, type JSONSchemaProps } from '../../api';
import { deepEqual } from '../../machinery/deepEqual';
import { fieldErr, type FieldError } from '../../machinery/fieldErrors';
import { parseRequestURI } from '../../machinery/goUrl';
import { isDNS1035Label, isDNS1123Subdomain } from '../../machinery/validation/names';
import { validateConversion } from './conversionValidation';
import { hasAnyStatusEnabled, hasStatusEnabled, internalSpec, type InternalSpec, specSchemas, subresourcesForVersion } from './internalSpec';
import { validateCustomResourceValidation, type SchemaValidationOptions } from './schemaValidation';
import { schemaHas } from './schemaWalk';
import { validateSelectableFields } from './selectableFields';
import { isStructural } from './structural';

const printerColumnTypes = ['boolean', 'date', 'integer', 'number', 'string'];
const printerColumnFormats = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
const openapiV3Types = new Set(['array', 'boolean', 'integer', 'number', 'object', 'string']);


/** ValidateCustomResourceDefinitionNames (spec.names and status.acceptedNames). */
export function validateNames(names: CustomResourceDefinitionNames | undefined, path: string): FieldError[] {
  const n = names ?? {};
  const errs: FieldError[] = [];
  const label = (field: string, value: string | undefined, lower: boolean): void => {
    if (!value) return;
    const msgs = isDNS1035Label(lower ? value.toLowerCase() : value);
    if (msgs.length) errs.push(fieldErr.invalid(`${path}.${field}`, value, (lower ? 'may have mixed case, but should otherwise match: ' : '') + msgs.join(',')));
  };
  label('plural', n.plural, false);
  label('singular', n.singular, false);
  label('kind', n.kind, true);
  label('listKind', n.listKind, true);
  (n.shortNames ?? []).forEach((s, i) => {
    const msgs = isDNS1035Label(s);
    if (msgs.length) errs.push(fieldErr.invalid(`${path}.shortNames[${i}]`, s, msgs.join(',')));
  });
  if (n.kind && n.kind === n.listKind) errs.push(fieldErr.invalid(`${path}.listKind`, n.listKind, 'kind and listKind may not be the same'));
  (n.categories ?? []).forEach((c, i) => {
    const msgs = isDNS1035Label(c);
    if (msgs.length) errs.push(fieldErr.invalid(`${path}.categories[${i}]`, c, msgs.join(',')));
  });
  return errs;
}

/** validateSimpleJSONPath */
function simpleJSONPathErrors(s: string, path: string): FieldError[] {
  if (s.length === 0) return [fieldErr.invalid(path, s, 'must not be empty')];
  if (s[0] !== '.') return [fieldErr.invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

/** ValidateCustomResourceColumnDefinition (the jsonPath error path is spelled JSONPath upstream). */
export function validateColumn(col: CustomResourceColumnDefinition, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!col.name) errs.push(fieldErr.required(`${path}.name`));
  const typesMsg = `must be one of ${printerColumnTypes.join(',')}`;
  if (!col.type) errs.push(fieldErr.required(`${path}.type`, typesMsg));
  else if (!printerColumnTypes.includes(col.type)) errs.push(fieldErr.invalid(`${path}.type`, col.type, typesMsg));
  if (col.format && !printerColumnFormats.includes(col.format)) {
    errs.push(fieldErr.invalid(`${path}.format`, col.format, `must be one of ${printerColumnFormats.join(',')}`));
  }
  if (!col.jsonPath) errs.push(fieldErr.required(`${path}.JSONPath`));
  else errs.push(...simpleJSONPathErrors(col.jsonPath, `${path}.JSONPath`));
  return errs;
}

/** ValidateCustomResourceDefinitionSubresources */
export function validateSubresources(sub: CustomResourceSubresources | undefined, path: string): FieldError[] {
  const scale = sub?.scale;
  if (!scale) return [];
  const errs: FieldError[] = [];
  const check = (value: string | undefined, field: string, prefixes: string[], detail: string, required: boolean): void => {
    const p = `${path}.scale.${field}`;
    if (!value) {
      if (required) errs.push(fieldErr.required(p));
      return;
    }
    const pathErrs = simpleJSONPathErrors(value, p);
    if (pathErrs.length) errs.push(...pathErrs);
    else if (!prefixes.some((x) => value.startsWith(x))) errs.push(fieldErr.invalid(p, value, detail));
  };
  check(scale.specReplicasPath, 'specReplicasPath', ['.spec.'], 'should be a json path under .spec', true);
  check(scale.statusReplicasPath, 'statusReplicasPath', ['.status.'], 'should be a json path under .status', true);
  check(scale.labelSelectorPath, 'labelSelectorPath', ['.spec.', '.status.'], 'should be a json path under either .spec or .status', false);
  return errs;
}

/** validateDeprecationWarning: rune indexes are byte offsets, as Go's range over a string gives. */
export function deprecationWarningErrors(deprecated: boolean, warning: string | undefined): string[] {
  if (!deprecated && warning !== undefined) return ['can only be set for deprecated versions'];
  if (warning === undefined) return [];
  const errs: string[] = [];
  const bytes = Buffer.byteLength(warning, 'utf8');
  if (bytes > 256) errs.push('must be <= 256 characters long');
  if (bytes === 0) errs.push('must not be an empty string');
  let offset = 0;
  for (const ch of warning) {
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch)) {
      errs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${offset}`);
      break;
    }
    offset += Buffer.byteLength(ch, 'utf8');
  }
  return errs;
}

export interface ValidationOptions extends SchemaValidationOptions {
  requireRecognizedConversionReviewVersion: boolean;
  requireImmutableNames: boolean;
  requireOpenAPISchema: boolean;
}

function validateVersion(spec: InternalSpec, i: number, opts: SchemaValidationOptions): FieldError[] {
  const v = spec.versions[i];
  const path = `spec.versions[${i}]`;
  const errs: FieldError[] = [];
  for (const msg of deprecationWarningErrors(v.deprecated, v.deprecationWarning)) {
    errs.push(fieldErr.invalid(`${path}.deprecationWarning`, v.deprecationWarning ?? null, msg));
  }
  errs.push(...validateCustomResourceValidation(v.schema, hasStatusEnabled(subresourcesForVersion(spec, v)), opts, `${path}.schema`));
  errs.push(...validateSubresources(v.subresources, `${path}.subresources`));
  v.additionalPrinterColumns.forEach((c, j) => errs.push(...validateColumn(c, `${path}.additionalPrinterColumns[${j}]`)));
  if (v.selectableFields.length > 0) {
    if (!v.schema?.openAPIV3Schema) {
      errs.push(fieldErr.invalid(`${path}.selectableFields`, '', 'selectableFields may only be set when version.schema.openAPIV3Schema is not included'));
    } else {
      errs.push(...validateSelectableFields(v.selectableFields, v.schema.openAPIV3Schema, `${path}.selectableFields`));
    }
  }
  return errs;
}

function validateSpec(crd: CustomResourceDefinition, opts: ValidationOptions): FieldError[] {
  const spec = crd.spec ?? {};
  const internal = internalSpec(spec);
  const errs: FieldError[] = [];
  const group = spec.group ?? '';
  if (!group) errs.push(fieldErr.required('spec.group'));
  else {
    const msgs = isDNS1123Subdomain(group);
    if (msgs.length) errs.push(fieldErr.invalid('spec.group', group, msgs.join(',')));
    else if (group.split('.').length < 2) errs.push(fieldErr.invalid('spec.group', group, 'should be a domain with at least one dot'));
  }
  const scope = spec.scope ?? '';
  if (!scope) errs.push(fieldErr.required('spec.scope'));
  else if (scope !== 'Cluster' && scope !== 'Namespaced') errs.push(fieldErr.notSupported('spec.scope', scope, ['Cluster', 'Namespaced']));

  const preserveUnknownFields = spec.preserveUnknownFields === true;
  // Pruning (preserveUnknownFields false, the only v1 choice) requires structural schemas.
  const schemaOpts: SchemaValidationOptions = { ...opts, requireStructuralSchema: opts.requireStructuralSchema || !preserveUnknownFields };
  if (opts.requireOpenAPISchema) {
    if (!internal.validation?.openAPIV3Schema) {
      internal.versions.forEach((v, i) => {
        if (!v.schema?.openAPIV3Schema) errs.push(fieldErr.required(`spec.versions[${i}].schema.openAPIV3Schema`, 'schemas are required'));
      });
    }
  } else if (!preserveUnknownFields && !internal.validation?.openAPIV3Schema) {
    internal.versions.forEach((v, i) => {
      if (v.served && !v.schema?.openAPIV3Schema) errs.push(fieldErr.required(`spec.versions[${i}].schema.openAPIV3Schema`, 'because otherwise all fields are pruned'));
    });
  }
  const schemas = specSchemas(internal);
  if (opts.allowDefaults && schemas.some((s) => schemaHas(s, (n) => n.default !== undefined && n.default !== null))) {
    schemaOpts.requireStructuralSchema = true;
    if (preserveUnknownFields) errs.push(fieldErr.invalid('spec.preserveUnknownFields', true, 'must be false in order to use defaults in the schema'));
  }

  let storage = 0;
  const seen = new Set<string>();
  let unique = true;
  internal.versions.forEach((v, i) => {
    if (v.storage) storage++;
    if (seen.has(v.name)) unique = false;
    seen.add(v.name);
    const msgs = isDNS1035Label(v.name);
    if (msgs.length) errs.push(fieldErr.invalid(`spec.versions[${i}].name`, v.name, msgs.join(',')));
    errs.push(...validateVersion(internal, i, schemaOpts));
  });
  const versions = spec.versions ?? [];
  if (!unique) errs.push(fieldErr.invalid('spec.versions', versions, 'must contain unique version names'));
  if (storage !== 1) errs.push(fieldErr.invalid('spec.versions', versions, 'must have exactly one version marked as storage version'));

  const names = spec.names ?? {};
  if (!names.plural) errs.push(fieldErr.required('spec.names.plural'));
  if (!names.singular) errs.push(fieldErr.required('spec.names.singular'));
  if (!names.kind) errs.push(fieldErr.required('spec.names.kind'));
  if (!names.listKind) errs.push(fieldErr.required('spec.names.listKind'));
  errs.push(...validateNames(names, 'spec.names'));

  errs.push(...validateCustomResourceValidation(internal.validation, hasAnyStatusEnabled(internal), schemaOpts, 'spec.validation'));
  errs.push(...validateSubresources(internal.subresources, 'spec.subresources'));
  internal.additionalPrinterColumns.forEach((c, j) => errs.push(...validateColumn(c, `spec.additionalPrinterColumns[${j}]`)));
  if (internal.selectableFields.length > 0) {
    if (!internal.validation) errs.push(fieldErr.invalid('spec.selectableFields', '', 'selectableFields may only be set when validations.schema is included'));
    else if (internal.validation.openAPIV3Schema) errs.push(...validateSelectableFields(internal.selectableFields, internal.validation.openAPIV3Schema, 'spec.selectableFields'));
  }

  const conversion = spec.conversion;
  if (conversion && conversion.strategy !== 'None' && preserveUnknownFields) {
    errs.push(fieldErr.invalid('spec.conversion.strategy', conversion.strategy ?? '', 'must be None if spec.preserveUnknownFields is true'));
  }
  errs.push(...validateConversion(conversion, opts.requireRecognizedConversionReviewVersion, 'spec.conversion'));
  return errs;
}

/** ValidateCustomResourceDefinitionStoredVersions */
export function validateStoredVersions(crd: CustomResourceDefinition): FieldError[] {
  const stored = crd.status?.storedVersions ?? [];
  const path = 'status.storedVersions';
  if (stored.length === 0) return [fieldErr.invalid(path, stored, 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const index = new Map<string, number>();
  stored.forEach((v, i) => index.set(v, i));
  for (const v of crd.spec?.versions ?? []) {
    const name = v.name ?? '';
    if (v.storage === true && !index.has(name)) errs.push(fieldErr.invalid(path, stored, `must have the storage version ${name}`));
    index.delete(name);
  }
  for (const [v, i] of [...index].sort((a, b) => a[1] - b[1])) errs.push(fieldErr.invalid(`${path}[${i}]`, v, 'must appear in spec.versions'));
  return errs;
}

const approvalAnnotation = `api-approved.${labelDomain}`;
const approvalLink = 'https://github.com/kubernetes/enhancements/pull/1111';

type ApprovalState = 'invalid' | 'missing' | 'approved' | 'bypassed';

/** Groups reserved for the project's own APIs: upstream's *.k8s.io and *.kubernetes.io, and the product's own domain. */
export function isProtectedGroup(group: string): boolean {
  return ['k8s.io', 'kubernetes.io', productDomain, labelDomain].some((d) => group === d || group.endsWith(`.${d}`));
}

function approvalState(crd: CustomResourceDefinition): [ApprovalState, string] {
  const value = crd.metadata?.annotations?.[approvalAnnotation] ?? '';
  if (!value) return ['missing', `protected groups must have approval annotation "${approvalAnnotation}", see ${approvalLink}`];
  if (value.startsWith('unapproved')) return ['bypassed', `not approved: "${value}"`];
  let approved = false;
  try {
    const u = parseRequestURI(value);
    approved = u.host.length > 0 && u.scheme.length > 0;
  } catch {
    approved = false;
  }
  if (approved) return ['approved', `approved in ${value}`];
  return ['invalid', `protected groups must have approval annotation "${approvalAnnotation}" with either a URL or a reason starting with "unapproved", see ${approvalLink}`];
}

/** validateAPIApproval: unchanged approval state is not re-checked on update. */
function validateAPIApproval(crd: CustomResourceDefinition, old: CustomResourceDefinition | undefined): FieldError[] {
  if (!isProtectedGroup(crd.spec?.group ?? '')) return [];
  const [state, reason] = approvalState(crd);
  if (old && approvalState(old)[0] === state) return [];
  const path = `metadata.annotations[${approvalAnnotation}]`;
  if (state === 'missing') return [fieldErr.required(path, reason)];
  if (state === 'invalid') return [fieldErr.invalid(path, crd.metadata?.annotations?.[approvalAnnotation] ?? '', reason)];
  return [];
}

function validatePreserveUnknownFields(crd: CustomResourceDefinition, old: CustomResourceDefinition | undefined): FieldError[] {
  if (old?.spec?.preserveUnknownFields === true) return [];
  if (crd.spec?.preserveUnknownFields === true) {
    return [fieldErr.invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead')];
  }
  return [];
}

/**
 * The name rule that needs the spec (upstream's nameValidationFn, which ValidateObjectMeta also
 * applies to generateName: a generated name can never match).
 */
function validateNameMatchesSpec(crd: CustomResourceDefinition): FieldError[] {
  const required = `${crd.spec?.names?.plural ?? ''}.${crd.spec?.group ?? ''}`;
  const detail = 'must be spec.names.plural+"."+spec.group';
  const errs: FieldError[] = [];
  const generateName = crd.metadata?.generateName ?? '';
  if (generateName && generateName !== required) errs.push(fieldErr.invalid('metadata.generateName', generateName, detail));
  const name = crd.metadata?.name ?? '';
  if (name !== required) errs.push(fieldErr.invalid('metadata.name', name, detail));
  return errs;
}

const createOptions: ValidationOptions = {
  allowDefaults: true,
  requireRecognizedConversionReviewVersion: true,
  requireImmutableNames: false,
  requireOpenAPISchema: true,
  requireValidPropertyType: true,
  requireStructuralSchema: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
};

/** ValidateCustomResourceDefinition */
export function validateCustomResourceDefinition(crd: CustomResourceDefinition): FieldError[] {
  return [
    ...validateNameMatchesSpec(crd),
    ...validateSpec(crd, createOptions),
    ...validateNames(crd.status?.acceptedNames, 'status.acceptedNames'),
    ...validateStoredVersions(crd),
    ...validateAPIApproval(crd, undefined),
    ...validatePreserveUnknownFields(crd, undefined),
  ];
}

function oldSchemasHave(old: CustomResourceDefinition, pred: (s: JSONSchemaProps) => boolean): boolean {
  return specSchemas(internalSpec(old.spec ?? {})).some((s) => schemaHas(s, pred));
}

/** Update options: rules an existing object already breaks are not tightened on it (upstream's require* helpers). */
function updateOptions(old: CustomResourceDefinition): ValidationOptions {
  const oldInternal = internalSpec(old.spec ?? {});
  const reviewVersions = old.spec?.conversion?.webhook?.conversionReviewVersions ?? [];
  const allVersionsHaveSchema = !!oldInternal.validation?.openAPIV3Schema || oldInternal.versions.every((v) => !!v.schema?.openAPIV3Schema);
  return {
    allowDefaults: true,
    requireRecognizedConversionReviewVersion: !old.spec?.conversion || reviewVersions.length === 0 || reviewVersions.some((v) => v === 'v1' || v === 'v1beta1'),
    requireImmutableNames: crdConditionTrue(old, crdConditionTypes.established),
    requireOpenAPISchema: allVersionsHaveSchema,
    requireValidPropertyType: !oldSchemasHave(old, (s) => !!s.type && !openapiV3Types.has(s.type)),
    requireStructuralSchema: specSchemas(oldInternal).every((s) => isStructural(s)),
    requireAtomicSetType: !oldSchemasHave(old, hasNonAtomicSetType),
    requireMapListKeysMapSetValidation: !oldSchemasHave(old, hasInvalidMapListKeysMapSet),
  };
}

function hasNonAtomicSetType(s: JSONSchemaProps): boolean {
  const items = s.items && !Array.isArray(s.items) ? s.items : undefined;
  if (s['x-kubernetes-list-type'] !== 'set' || !items) return false;
  if (items.type === 'array') return items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic';
  if (items.type === 'object') return items['x-kubernetes-map-type'] !== 'atomic';
  return false;
}

function hasInvalidMapListKeysMapSet(s: JSONSchemaProps): boolean {
  const items = s.items && !Array.isArray(s.items) ? s.items : undefined;
  const listType = s['x-kubernetes-list-type'];
  if (!items || (listType !== 'set' && listType !== 'map')) return false;
  if (items.nullable === true) return true;
  if (listType !== 'map') return false;
  const required = new Set(items.required ?? []);
  return (s['x-kubernetes-list-map-keys'] ?? []).some((k) => {
    const p = items.properties?.[k];
    return !!p && ((!required.has(k) && (p.default === undefined || p.default === null)) || p.nullable === true);
  });
}

/** ValidateCustomResourceDefinitionUpdate */
export function validateCustomResourceDefinitionUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): FieldError[] {
  const opts = updateOptions(old);
  const errs = validateSpec(crd, opts);
  const spec = crd.spec ?? {};
  const oldSpec = old.spec ?? {};
  const immutable = (path: string, a: unknown, b: unknown): void => {
    if (!deepEqual(a ?? '', b ?? '')) errs.push(fieldErr.invalid(path, a ?? '', 'field is immutable'));
  };
  if (opts.requireImmutableNames) {
    immutable('spec.scope', spec.scope, oldSpec.scope);
    immutable('spec.names.kind', spec.names?.kind, oldSpec.names?.kind);
  }
  immutable('spec.group', spec.group, oldSpec.group);
  immutable('spec.names.plural', spec.names?.plural, oldSpec.names?.plural);
  return [
    ...errs,
    ...validateNames(crd.status?.acceptedNames, 'status.acceptedNames'),
    ...validateStoredVersions(crd),
    ...validateAPIApproval(crd, old),
    ...validatePreserveUnknownFields(crd, old),
  ];
}

/** ValidateUpdateCustomResourceDefinitionStatus (ObjectMeta's update rules are the store's). */
export function validateCustomResourceDefinitionStatusUpdate(crd: CustomResourceDefinition): FieldError[] {
  return validateNames(crd.status?.acceptedNames, 'status.acceptedNames');
}
