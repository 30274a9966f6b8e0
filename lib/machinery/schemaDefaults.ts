// Schema defaulting of a custom resource (custom-resources.md §12), as upstream's structural
// defaulting: first the nulls a schema neither allows nor defaults are dropped
// (PruneNonNullableNullsWithoutDefaults), then, top-down, every property with a default that is
// absent or a null it does not allow gets a deep copy of the default, as do null map values and
// null list items of such a schema; the defaulted values are then descended into like the rest.
// Runs on every write (the request's version) and on every read from etcd (the stored version).
import type { FieldSchema, ObjectSchema, SchemaJson } from '../api/schema';
import { deepCopy } from './deepCopy';
import { isJsonObject, setOwn } from './jsonValue';

/** Deeper than the decoders ever produce (they stop at 1000): a guard, not a limit anyone meets. */
const maxDepth = 1100;

/** What a schema node says about its children: named fields, one schema for every key, or items. */
interface Children {
  fields?: Readonly<Record<string, FieldSchema>>;
  values?: FieldSchema;
  items?: FieldSchema;
}

function childrenOf(f: FieldSchema): Children {
  switch (f.type) {
    case 'object':
      return { fields: f.ref().fields };
    case 'map':
      return { values: f.values };
    case 'array':
      return { items: f.items };
    default:
      return {};
  }
}

const own = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

function schemaForKey(c: Children, k: string): FieldSchema | undefined {
  if (c.fields) return own(c.fields, k) ? c.fields[k] : undefined;
  return c.values;
}

const nonNullableNull = (v: unknown, f: FieldSchema | undefined): boolean => v === null && f !== undefined && !f.nullable;
const copyOf = (d: SchemaJson): unknown => deepCopy(d);

function pruneNulls(v: unknown, c: Children, depth: number): void {
  if (depth > maxDepth) return;
  if (isJsonObject(v)) {
    for (const k of Object.keys(v)) {
      const f = schemaForKey(c, k);
      if (nonNullableNull(v[k], f) && f!.default === undefined) delete v[k];
      else if (f) pruneNulls(v[k], childrenOf(f), depth + 1);
    }
  } else if (Array.isArray(v) && c.items) {
    for (const x of v) pruneNulls(x, childrenOf(c.items), depth + 1);
  }
}

function applyDefaults(v: unknown, c: Children, depth: number): void {
  if (depth > maxDepth) return;
  if (isJsonObject(v)) {
    if (c.fields) {
      for (const [k, f] of Object.entries(c.fields)) {
        if (f.default === undefined) continue;
        if (!own(v, k) || nonNullableNull(v[k], f)) setOwn(v, k, copyOf(f.default));
      }
    }
    for (const k of Object.keys(v)) {
      const f = schemaForKey(c, k);
      if (!f) continue;
      if (!c.fields && nonNullableNull(v[k], f) && f.default !== undefined) setOwn(v, k, copyOf(f.default));
      applyDefaults(v[k], childrenOf(f), depth + 1);
    }
  } else if (Array.isArray(v) && c.items) {
    const items = c.items;
    for (let i = 0; i < v.length; i++) {
      if (nonNullableNull(v[i], items) && items.default !== undefined) v[i] = copyOf(items.default);
      applyDefaults(v[i], childrenOf(items), depth + 1);
    }
  }
}

/** Drops the nulls the schema does not allow and fills in its defaults, in place. */
export function applySchemaDefaults(schema: ObjectSchema, obj: unknown): void {
  const root: Children = { fields: schema.fields };
  pruneNulls(obj, root, 0);
  applyDefaults(obj, root, 0);
}
