// Reading JSONSchemaProps as upstream's Go types do (items: schema or list; additionalProperties:
// schema or bool) and upstream's SchemaHas walk. Walks are depth-bounded: a request body nests
// at most maxProcessedNesting levels, and each schema level is at least one of them.
import type { JSONSchemaProps } from '../../api';
import { maxProcessedNesting } from '../../machinery/nesting';

export const maxSchemaDepth = maxProcessedNesting;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const asSchema = (v: unknown): JSONSchemaProps | undefined => (isPlainObject(v) ? (v as JSONSchemaProps) : undefined);

/** items as a single schema (JSONSchemaPropsOrArray.Schema). */
export const itemsSchema = (s: JSONSchemaProps): JSONSchemaProps | undefined => asSchema(s.items);

/** items given as a list (JSONSchemaPropsOrArray.JSONSchemas). */
export const itemsList = (s: JSONSchemaProps): JSONSchemaProps[] => (Array.isArray(s.items) ? s.items.filter(isPlainObject) : []);

export const hasItems = (s: JSONSchemaProps): boolean => s.items !== undefined && s.items !== null;

/** additionalProperties / additionalItems: absent, a bool (Allows) or a schema (Allows true). */
export interface SchemaOrBool {
  allows: boolean;
  schema?: JSONSchemaProps;
}

export function schemaOrBool(v: unknown): SchemaOrBool | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return { allows: v };
  const schema = asSchema(v);
  return schema ? { allows: true, schema } : { allows: false };
}

export const entries = <T>(m: Record<string, T> | undefined | null): [string, T][] =>
  isPlainObject(m) ? Object.keys(m).sort().map((k) => [k, m[k]] as [string, T]) : [];

/** Upstream's SchemaHas: does pred hold at any node (junctors, items, properties, …). */
export function schemaHas(s: JSONSchemaProps | undefined, pred: (s: JSONSchemaProps) => boolean, depth = 0): boolean {
  if (!s || depth > maxSchemaDepth) return false;
  if (pred(s)) return true;
  const next = (c: unknown): boolean => schemaHas(asSchema(c), pred, depth + 1);
  if (next(s.items) || itemsList(s).some(next)) return true;
  if ((s.allOf ?? []).some(next) || (s.anyOf ?? []).some(next) || (s.oneOf ?? []).some(next) || next(s.not)) return true;
  if (entries(s.properties).some(([, c]) => next(c))) return true;
  if (next(s.additionalProperties)) return true;
  if (entries(s.patternProperties).some(([, c]) => next(c))) return true;
  if (next(s.additionalItems)) return true;
  if (entries(s.definitions).some(([, c]) => next(c))) return true;
  return entries(s.dependencies).some(([, c]) => next(c));
}
