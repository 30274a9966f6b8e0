// JSON values become CEL values (spec §4.10.2): integers are BigInt (CEL int is int64), object
// property names are escaped, inaccessible properties are dropped. Map keys stay as they are.
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
    if (field?.type === 'integer' || (field === undefined || field.type === 'any') && Number.isInteger(v)) return BigInt(v);
    return v;
  }
  if (Array.isArray(v)) {
    const list = v.map((x) => toCelValue(x, field?.type === 'array' ? field.items : undefined, escape));
    if (field?.type !== 'array') return list;
    // set and map lists compare ignoring order and add as union/merge (spec §4.10.5)
    if (field.listType === 'set') return tagList(list, { type: 'set' });
    if (field.listType === 'map') {
      const keys = (field.listMapKeys ?? []).map((k) => (escape ? (escapeName(k) ?? k) : k));
      return tagList(list, { type: 'map', keys });
    }
    return list;
  }
  if (typeof v !== 'object') return v;
  // Library values (the authorizer) are class instances: handed over as they are.
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (field?.type === 'map') {
      out[k] = toCelValue(x, field.values, escape);
      continue;
    }
    const ident = escape ? escapeName(k) : k;
    if (ident === undefined) continue;
    out[ident] = toCelValue(x, field?.type === 'object' ? field.ref().fields[k] : undefined, escape);
  }
  return out;
}
