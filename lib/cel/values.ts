// JSON values become CEL values (spec §4.10.2): integers are BigInt (CEL int is int64), object
// property names are escaped, inaccessible properties are dropped. Map keys stay as they are.
// Copy on write: a part that needs no change is handed over as it is (cel-js never mutates its
// inputs), so converting a request's object allocates only around its numbers and typed lists.
import type { FieldTree } from './references';
import type { FieldSchema } from '../api/schema';
import { escapeName } from './escaping';
import { tagList } from './listTypes';

/**
 * `escape` false keeps property names as they are: admission policies see objects as upstream's
 * unstructured maps (no escaping), so `object.metadata.namespace` and `request.namespace` work.
 */
export function toCelValue(v: unknown, field?: FieldSchema, escape = true): unknown {
  if (v === null || v === undefined) return v;
  if (typeof v === 'number') {
    if (field?.type === 'integer' || ((field === undefined || field.type === 'any' || field.type === 'intOrString') && Number.isInteger(v))) return BigInt(v);
    return v;
  }
  if (Array.isArray(v)) {
    const items = field?.type === 'array' ? field.items : undefined;
    let list: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      const c = toCelValue(x, items, escape);
      if (c !== x && !list) list = v.slice(0, i);
      list?.push(c);
    }
    if (field?.type !== 'array' || !field.listType || field.listType === 'atomic') return list ?? v;
    // set and map lists compare ignoring order and add as union/merge (spec §4.10.5); tagged on a copy
    const copy = list ?? [...(v as unknown[])];
    if (field.listType === 'set') return tagList(copy, { type: 'set' });
    const keys = (field.listMapKeys ?? []).map((k) => (escape ? (escapeName(k) ?? k) : k));
    return tagList(copy, { type: 'map', keys });
  }
  if (typeof v !== 'object') return v;
  // Library values (the authorizer) are class instances: handed over as they are.
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return v;
  const src = v as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  const keys = Object.keys(src);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const x = src[k];
    let ident: string | undefined = k;
    let c: unknown;
    if (field?.type === 'map') c = toCelValue(x, field.values, escape);
    else {
      ident = escape ? escapeName(k) : k;
      c = ident === undefined ? undefined : toCelValue(x, field?.type === 'object' ? field.ref().fields[k] : undefined, escape);
    }
    if (!out && (ident !== k || c !== x)) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]!] = src[keys[j]!];
    }
    if (out && ident !== undefined) out[ident] = c;
  }
  return out ?? v;
}

/**
 * toCelValue (unescaped) of only the fields `tree` selects: the selected fields are converted
 * whole, the objects on the way hold just the selected keys that exist. An expression whose reads
 * of the value are those selections sees exactly what the full conversion would give it.
 */
export function projectCelValue(v: unknown, field: FieldSchema | undefined, tree: FieldTree): unknown {
  if (tree.all || !tree.fields || v === null || typeof v !== 'object' || Array.isArray(v)) return toCelValue(v, field, false);
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return v;
  const src = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, sub] of tree.fields) {
    if (!Object.prototype.hasOwnProperty.call(src, k)) continue;
    const child = field?.type === 'map' ? field.values : field?.type === 'object' ? field.ref().fields[k] : undefined;
    out[k] = projectCelValue(src[k], child, sub);
  }
  return out;
}
