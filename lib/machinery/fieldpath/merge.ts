// Typed merge and removal (structured-merge-diff's TypedValue.Merge and RemoveItems): how an
// applied configuration lands on the live object, and how fields an applier gave up leave it.
// The schema's markers decide: leaves and atomic values are replaced whole, structs and granular
// maps merge member-wise, set and map lists merge element-wise keeping the live order for
// elements only the live side has and the configuration's order for shared ones.
import type { FieldSchema, ObjectSchema } from '../../api/schema';
import type { JsonObject, JsonValue } from '../jsonValue';
import { getOwn, isJsonObject, setOwn } from '../jsonValue';
import type { FieldSet } from './fieldSet';
import type { PathElement } from './pathElement';
import { pe, serializePathElement } from './pathElement';
import type { NodeKind } from './schemaWalk';
import { listItemElement, memberSchema, nodeKind, rootField } from './schemaWalk';

/** live merged with config, config winning; neither argument is modified. */
export function mergeObjects(live: JsonValue | undefined, config: JsonValue, schema: ObjectSchema): JsonValue {
  return merge(live, config, rootField(schema));
}

function merge(l: JsonValue | undefined, r: JsonValue | undefined, f: FieldSchema | undefined): JsonValue {
  if (r === undefined) return structuredClone(l as JsonValue);
  if (l === undefined || l === null || r === null) return structuredClone(r);
  const k = nodeKind(f);
  if (k.kind === 'list' && Array.isArray(l) && Array.isArray(r)) return mergeList(l, r, k);
  if ((k.kind === 'struct' || k.kind === 'map') && isJsonObject(l) && isJsonObject(r)) {
    const out: JsonObject = structuredClone(l);
    for (const name of Object.keys(r)) {
      setOwn(out, name, merge(getOwn(l, name) as JsonValue | undefined, r[name], memberSchema(k, name)));
    }
    return out;
  }
  return structuredClone(r);
}

type ListKind = Extract<NodeKind, { kind: 'list' }>;

function mergeList(l: JsonValue[], r: JsonValue[], k: ListKind): JsonValue[] {
  const keyed = (items: JsonValue[]) => items.map((item) => ({ key: serializePathElement(listItemElement(k, item)), item }));
  const lhs = keyed(l);
  const rhs = keyed(r);
  const inL = new Map(lhs.map((x) => [x.key, x.item]));
  const inR = new Map(rhs.map((x) => [x.key, x.item]));
  // Elements on both sides, in the configuration's order: the order the output follows.
  const shared = rhs.filter((x) => inL.has(x.key)).map((x) => x.key);
  const done = new Set<string>();
  const out: JsonValue[] = [];
  const take = (key: string) => {
    done.add(key);
    out.push(merge(inL.get(key), inR.get(key), k.items));
    if (shared[0] === key) shared.shift();
  };
  let li = 0;
  let ri = 0;
  while (li < lhs.length || ri < rhs.length) {
    if (li < lhs.length && ri < rhs.length) {
      const key = lhs[li].key;
      if (key === rhs[ri].key) {
        take(key);
        li++;
        ri++;
        continue;
      }
      // A shared element that is not next in the configuration's order waits for its turn.
      if (inR.has(key) && shared.length && shared[0] !== key) {
        li++;
        continue;
      }
    }
    if (li < lhs.length) {
      const key = lhs[li].key;
      if (!inR.has(key)) {
        out.push(structuredClone(lhs[li].item));
        li++;
        continue;
      }
      if (done.has(key)) {
        li++;
        continue;
      }
    }
    if (ri < rhs.length) {
      const key = rhs[ri].key;
      if (!done.has(key)) take(key);
      ri++;
    }
  }
  return out;
}

/** obj without the members of set (a member's whole subtree goes); obj is not modified. */
export function removeItems(obj: JsonValue, set: FieldSet, schema: ObjectSchema): JsonValue {
  return remove(obj, set, [], rootField(schema));
}

function remove(v: JsonValue, set: FieldSet, path: PathElement[], f: FieldSchema | undefined): JsonValue {
  const k = nodeKind(f);
  if (k.kind === 'list' && Array.isArray(v)) {
    const out: JsonValue[] = [];
    for (const item of v) {
      const p = [...path, listItemElement(k, item)];
      if (set.has(p)) continue;
      out.push(set.hasDescendants(p) ? remove(item, set, p, k.items) : item);
    }
    return out;
  }
  if ((k.kind === 'struct' || k.kind === 'map') && isJsonObject(v)) {
    const out: JsonObject = {};
    for (const [name, child] of Object.entries(v)) {
      const p = [...path, pe.field(name)];
      if (set.has(p)) continue;
      setOwn(out, name, set.hasDescendants(p) ? remove(child as JsonValue, set, p, memberSchema(k, name)) : child);
    }
    return out;
  }
  return v;
}

/**
 * set plus every struct field above one of its members (upstream's EnsureNamedFieldsAreMembers),
 * so that pruning a struct's last owned member may take the struct with it.
 */
export function withNamedParents(set: FieldSet, schema: ObjectSchema): FieldSet {
  const out = set.copy();
  set.iterate((p) => {
    let k = nodeKind(rootField(schema));
    for (let i = 0; i < p.length - 1; i++) {
      const e = p[i];
      if (k.kind === 'struct' && e.kind === 'field') {
        const cf = memberSchema(k, e.name);
        if (!cf) break;
        out.insert(p.slice(0, i + 1));
        k = nodeKind(cf);
      } else if (k.kind === 'map' && e.kind === 'field') {
        k = nodeKind(k.values);
      } else if (k.kind === 'list') {
        k = nodeKind(k.items);
      } else break;
    }
  });
  return out;
}
