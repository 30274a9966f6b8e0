// Upstream's validateCustomResourceDefinitionValidation and ValidateCustomResourceDefinitionOpenAPISchema
// (apiextensions validation.go): the keywords a CRD schema may use, the root restrictions with a
// status subresource, the structural rules, list and map extensions, defaults and the static
// parts of x-kubernetes-validations. Properties are visited in sorted order (upstream: Go's map order).
// Not done here: compiling the CEL rules and their cost estimates.
import type { JSONSchemaProps } from '../../api';
import { fieldErr, type FieldError } from '../../machinery/fieldErrors';
import { validateDefaults } from './defaultValues';
import type { CustomResourceValidation } from './internalSpec';
import { asSchema, entries, hasItems, itemsList, itemsSchema, maxSchemaDepth, schemaOrBool } from './schemaWalk';
import { resolveFieldPath } from './selectableFields';
import { structuralConversionError, validateStructural } from './structural';

export interface SchemaValidationOptions {
  allowDefaults: boolean;
  requireValidPropertyType: boolean;
  requireStructuralSchema: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
}

const openapiV3Types = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const supportedValidationReasons = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const metaFields = new Set(['metadata', 'kind', 'apiVersion']);

/** JSONSchemaProps' fields in Go struct order, with their Go names (the root-with-status rule names them). */
const goFieldNames: readonly (readonly [keyof JSONSchemaProps, string])[] = [
  ['id', 'ID'], ['$schema', 'Schema'], ['$ref', 'Ref'], ['description', 'Description'], ['type', 'Type'], ['format', 'Format'],
  ['title', 'Title'], ['default', 'Default'], ['maximum', 'Maximum'], ['exclusiveMaximum', 'ExclusiveMaximum'], ['minimum', 'Minimum'],
  ['exclusiveMinimum', 'ExclusiveMinimum'], ['maxLength', 'MaxLength'], ['minLength', 'MinLength'], ['pattern', 'Pattern'],
  ['maxItems', 'MaxItems'], ['minItems', 'MinItems'], ['uniqueItems', 'UniqueItems'], ['multipleOf', 'MultipleOf'], ['enum', 'Enum'],
  ['maxProperties', 'MaxProperties'], ['minProperties', 'MinProperties'], ['required', 'Required'], ['items', 'Items'], ['allOf', 'AllOf'],
  ['oneOf', 'OneOf'], ['anyOf', 'AnyOf'], ['not', 'Not'], ['properties', 'Properties'], ['additionalProperties', 'AdditionalProperties'],
  ['patternProperties', 'PatternProperties'], ['dependencies', 'Dependencies'], ['additionalItems', 'AdditionalItems'],
  ['definitions', 'Definitions'], ['externalDocs', 'ExternalDocs'], ['example', 'Example'], ['nullable', 'Nullable'],
  ['x-kubernetes-preserve-unknown-fields', 'XPreserveUnknownFields'], ['x-kubernetes-embedded-resource', 'XEmbeddedResource'],
  ['x-kubernetes-int-or-string', 'XIntOrString'], ['x-kubernetes-list-map-keys', 'XListMapKeys'], ['x-kubernetes-list-type', 'XListType'],
  ['x-kubernetes-map-type', 'XMapType'], ['x-kubernetes-validations', 'XValidations'],
];

const allowedAtRootWithStatus = [
  'Description', 'Type', 'Format', 'Title', 'Maximum', 'ExclusiveMaximum', 'Minimum', 'ExclusiveMinimum', 'MaxLength', 'MinLength',
  'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MultipleOf', 'Required', 'Items', 'Properties', 'ExternalDocs', 'Example',
  'XPreserveUnknownFields', 'XValidations',
];

/** Go's zero value of a field (a set pointer, even to false or 0, is not zero; plain bools and strings are). */
function isGoZero(key: string, v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (v === '') return true;
  return v === false && key !== 'x-kubernetes-preserve-unknown-fields';
}

interface Validator {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
  requireValidPropertyType: boolean;
}

/** specStandardValidatorV3.validate: keywords OpenAPI v3 schemas of CRDs may not use. */
function standardErrors(v: Validator, s: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (v.requireValidPropertyType && s.type && !openapiV3Types.includes(s.type)) errs.push(fieldErr.notSupported(`${path}.type`, s.type, openapiV3Types));
  if (s.default !== undefined && s.default !== null && !v.allowDefaults) {
    errs.push(fieldErr.forbidden(`${path}.default`, v.disallowDefaultsReason ? `must not be set ${v.disallowDefaultsReason}` : 'must not be set'));
  }
  if (s.id) errs.push(fieldErr.forbidden(`${path}.id`, 'id is not supported'));
  if (s.additionalItems !== undefined && s.additionalItems !== null) errs.push(fieldErr.forbidden(`${path}.additionalItems`, 'additionalItems is not supported'));
  if (entries(s.patternProperties).length) errs.push(fieldErr.forbidden(`${path}.patternProperties`, 'patternProperties is not supported'));
  if (entries(s.definitions).length) errs.push(fieldErr.forbidden(`${path}.definitions`, 'definitions is not supported'));
  if (s.dependencies !== undefined && s.dependencies !== null) errs.push(fieldErr.forbidden(`${path}.dependencies`, 'dependencies is not supported'));
  if (s.$ref !== undefined && s.$ref !== null) errs.push(fieldErr.forbidden(`${path}.$ref`, '$ref is not supported'));
  if (s.type === 'null') errs.push(fieldErr.forbidden(`${path}.type`, 'type cannot be set to null, use nullable as an alternative'));
  if (itemsList(s).length) errs.push(fieldErr.forbidden(`${path}.items`, 'items must be a schema object and not an array'));
  // Go's decoder refuses other JSON here (400); the free-form model lets it through to this point.
  for (const k of ['maximum', 'minimum', 'multipleOf'] as const) {
    const x: unknown = s[k];
    if (x !== undefined && x !== null && typeof x !== 'number') errs.push(fieldErr.typeInvalid(`${path}.${k}`, x, 'must be a number'));
  }
  for (const k of ['items', 'additionalProperties', 'additionalItems'] as const) {
    const x = s[k];
    if (x !== undefined && x !== null && typeof x !== 'object' && (k === 'items' || typeof x !== 'boolean')) {
      errs.push(fieldErr.typeInvalid(`${path}.${k}`, x, k === 'items' ? 'must be a schema or a list of schemas' : 'must be a schema or a boolean'));
    }
  }
  if (v.insideResourceMeta && s['x-kubernetes-embedded-resource'] === true) {
    errs.push(fieldErr.forbidden(`${path}.x-kubernetes-embedded-resource`, 'must not be used inside of resource meta'));
  }
  return errs;
}

/** validateMapListKeysMapSet: list-map keys required or defaulted and not nullable; set/map items not nullable. */
function mapListKeysMapSetErrors(s: JSONSchemaProps, path: string): FieldError[] {
  const items = itemsSchema(s);
  const listType = s['x-kubernetes-list-type'];
  if (!items || (listType !== 'set' && listType !== 'map')) return [];
  const errs: FieldError[] = [];
  if (items.nullable === true) errs.push(fieldErr.forbidden(`${path}.items.nullable`, `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType === 'map') {
    const required = new Set(items.required ?? []);
    for (const k of s['x-kubernetes-list-map-keys'] ?? []) {
      const p = asSchema(items.properties?.[k]);
      if (!p) continue;
      if (!required.has(k) && (p.default === undefined || p.default === null)) {
        errs.push(fieldErr.required(`${path}.items.properties[${k}].default`, 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
      }
      if (p.nullable === true) errs.push(fieldErr.forbidden(`${path}.items.properties[${k}].nullable`, 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
    }
  }
  return errs;
}

const hasNewlines = (s: string): boolean => /[\r\n]/.test(s);

/** The static checks of x-kubernetes-validations entries (the CEL compilation is not done here). */
function validationRuleErrors(s: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (s['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    const p = `${path}.x-kubernetes-validations[${i}]`;
    const r = rule ?? {};
    const trimmedRule = (r.rule ?? '').trim();
    const message = r.message ?? '';
    const trimmedMsg = message.trim();
    if (!trimmedRule) errs.push(fieldErr.required(`${p}.rule`, 'rule is not specified'));
    else if (message.length > 0 && !trimmedMsg) errs.push(fieldErr.invalid(`${p}.message`, message, 'message must be non-empty if specified'));
    else if (hasNewlines(trimmedMsg)) errs.push(fieldErr.invalid(`${p}.message`, message, 'message must not contain line breaks'));
    else if (hasNewlines(trimmedRule) && !trimmedMsg) errs.push(fieldErr.required(`${p}.message`, 'message must be specified if rule contains line breaks'));
    const messageExpression = r.messageExpression ?? '';
    if (messageExpression.length > 0 && !messageExpression.trim()) errs.push(fieldErr.required(`${p}.messageExpression`, 'messageExpression must be non-empty if specified'));
    if (r.reason !== undefined && r.reason !== null && !supportedValidationReasons.includes(r.reason)) {
      errs.push(fieldErr.notSupported(`${p}.reason`, r.reason, supportedValidationReasons));
    }
    const fieldPath = r.fieldPath ?? '';
    if (fieldPath.length > 0 && !fieldPath.trim()) errs.push(fieldErr.invalid(`${p}.fieldPath`, fieldPath, 'fieldPath must be non-empty if specified'));
    if (hasNewlines(fieldPath)) errs.push(fieldErr.invalid(`${p}.fieldPath`, fieldPath, 'fieldPath must not contain line breaks'));
    // Upstream resolves the path only where the node reads as structural.
    if (fieldPath.length > 0 && structuralConversionError(s) === undefined && typeof resolveFieldPath(fieldPath, s, true) === 'string') {
      errs.push(fieldErr.invalid(`${p}.fieldPath`, fieldPath, 'fieldPath must be a valid path'));
    }
  });
  return errs;
}

/** ValidateCustomResourceDefinitionOpenAPISchema, recursive. */
function openAPISchemaErrors(s: JSONSchemaProps | undefined, path: string, v: Validator, isRoot: boolean, opts: SchemaValidationOptions, depth: number): FieldError[] {
  if (!s || depth > maxSchemaDepth) return [];
  const errs = standardErrors(v, s, path);
  const recurse = (c: unknown, p: string, sub: Validator = v): FieldError[] => openAPISchemaErrors(asSchema(c), p, sub, false, opts, depth + 1);
  if (s.uniqueItems === true) errs.push(fieldErr.forbidden(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  const additional = schemaOrBool(s.additionalProperties);
  if (additional) {
    if (entries(s.properties).length && (!additional.allows || additional.schema)) {
      errs.push(fieldErr.forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
    }
    const sub = v.insideResourceMeta ? { ...v, allowDefaults: false, disallowDefaultsReason: 'inside additionalProperties applying to object metadata' } : v;
    errs.push(...recurse(additional.schema, `${path}.additionalProperties`, sub));
  }
  for (const [k, p] of entries(s.properties)) {
    let sub = v;
    if ((isRoot || s['x-kubernetes-embedded-resource'] === true) && metaFields.has(k)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = { ...sub, allowDefaults: false, disallowDefaultsReason: `in top-level ${k}` };
    }
    errs.push(...recurse(p, `${path}.properties[${k}]`, sub));
  }
  errs.push(...recurse(s.not, `${path}.not`));
  (s.allOf ?? []).forEach((c, i) => errs.push(...recurse(c, `${path}.allOf[${i}]`)));
  (s.oneOf ?? []).forEach((c, i) => errs.push(...recurse(c, `${path}.oneOf[${i}]`)));
  (s.anyOf ?? []).forEach((c, i) => errs.push(...recurse(c, `${path}.anyOf[${i}]`)));
  for (const [k, c] of entries(s.definitions)) errs.push(...recurse(c, `${path}.definitions[${k}]`));
  if (hasItems(s)) {
    errs.push(...recurse(itemsSchema(s), `${path}.items`));
    itemsList(s).forEach((c, i) => errs.push(...recurse(c, `${path}.items[${i}]`)));
  }
  for (const [k, c] of entries(s.dependencies)) errs.push(...recurse(c, `${path}.dependencies[${k}]`));

  if (s['x-kubernetes-preserve-unknown-fields'] === false) errs.push(fieldErr.invalid(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  const type = s.type ?? '';
  const mapType = s['x-kubernetes-map-type'];
  const listType = s['x-kubernetes-list-type'];
  const mapKeys = s['x-kubernetes-list-map-keys'] ?? [];
  if (mapType !== undefined && mapType !== null && type !== 'object') {
    const detail = 'must be object if x-kubernetes-map-type is specified';
    errs.push(type ? fieldErr.invalid(`${path}.type`, type, detail) : fieldErr.required(`${path}.type`, detail));
  }
  if (mapType !== undefined && mapType !== null && mapType !== 'atomic' && mapType !== 'granular') {
    errs.push(fieldErr.notSupported(`${path}.x-kubernetes-map-type`, mapType, ['atomic', 'granular']));
  }
  const items = itemsSchema(s);
  if (listType !== undefined && listType !== null && type !== 'array') {
    const detail = 'must be array if x-kubernetes-list-type is specified';
    errs.push(type ? fieldErr.invalid(`${path}.type`, type, detail) : fieldErr.required(`${path}.type`, detail));
  } else if (opts.requireAtomicSetType && listType === 'set' && items) {
    const itemListType = items['x-kubernetes-list-type'];
    if (items.type === 'array' && itemListType !== undefined && itemListType !== null && itemListType !== 'atomic') {
      errs.push(fieldErr.invalid(`${path}.items.x-kubernetes-list-type`, itemListType, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    } else if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      // Upstream prints the items' list type here (nil: null), not the map type.
      errs.push(fieldErr.invalid(`${path}.items.x-kubernetes-map-type`, itemListType ?? null, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (listType !== undefined && listType !== null && !['atomic', 'set', 'map'].includes(listType)) {
    errs.push(fieldErr.notSupported(`${path}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
  }
  if (mapKeys.length > 0) {
    if (listType === undefined || listType === null) errs.push(fieldErr.required(`${path}.x-kubernetes-list-type`, 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errs.push(fieldErr.invalid(`${path}.x-kubernetes-list-type`, listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') {
    if (mapKeys.length === 0) errs.push(fieldErr.required(`${path}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
    if (!hasItems(s)) errs.push(fieldErr.required(`${path}.items`, 'must have a schema if x-kubernetes-list-type is map'));
    if (hasItems(s) && !items) errs.push(fieldErr.invalid(`${path}.items`, s.items, 'must only have a single schema if x-kubernetes-list-type is map'));
    if (items && items.type !== 'object') {
      errs.push(fieldErr.invalid(`${path}.items.type`, items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    }
    if (items && items.type === 'object') {
      const seen = new Set<string>();
      for (const k of mapKeys) {
        const p = asSchema(items.properties?.[k]);
        if (p) {
          if (p.type === 'array' || p.type === 'object') {
            // Upstream prints the item's type (object), not the key's.
            errs.push(fieldErr.invalid(`${path}.items.properties[${k}].type`, items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
          }
        } else {
          errs.push(fieldErr.invalid(`${path}.x-kubernetes-list-map-keys`, mapKeys, 'entries must all be names of item properties'));
        }
        if (seen.has(k)) errs.push(fieldErr.invalid(`${path}.x-kubernetes-list-map-keys`, mapKeys, 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }
  if (opts.requireMapListKeysMapSetValidation) errs.push(...mapListKeysMapSetErrors(s, path));
  errs.push(...validationRuleErrors(s, path));
  return errs;
}

/** validateCustomResourceDefinitionValidation: one schema (spec.validation or a version's schema). */
export function validateCustomResourceValidation(validation: CustomResourceValidation | undefined, statusEnabled: boolean, opts: SchemaValidationOptions, path: string): FieldError[] {
  const schema = validation?.openAPIV3Schema;
  if (!schema) return [];
  const root = `${path}.openAPIV3Schema`;
  const errs: FieldError[] = [];
  if (statusEnabled) {
    for (const [key, goName] of goFieldNames) {
      if (isGoZero(key, schema[key])) continue;
      if (goName === 'Type') {
        if (schema.type !== 'object') {
          errs.push(fieldErr.invalid(`${root}.type`, schema.type, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
          break;
        }
        continue;
      }
      if (!allowedAtRootWithStatus.includes(goName)) {
        errs.push(fieldErr.invalid(root, schema, `only [${allowedAtRootWithStatus.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`));
        break;
      }
    }
  }
  if (schema.nullable === true) errs.push(fieldErr.forbidden(`${root}.nullable`, 'nullable cannot be true at the root'));

  const structuralInitErrs: FieldError[] = [];
  if (opts.requireStructuralSchema) {
    const conversion = structuralConversionError(schema);
    if (conversion) structuralInitErrs.push(fieldErr.invalid(root, '', conversion));
    else {
      const structural = validateStructural(root, schema);
      if (structural.length) errs.push(...structural);
      else errs.push(...validateDefaults(schema, root));
    }
  }
  const validator: Validator = { allowDefaults: opts.allowDefaults, disallowDefaultsReason: '', insideResourceMeta: false, requireValidPropertyType: opts.requireValidPropertyType };
  errs.push(...openAPISchemaErrors(schema, root, validator, true, opts, 0));
  // The structural converter's errors repeat the keyword errors above, so they only show alone.
  if (errs.length === 0) errs.push(...structuralInitErrs);
  return errs;
}
