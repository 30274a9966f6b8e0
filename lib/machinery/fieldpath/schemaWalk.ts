// How the schema's markers shape field paths (structured-merge-diff's schema.Atom): which nodes
// are leaves, and how list elements are named. One place reads the markers, so field sets,
// compare, merge and removal agree.
import type { ArrayField, FieldSchema, ObjectSchema } from '../../api/schema';
import type { JsonValue } from '../jsonValue';
import { getOwn, isJsonObject } from '../jsonValue';
import type { PathElement } from './pathElement';
import { pe } from './pathElement';

export type NodeKind =
  | { readonly kind: 'leaf' }
  | { readonly kind: 'struct'; readonly schema: ObjectSchema }
  | { readonly kind: 'map'; readonly values: FieldSchema }
  | { readonly kind: 'list'; readonly items: FieldSchema; readonly elements: 'set' | 'map'; readonly keys: readonly string[] };

const roots = new WeakMap<ObjectSchema, FieldSchema>();

/** The root of an object of this schema (one per schema, so its node kind is worked out once). */
export function rootField(schema: ObjectSchema): FieldSchema {
  let f = roots.get(schema);
  if (!f) roots.set(schema, (f = { type: 'object', ref: () => schema }));
  return f;
}

const leafKind: NodeKind = { kind: 'leaf' };
const kinds = new WeakMap<FieldSchema, NodeKind>();

/** Worked out once per schema field (every write walks the whole object through it); shared, so read-only. */
export function nodeKind(f: FieldSchema | undefined): NodeKind {
  if (!f) return leafKind;
  let k = kinds.get(f);
  if (!k) kinds.set(f, (k = kindOf(f)));
  return k;
}

function kindOf(f: FieldSchema): NodeKind {
  switch (f.type) {
    case 'object':
      return f.mapType === 'atomic' ? { kind: 'leaf' } : { kind: 'struct', schema: f.ref() };
    case 'map':
      return f.mapType === 'atomic' ? { kind: 'leaf' } : { kind: 'map', values: f.values };
    case 'array':
      return listKind(f);
    default:
      return { kind: 'leaf' };
  }
}

// Spec §4.8.9: an explicit list type wins; otherwise patchStrategy=merge reads as a map list on
// the merge key (or a set of scalars without one); any other list is atomic.
function listKind(f: ArrayField): NodeKind {
  const merge = f.patchStrategy?.split(',').includes('merge') ?? false;
  const type = f.listType ?? (merge ? (f.patchMergeKey ? 'map' : 'set') : 'atomic');
  if (type === 'atomic') return { kind: 'leaf' };
  if (type === 'set') return { kind: 'list', items: f.items, elements: 'set', keys: [] };
  const keys = f.listMapKeys ?? (f.patchMergeKey ? [f.patchMergeKey] : []);
  return { kind: 'list', items: f.items, elements: 'map', keys };
}

/**
 * The element naming a list item; throws when a map-list item lacks every key field. A key
 * field present with null names the item too, as upstream's keyed path elements do (a
 * configuration passes typed validation with one).
 */
export function listItemElement(k: Extract<NodeKind, { kind: 'list' }>, item: JsonValue): PathElement {
  if (k.elements === 'set') return pe.value(item);
  if (!isJsonObject(item)) throw new Error('associative list with keys may only contain maps');
  const fields: Record<string, JsonValue> = {};
  for (const key of k.keys) {
    const v = getOwn(item, key);
    if (v !== undefined) fields[key] = v as JsonValue;
  }
  if (Object.keys(fields).length === 0) throw new Error(`associative list with keys has an element that omits key field "${k.keys[0]}"`);
  return pe.key(fields);
}

/** The schema of a struct's member; undefined for a field the schema does not declare. */
export function memberSchema(k: NodeKind, name: string): FieldSchema | undefined {
  if (k.kind === 'struct') return getOwn(k.schema.fields, name) as FieldSchema | undefined;
  if (k.kind === 'map') return k.values;
  return undefined;
}

export function isEmptyContainer(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isJsonObject(v)) return Object.keys(v).length === 0;
  return false;
}
