// Uniqueness in a custom resource's x-kubernetes-list-type=set and =map lists, as upstream's
// listtype.ValidateListSetsAndMaps (custom-resources.md §13): the second appearance of an item
// (set) or of a key (map) is a Duplicate error, a later third one is not reported again; map-list
// items must be objects (or null, an item without key). Paths: `.field`, `[key]` for map values,
// `[i]` for items. Only custom-resource nodes are walked (metadata is ObjectMeta's own business).
import type { FieldSchema, ObjectSchema } from '../../api/schema';
import type { FieldError } from '../fieldErrors';
import { fieldErr } from '../fieldErrors';
import { isJsonObject, setOwn } from '../jsonValue';

/** Deeper than the decoders ever produce (they stop at 1000): a guard, not a limit anyone meets. */
const maxDepth = 1100;

/** json.Marshal of a value: map keys sorted, so equal compounds compare equal. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isJsonObject(v)) {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/** A copy with every object's keys sorted: Go prints its maps that way. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (isJsonObject(v)) {
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) setOwn(o, k, sorted(v[k]));
    return o;
  }
  return v;
}

/** Indexes of the second appearance of each repeated value. */
function secondAppearances(values: readonly unknown[], unspecified: ReadonlySet<number> = new Set()): number[] {
  const times = new Map<string, number>();
  const out: number[] = [];
  values.forEach((v, i) => {
    // An item without its key is a value of its own kind, equal only to another such item.
    const key = unspecified.has(i) ? '\u0000unspecified' : canonical(v);
    const n = times.get(key) ?? 0;
    if (n === 1) out.push(i);
    times.set(key, n + 1);
  });
  return out;
}

function listMap(path: string, keys: readonly string[], items: unknown[], errs: FieldError[]): void {
  const bad = items.findIndex((x) => x !== null && !isJsonObject(x));
  if (bad >= 0) {
    errs.push(fieldErr.invalid(`${path}[${bad}]`, items[bad], 'must be an object for an array of list-type map'));
    return;
  }
  if (items.length <= 1) return;
  const own = (o: Record<string, unknown>, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
  if (keys.length === 1) {
    const k = keys[0]!;
    const unspecified = new Set<number>();
    const values = items.map((x, i) => {
      if (x === null || !own(x as Record<string, unknown>, k)) unspecified.add(i);
      return x === null ? undefined : (x as Record<string, unknown>)[k];
    });
    for (const i of secondAppearances(values, unspecified)) errs.push(fieldErr.duplicate(`${path}[${i}]`, unspecified.has(i) ? {} : sorted({ [k]: values[i] })));
    return;
  }
  const keyed = items.map((x) => {
    const key: Record<string, unknown> = {};
    if (x !== null) for (const k of keys) if (own(x as Record<string, unknown>, k)) key[k] = (x as Record<string, unknown>)[k];
    return key;
  });
  for (const i of secondAppearances(keyed)) errs.push(fieldErr.duplicate(`${path}[${i}]`, sorted(keyed[i])));
}

function value(v: unknown, f: FieldSchema, path: string, depth: number, errs: FieldError[]): void {
  if (depth > maxDepth) return;
  if (Array.isArray(v)) {
    if (f.type !== 'array') return;
    if (f.listType === 'set') for (const i of secondAppearances(v)) errs.push(fieldErr.duplicate(`${path}[${i}]`, sorted(v[i])));
    else if (f.listType === 'map') listMap(path, f.listMapKeys ?? [], v, errs);
    v.forEach((x, i) => value(x, f.items, `${path}[${i}]`, depth + 1, errs));
  } else if (isJsonObject(v)) {
    if (f.type === 'map') for (const [k, x] of Object.entries(v)) value(x, f.values, `${path}[${k}]`, depth + 1, errs);
    else if (f.type === 'object') object(v, f.ref(), path, depth + 1, errs);
  }
}

function object(v: Record<string, unknown>, schema: ObjectSchema, path: string, depth: number, errs: FieldError[]): void {
  if (!schema.unstructured) return;
  for (const [k, x] of Object.entries(v)) {
    const f = Object.prototype.hasOwnProperty.call(schema.fields, k) ? schema.fields[k] : undefined;
    if (f) value(x, f, path ? `${path}.${k}` : k, depth, errs);
  }
}

/** Duplicate items of set lists and duplicate keys of map lists, anywhere in a custom resource. */
export function validateSchemaListTypes(schema: ObjectSchema, obj: unknown): FieldError[] {
  const errs: FieldError[] = [];
  if (isJsonObject(obj)) object(obj, schema, '', 0, errs);
  return errs;
}
