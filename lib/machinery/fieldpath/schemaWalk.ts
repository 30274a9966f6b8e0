// How the schema's markers shape field paths (structured-merge-diff's schema.Atom): which nodes
// are leaves, and how list elements are named. One place reads the markers, so field sets,
// compare, merge and removal agree.
import type { ArrayField, FieldSchema, ObjectSchema } from '../../api/schema';
import type { JsonValue } from '../jsonValue';
import { getOwn, isJsonObject } from '../jsonValue';
import type { PathElement } from './pathElement';
import { pe } from './pathElement';

export type NodeKind =
  | { kind: 'leaf' }
  | { kind: 'struct'; schema: ObjectSchema }
  | { kind: 'map'; values: FieldSchema }
  | { kind: 'list'; items: FieldSchema; elements: 'set' | 'map'; keys: readonly string[] };

/** The root of an object of this schema. */
export function rootField(schema: ObjectSchema): FieldSchema {
  return { type: 'object', ref: () => schema };
}

export function nodeKind(f: FieldSchema | undefined): NodeKind {
  if (!f) return { kind: 'leaf' };
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

/** The element naming a list item; throws when a map-list item lacks every key field. */
export function listItemElement(k: Extract<NodeKind, { kind: 'list' }>, item: JsonValue): PathElement {
  if (k.elements === 'set') return pe.value(item);
  if (!isJsonObject(item)) throw new Error('associative list with keys may only contain maps');
  const fields: Record<string, JsonValue> = {};
  for (const key of k.keys) {
    const v = getOwn(item, key);
    if (v !== undefined && v !== null) fields[key] = v as JsonValue;
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
