// Defaults must be valid for the node they sit on (upstream's structural defaulting
// ValidateDefaults). This checks the value's JSON type against the schema's types, recursively
// through object properties and array items, with kube-openapi's type message; enum, bounds,
// patterns, pruning and CEL rules of defaults are not checked here (the schema-values helper's
// validator does those for custom resources).
import type { JSONSchemaProps } from '../../api';
import { fieldErr, type FieldError } from '../../machinery/fieldErrors';
import { asSchema, entries, itemsSchema, maxSchemaDepth } from './schemaWalk';

const metaFields = new Set(['metadata', 'kind', 'apiVersion']);

/** kube-openapi's name of a JSON value's type. */
function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'boolean' : 'string';
}

function typeMatches(s: JSONSchemaProps, v: unknown): boolean {
  const t = jsonType(v);
  if (t === 'null') return s.nullable === true || (!s.type && !s['x-kubernetes-int-or-string']);
  if (s['x-kubernetes-int-or-string'] === true) return t === 'integer' || t === 'string';
  if (!s.type) return true;
  return s.type === t || (s.type === 'number' && t === 'integer');
}

/** The errors of one default value against its node, with kube-openapi's names within the value. */
function checkValue(s: JSONSchemaProps, v: unknown, base: string, name: string, depth: number, out: FieldError[]): void {
  if (depth > maxSchemaDepth) return;
  if (!typeMatches(s, v)) {
    const path = name ? `${base}.${name}` : base;
    out.push(fieldErr.typeInvalid(path, jsonType(v), `${name} in body must be of type ${s.type ?? ''}: "${jsonType(v)}"`));
    return;
  }
  if (typeof v !== 'object' || v === null) return;
  if (Array.isArray(v)) {
    const items = itemsSchema(s);
    if (items) v.forEach((x, i) => checkValue(items, x, base, `${name}[${i}]`, depth + 1, out));
    return;
  }
  for (const [k, p] of entries(s.properties)) {
    if (Object.hasOwn(v, k)) checkValue(p, (v as Record<string, unknown>)[k], base, name ? `${name}.${k}` : k, depth + 1, out);
  }
}

/**
 * Defaults of a structural schema: the root is a resource (its metadata, kind and apiVersion
 * defaults are forbidden elsewhere and not re-checked), additionalProperties are not followed
 * (defaults are forbidden there), embedded resources start a new resource.
 */
export function validateDefaults(s: JSONSchemaProps, path: string, root = true, depth = 0): FieldError[] {
  if (depth > maxSchemaDepth) return [];
  const errs: FieldError[] = [];
  if (s.default !== undefined && s.default !== null) checkValue(s, s.default, `${path}.default`, '', depth, errs);
  const items = itemsSchema(s);
  if (items) errs.push(...validateDefaults(items, `${path}.items`, false, depth + 1));
  const resource = root || s['x-kubernetes-embedded-resource'] === true;
  for (const [k, p] of entries(s.properties)) {
    if (resource && metaFields.has(k)) continue;
    const child = asSchema(p);
    if (child) errs.push(...validateDefaults(child, `${path}.properties[${k}]`, false, depth + 1));
  }
  return errs;
}
