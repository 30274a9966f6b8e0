// JSON values become CEL values (spec §4.10.2): integers are BigInt (CEL int is int64), object
// property names are escaped, inaccessible properties are dropped. Map keys stay as they are.
import type { FieldSchema } from '../api/schema';
import { escapeName } from './escaping';

export function toCelValue(v: unknown, field?: FieldSchema): unknown {
  if (v === null || v === undefined) return v;
  if (typeof v === 'number') {
    if (field?.type === 'integer' || (field === undefined || field.type === 'any') && Number.isInteger(v)) return BigInt(v);
    return v;
  }
  if (Array.isArray(v)) return v.map((x) => toCelValue(x, field?.type === 'array' ? field.items : undefined));
  if (typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (field?.type === 'map') {
      out[k] = toCelValue(x, field.values);
      continue;
    }
    const ident = escapeName(k);
    if (ident === undefined) continue;
    out[ident] = toCelValue(x, field?.type === 'object' ? field.ref().fields[k] : undefined);
  }
  return out;
}
