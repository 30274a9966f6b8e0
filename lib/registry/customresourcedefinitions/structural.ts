// Upstream's structural-schema rules (apiextensions-apiserver pkg/apiserver/schema: convert.go's
// unsupported fields, validation.go's invariants, complete.go's completeness), read directly from
// JSONSchemaProps: a node's type, items, properties and additionalProperties are its structure;
// the logical junctors (allOf, anyOf, oneOf, not) may only add value validations.
import type { JSONSchemaProps } from '../../api';
import { fieldErr, type FieldError, renderFieldError } from '../../machinery/fieldErrors';
import { LinearRegex } from '../../machinery/linearRegex';
import { asSchema, entries, itemsSchema, maxSchemaDepth, schemaOrBool } from './schemaWalk';

type Level = 'root' | 'item' | 'field';

const isTrue = (v: unknown): boolean => v === true;
const nonEmpty = (v: unknown): boolean => Array.isArray(v) && v.length > 0;
const defined = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * NewStructural's first error, if the schema cannot be read as structural at all (fields that
 * have no place in a structural schema, items given as a list).
 */
export function structuralConversionError(s: JSONSchemaProps | undefined, depth = 0): string | undefined {
  if (!s || depth > maxSchemaDepth) return undefined;
  if (s.id) return "OpenAPIV3Schema 'id' is not supported";
  if (s.$schema) return "OpenAPIV3Schema 'schema' is not supported";
  if (s.$ref !== undefined && s.$ref !== null) return "OpenAPIV3Schema '$ref' is not supported";
  if (entries(s.patternProperties).length) return "OpenAPIV3Schema 'patternProperties' is not supported";
  if (defined(s.dependencies)) return "OpenAPIV3Schema 'dependencies' is not supported";
  if (defined(s.additionalItems)) return "OpenAPIV3Schema 'additionalItems' is not supported";
  if (entries(s.definitions).length) return "OpenAPIV3Schema 'definitions' is not supported";
  if (Array.isArray(s.items)) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  if (s['x-kubernetes-preserve-unknown-fields'] === false) return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  const children: unknown[] = [s.items, s.not, ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? []), ...entries(s.properties).map(([, c]) => c), s.additionalProperties];
  for (const c of children) {
    const err = structuralConversionError(asSchema(c), depth + 1);
    if (err) return err;
  }
  return undefined;
}

/** Upstream's ValidateStructural: invariants and completeness, sorted by message as upstream sorts them. */
export function validateStructural(path: string, s: JSONSchemaProps): FieldError[] {
  const errs = [...invariants(s, 'root', path, 0), ...completeness(s, s, path, path, 0)];
  const rendered = errs.map((e) => [renderFieldError(e), e] as const);
  rendered.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return rendered.map(([, e]) => e);
}

/** A junctor entry that is exactly `{type: t}` (the int-or-string pattern's halves). */
function isOnlyType(v: JSONSchemaProps | undefined, t: string): boolean {
  if (!v || v.type !== t) return false;
  // example and externalDocs have no place in the structural form, so they do not count.
  return Object.entries(v).every(([k, x]) => k === 'type' || k === 'example' || k === 'externalDocs' || !meaningful(k, x));
}

function meaningful(key: string, v: unknown): boolean {
  if (v === undefined || v === null || v === '') return false;
  if (v === false) return key === 'x-kubernetes-preserve-unknown-fields';
  return true;
}

const isIntOrStringAnyOf = (anyOf: JSONSchemaProps[] | undefined): boolean =>
  !!anyOf && anyOf.length === 2 && isOnlyType(anyOf[0], 'integer') && isOnlyType(anyOf[1], 'string');

function invariants(s: JSONSchemaProps, lvl: Level, path: string, depth: number): FieldError[] {
  if (depth > maxSchemaDepth) return [];
  const errs: FieldError[] = [];
  const items = itemsSchema(s);
  if (s.type === 'array' && !items) errs.push(fieldErr.required(`${path}.items`, 'must be specified'));
  if (items) errs.push(...invariants(items, 'item', `${path}.items`, depth + 1));
  for (const [k, p] of entries(s.properties)) errs.push(...invariants(p, 'field', `${path}.properties[${k}]`, depth + 1));
  const additional = schemaOrBool(s.additionalProperties);
  if (additional) {
    if (lvl === 'root') errs.push(fieldErr.forbidden(`${path}.additionalProperties`, 'must not be used at the root'));
    if (additional.schema) errs.push(...invariants(additional.schema, 'field', `${path}.additionalProperties`, depth + 1));
  }
  const preserve = isTrue(s['x-kubernetes-preserve-unknown-fields']);
  const embedded = isTrue(s['x-kubernetes-embedded-resource']);
  const intOrString = isTrue(s['x-kubernetes-int-or-string']);
  if (intOrString && preserve) errs.push(fieldErr.invalid(`${path}.x-kubernetes-preserve-unknown-fields`, true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded) errs.push(fieldErr.invalid(`${path}.x-kubernetes-embedded-resource`, true, 'must be false if x-kubernetes-int-or-string is true'));

  const skipAnyOf = isIntOrStringAnyOf(s.anyOf);
  const skipFirstAllOfAnyOf = (s.allOf ?? []).length >= 1 && isIntOrStringAnyOf(s.allOf?.[0]?.anyOf);
  errs.push(...valueValidation(s, skipAnyOf, skipFirstAllOfAnyOf, path, depth));

  const type = s.type ?? '';
  if (embedded && type !== 'object') {
    const detail = 'must be object if x-kubernetes-embedded-resource is true';
    errs.push(type ? fieldErr.invalid(`${path}.type`, type, detail) : fieldErr.required(`${path}.type`, detail));
  } else if (!type && !intOrString && !preserve) {
    const where = lvl === 'root' ? 'at the root' : lvl === 'item' ? 'for specified array items' : 'for specified object fields';
    errs.push(fieldErr.required(`${path}.type`, `must not be empty ${where}`));
  }
  if (embedded && additional) errs.push(fieldErr.forbidden(`${path}.additionalProperties`, 'must not be used if x-kubernetes-embedded-resource is set'));
  if (lvl === 'root' && type && type !== 'object') errs.push(fieldErr.invalid(`${path}.type`, type, 'must be object at the root'));

  const checkMetadata = lvl === 'root' || embedded;
  const props = s.properties ?? {};
  for (const meta of ['kind', 'apiVersion'] as const) {
    const p = asSchema(props[meta]);
    if (p && checkMetadata && p.type !== 'string') errs.push(fieldErr.invalid(`${path}.properties[${meta}].type`, p.type ?? '', 'must be string'));
  }
  const metadata = asSchema(props.metadata);
  if (metadata) errs.push(...metadataInvariants(metadata, checkMetadata, lvl, `${path}.properties[metadata]`));
  if (embedded && !preserve && entries(s.properties).length === 0) {
    errs.push(fieldErr.required(`${path}.properties`, 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errs;
}

/** Keys a structural node may carry and still be "nothing but name and generateName" as root metadata. */
const ignoredInMetadata = new Set(['type', 'default', 'properties', 'example', 'externalDocs']);

function metadataInvariants(s: JSONSchemaProps, checkMetadata: boolean, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && s.type !== 'object') errs.push(fieldErr.invalid(`${path}.type`, s.type ?? '', 'must be object'));
  if (lvl === 'root') {
    const names = Object.keys(s.properties ?? {});
    const onlyNames = names.every((n) => n === 'name' || n === 'generateName');
    const other = Object.entries(s).some(([k, v]) => !ignoredInMetadata.has(k) && meaningful(k, v));
    if (!onlyNames || other) {
      errs.push(fieldErr.forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
    }
  }
  return errs;
}

function valueValidation(v: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, path: string, depth: number): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf) (v.anyOf ?? []).forEach((n, i) => errs.push(...nested(asSchema(n), false, false, `${path}.anyOf[${i}]`, depth + 1)));
  (v.allOf ?? []).forEach((n, i) => errs.push(...nested(asSchema(n), skipFirstAllOfAnyOf && i === 0, false, `${path}.allOf[${i}]`, depth + 1)));
  (v.oneOf ?? []).forEach((n, i) => errs.push(...nested(asSchema(n), false, false, `${path}.oneOf[${i}]`, depth + 1)));
  errs.push(...nested(asSchema(v.not), false, false, `${path}.not`, depth + 1));
  if (v.pattern) {
    try {
      LinearRegex.compile(v.pattern);
    } catch (e) {
      errs.push(fieldErr.invalid(`${path}.pattern`, v.pattern, `must be a valid regular expression, but isn't: ${(e as Error).message}`));
    }
  }
  return errs;
}

/** A schema under a junctor: only value validations, nothing that defines structure. */
function nested(v: JSONSchemaProps | undefined, skipAnyOf: boolean, skipAllOfAnyOf: boolean, path: string, depth: number): FieldError[] {
  if (!v || depth > maxSchemaDepth) return [];
  const errs = valueValidation(v, skipAnyOf, skipAllOfAnyOf, path, depth);
  errs.push(...nested(itemsSchema(v), false, false, `${path}.items`, depth + 1));
  for (const [k, p] of entries(v.properties)) errs.push(...nested(p, false, false, `${path}.properties[${k}]`, depth + 1));
  const additional = schemaOrBool(v.additionalProperties)?.schema;
  if (v.type) errs.push(fieldErr.forbidden(`${path}.type`, 'must be empty to be structural'));
  if (additional) errs.push(fieldErr.forbidden(`${path}.additionalProperties`, 'must be undefined to be structural'));
  if (defined(v.default)) errs.push(fieldErr.forbidden(`${path}.default`, 'must be undefined to be structural'));
  if (v.title) errs.push(fieldErr.forbidden(`${path}.title`, 'must be empty to be structural'));
  if (v.description) errs.push(fieldErr.forbidden(`${path}.description`, 'must be empty to be structural'));
  if (isTrue(v.nullable)) errs.push(fieldErr.forbidden(`${path}.nullable`, 'must be false to be structural'));
  for (const x of ['x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string'] as const) {
    if (isTrue(v[x])) errs.push(fieldErr.forbidden(`${path}.${x}`, 'must be false to be structural'));
  }
  if (nonEmpty(v['x-kubernetes-list-map-keys'])) errs.push(fieldErr.forbidden(`${path}.x-kubernetes-list-map-keys`, 'must be empty to be structural'));
  if (defined(v['x-kubernetes-list-type'])) errs.push(fieldErr.forbidden(`${path}.x-kubernetes-list-type`, 'must be undefined to be structural'));
  if (defined(v['x-kubernetes-map-type'])) errs.push(fieldErr.forbidden(`${path}.x-kubernetes-map-type`, 'must be undefined to be structural'));
  if (nonEmpty(v['x-kubernetes-validations'])) errs.push(fieldErr.forbidden(`${path}.x-kubernetes-validations`, 'must be empty to be structural'));
  if (asSchema(v.properties?.metadata)) errs.push(fieldErr.forbidden(`${path}.properties[metadata]`, 'must not be specified in a nested context'));
  return errs;
}

/** Every value validation under a junctor must have a structural counterpart (complete.go). */
function completeness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string, depth: number): FieldError[] {
  if (depth > maxSchemaDepth) return [];
  if (!s) return [fieldErr.required(sPath, `because it is defined in ${vPath}`)];
  const errs: FieldError[] = [];
  errs.push(...nestedCompleteness(asSchema(v.not), s, sPath, `${vPath}.not`, depth + 1));
  (v.allOf ?? []).forEach((n, i) => errs.push(...nestedCompleteness(asSchema(n), s, sPath, `${vPath}.allOf[${i}]`, depth + 1)));
  (v.anyOf ?? []).forEach((n, i) => errs.push(...nestedCompleteness(asSchema(n), s, sPath, `${vPath}.anyOf[${i}]`, depth + 1)));
  (v.oneOf ?? []).forEach((n, i) => errs.push(...nestedCompleteness(asSchema(n), s, sPath, `${vPath}.oneOf[${i}]`, depth + 1)));
  return errs;
}

function nestedCompleteness(v: JSONSchemaProps | undefined, s: JSONSchemaProps | undefined, sPath: string, vPath: string, depth: number): FieldError[] {
  if (!v || depth > maxSchemaDepth) return [];
  if (!s) return [fieldErr.required(sPath, `because it is defined in ${vPath}`)];
  const errs = completeness(v, s, sPath, vPath, depth);
  const vItems = itemsSchema(v);
  if (vItems) errs.push(...nestedCompleteness(vItems, itemsSchema(s), `${sPath}.items`, `${vPath}.items`, depth + 1));
  for (const [k, p] of entries(v.properties)) {
    const sp = asSchema(s.properties?.[k]);
    if (!sp) errs.push(fieldErr.required(`${sPath}.properties[${k}]`, `because it is defined in ${vPath}.properties[${k}]`));
    else errs.push(...nestedCompleteness(p, sp, `${sPath}.properties[${k}]`, `${vPath}.properties[${k}]`, depth + 1));
  }
  return errs;
}

/** Whether a schema is structural (upstream's schemaIsNonStructural, negated). */
export function isStructural(s: JSONSchemaProps | undefined): boolean {
  if (!s) return true;
  return structuralConversionError(s) === undefined && validateStructural('', s).length === 0;
}

