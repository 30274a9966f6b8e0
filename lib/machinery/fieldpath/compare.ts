// What changed between two objects, as field sets (structured-merge-diff's TypedValue.Compare):
// the input of ownership tracking for every write. Leaves are compared by value; a container
// (list element, granular map or list) that appears or disappears is itself added or removed.
// Struct-typed fields are not: upstream compares against Go zero values, where a struct field
// is always present, so it never records `.` for one.
import type { FieldSchema, ObjectSchema } from '../../api/schema';
import { deepEqual } from '../deepEqual';
import type { JsonObject, JsonValue } from '../jsonValue';
import { isJsonObject } from '../jsonValue';
import { FieldSet } from './fieldSet';
import type { PathElement } from './pathElement';
import { pe, serializePathElement } from './pathElement';
import { isEmptyContainer, listItemElement, memberSchema, nodeKind, rootField, type NodeKind } from './schemaWalk';

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

export function compareObjects(oldObj: JsonValue | undefined, newObj: JsonValue | undefined, schema: ObjectSchema): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  walk(c, oldObj, newObj, rootField(schema), [], false);
  return c;
}

// `path` is one stack shared by the whole walk (pushed and popped around each member): FieldSet
// insert keeps the elements, not the array, and most nodes insert nothing.

function leaf(c: Comparison, l: JsonValue | undefined, r: JsonValue | undefined, path: PathElement[]): void {
  if (!path.length || l === r) return;
  if (l === undefined) c.added.insert(path);
  else if (r === undefined) c.removed.insert(path);
  else if (!deepEqual(l, r)) c.modified.insert(path);
}

function shapeOk(k: NodeKind, v: JsonValue | undefined): boolean {
  return v === undefined || v === null || (k.kind === 'list' ? Array.isArray(v) : isJsonObject(v));
}

function walk(c: Comparison, l: JsonValue | undefined, r: JsonValue | undefined, f: FieldSchema, path: PathElement[], structField: boolean): void {
  if (l === undefined && r === undefined) return;
  const k = nodeKind(f);
  // Both sides empty (or of the wrong shape): compare as a value, keeping null vs {} apart.
  if (k.kind === 'leaf' || (isEmptyContainer(l) && isEmptyContainer(r)) || !shapeOk(k, l) || !shapeOk(k, r)) {
    leaf(c, l, r, path);
    return;
  }
  if (path.length && !(structField && k.kind === 'struct')) {
    if (l === undefined) c.added.insert(path);
    else if (r === undefined) c.removed.insert(path);
  }
  if (k.kind === 'list') {
    const li = listItems(k, l);
    const ri = listItems(k, r);
    for (const [key, x] of ri) {
      path.push(x.e);
      walk(c, li.get(key)?.item, x.item, k.items, path, false);
      path.pop();
    }
    for (const [key, x] of li) {
      if (ri.has(key)) continue;
      path.push(x.e);
      walk(c, x.item, undefined, k.items, path, false);
      path.pop();
    }
    return;
  }
  const lo = isJsonObject(l) ? l : {};
  const ro = isJsonObject(r) ? r : {};
  // The new object's members, then those only the old one has (no set of names built).
  for (const name in ro) if (hasOwn.call(ro, name)) member(c, k, lo, ro, name, path);
  for (const name in lo) if (hasOwn.call(lo, name) && !hasOwn.call(ro, name)) member(c, k, lo, ro, name, path);
}

const hasOwn = Object.prototype.hasOwnProperty;

function listItems(k: Extract<NodeKind, { kind: 'list' }>, v: JsonValue | undefined): Map<string, { e: PathElement; item: JsonValue }> {
  const m = new Map<string, { e: PathElement; item: JsonValue }>();
  if (Array.isArray(v)) {
    for (const item of v) {
      const e = listItemElement(k, item);
      m.set(serializePathElement(e), { e, item });
    }
  }
  return m;
}

function member(c: Comparison, k: NodeKind, lo: JsonObject, ro: JsonObject, name: string, path: PathElement[]): void {
  const cf = memberSchema(k, name);
  path.push(pe.field(name));
  walk(c, lo[name] as JsonValue | undefined, ro[name] as JsonValue | undefined, cf ?? anyField, path, k.kind === 'struct');
  path.pop();
}

const anyField: FieldSchema = { type: 'any' };
