// The schema parts the model keeps as free JSON (items, additionalProperties, additionalItems,
// dependencies: a schema or a list/bool) get the shape Go's decoder gives them when they hold
// schemas: known fields only, in JSONSchemaProps' order. (Go's strict decoding would refuse the
// unknown ones; here they are dropped silently.)
import { JSONSchemaPropsSchema, type JSONSchemaProps } from '../../api';
import { normalize } from '../../codec/normalize';
import { maxSchemaDepth } from './schemaWalk';

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function schemaValue(v: unknown, depth: number): unknown {
  if (!isPlainObject(v)) return v;
  const s = normalize(v, JSONSchemaPropsSchema) as JSONSchemaProps;
  canonicalizeSchema(s, depth + 1);
  return s;
}

/** Rewrites, in place and depth-bounded, every free-form schema below s. */
export function canonicalizeSchema(s: JSONSchemaProps | undefined, depth = 0): void {
  if (!isPlainObject(s) || depth > maxSchemaDepth) return;
  if (Array.isArray(s.items)) s.items = s.items.map((x) => schemaValue(x, depth) as JSONSchemaProps);
  else if (s.items !== undefined) s.items = schemaValue(s.items, depth) as JSONSchemaProps;
  if (s.additionalProperties !== undefined) s.additionalProperties = schemaValue(s.additionalProperties, depth) as JSONSchemaProps | boolean;
  if (s.additionalItems !== undefined) s.additionalItems = schemaValue(s.additionalItems, depth) as JSONSchemaProps | boolean;
  if (isPlainObject(s.dependencies)) {
    for (const k of Object.keys(s.dependencies)) s.dependencies[k] = schemaValue(s.dependencies[k], depth) as JSONSchemaProps | string[];
  }
  for (const m of [s.properties, s.patternProperties, s.definitions]) {
    if (isPlainObject(m)) for (const child of Object.values(m)) canonicalizeSchema(child as JSONSchemaProps, depth + 1);
  }
  for (const list of [s.allOf, s.anyOf, s.oneOf]) if (Array.isArray(list)) for (const child of list as unknown[]) canonicalizeSchema(child as JSONSchemaProps, depth + 1);
  canonicalizeSchema(s.not as JSONSchemaProps | undefined, depth + 1);
}
