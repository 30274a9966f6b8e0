// The field set an object sets (structured-merge-diff's TypedValue.ToFieldSet): what an applied
// configuration claims. Scalars, atomic values, list elements and map entries are members;
// structs and granular containers are reached through their members, unless null or empty.
import type { ObjectSchema } from '../../api/schema';
import type { FieldSchema } from '../../api/schema';
import type { JsonValue } from '../jsonValue';
import { isJsonObject } from '../jsonValue';
import { FieldSet } from './fieldSet';
import type { PathElement } from './pathElement';
import { pathString, pe } from './pathElement';
import { listItemElement, memberSchema, nodeKind, rootField } from './schemaWalk';

/** Thrown for a field the schema does not declare; message as upstream's (`.spec.foo: field not declared in schema`). */
export class FieldNotDeclaredError extends Error {}

export function fieldSetOf(obj: JsonValue, schema: ObjectSchema): FieldSet {
  const set = new FieldSet();
  visit(set, obj, rootField(schema), []);
  return set;
}

function visit(set: FieldSet, v: JsonValue, f: FieldSchema, path: PathElement[]): void {
  const k = nodeKind(f);
  if (k.kind === 'leaf') {
    if (path.length) set.insert(path);
    return;
  }
  if (k.kind === 'list') {
    if (!Array.isArray(v)) return;
    for (const item of v) {
      const p = [...path, listItemElement(k, item)];
      visit(set, item, k.items, p);
      set.insert(p);
    }
    return;
  }
  if (!isJsonObject(v)) return;
  for (const [name, child] of Object.entries(v)) {
    const p = [...path, pe.field(name)];
    const cf = memberSchema(k, name);
    if (!cf) throw new FieldNotDeclaredError(`${pathString(p)}: field not declared in schema`);
    visit(set, child as JsonValue, cf, p);
    const empty = child === null || (isJsonObject(child) && Object.keys(child).length === 0);
    if (k.kind === 'map' || empty) set.insert(p);
  }
}
