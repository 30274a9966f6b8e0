// Puts an object into the JSON shape Go's encoding/json gives the upstream type: fields in
// declaration order, map keys sorted, omitempty applied, unknown fields dropped.
//
// Emission rules (the schema has no Go pointer/omitempty flags, so they are inferred):
// - `alwaysEmit` or `required` fields have no omitempty: always written, an absent one as
//   its zero value ("" / 0 / false / {} for structs, filled recursively / null for bytes and
//   times / [] for lists / {} for maps; [] rather than Go's null so empty lists read "items": []).
// - other fields are omitempty: absent/null, "", [], {} are dropped; a struct that is present
//   is kept even when empty (Go never omits a struct; an optional one is a pointer).
// - integers and booleans that are present are kept even when 0/false: optional scalars are
//   pointers in the API conventions (automountServiceAccountToken: false must survive). The
//   few non-pointer ones upstream has are listed in `zeroIsEmpty`.
// - TypeMeta comes out as upstream writes it: kind, then apiVersion.
// A custom resource's nodes (ObjectSchema.unstructured) are written as Go writes
// map[string]interface{}: every key sorted, values as they are (no omitempty, no zero values),
// fields the schema does not know dropped (pruning) unless it preserves unknown fields; a typed
// child (metadata) keeps its rules but its keys are sorted too (upstream stores it as a map).
import { openapiDefinitionPrefix as P } from '../api/product';
import type { FieldSchema, ObjectSchema } from '../api/schema';
import { isShareableJson, setOwn } from '../machinery/jsonValue';
import { sortSmall } from '../machinery/sortSmall';
import { canonicalMicroTime, canonicalTime, microTimeOf } from './goTime';
import { emittedZero } from './goZero';

/** Non-pointer int fields with omitempty upstream, so 0 is dropped ("<definition>.<field>"). */
const zeroIsEmpty = new Set([
  `${P.meta}.ObjectMeta.generation`,
  `${P.meta}.Status.code`,
  `${P.meta}.StatusDetails.retryAfterSeconds`,
  // apiextensions v1: plain bools and ints with omitempty (types.go, types_jsonschema.go).
  ...['CustomResourceDefinitionSpec.preserveUnknownFields', 'CustomResourceDefinitionVersion.deprecated', 'CustomResourceColumnDefinition.priority'].map((n) => `${P.apiextensions}.${n}`),
  ...['exclusiveMaximum', 'exclusiveMinimum', 'uniqueItems', 'nullable', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string'].map((n) => `${P.apiextensions}.JSONSchemaProps.${n}`),
  `${P.api}.autoscaling.v1.ScaleSpec.replicas`,
]);

const OMIT = Symbol('omit');

const orderCache = new WeakMap<ObjectSchema, string[]>();

/** Schema field order, with a leading apiVersion/kind pair (TypeMeta) written kind first. */
export function emissionOrder(schema: ObjectSchema): readonly string[] {
  let order = orderCache.get(schema);
  if (!order) {
    order = Object.keys(schema.fields);
    const [a, b] = order;
    const isTypeMeta =
      order.length >= 2 &&
      new Set([a, b]).size === 2 &&
      [a, b].every((n) => (n === 'apiVersion' || n === 'kind') && !schema.fields[n].required);
    if (isTypeMeta) order = ['kind', 'apiVersion', ...order.slice(2)];
    orderCache.set(schema, order);
  }
  return order;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array) && !(v instanceof Date);

/** Go sorts map keys by their UTF-8 bytes, i.e. by code point. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(i) ?? 0;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

function timeText(v: unknown, micro = false): unknown {
  if (v instanceof Date) return micro ? microTimeOf(v) : canonicalTime(v.toISOString());
  if (typeof v === 'string') return (micro ? canonicalMicroTime(v) : canonicalTime(v)) ?? v;
  return v;
}

function bytesText(v: unknown): unknown {
  return v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v;
}

function clonePlain(v: unknown): unknown {
  if (isShareableJson(v)) return v;
  if (Array.isArray(v)) return v.map(clonePlain);
  if (isPlainObject(v)) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) setOwn(o, k, clonePlain(x));
    return o;
  }
  return v;
}

/** An absent field without omitempty: structs are written with their own fields filled. */
function zeroValue(f: FieldSchema): unknown {
  return f.type === 'object' ? struct({}, f.ref()) : emittedZero(f);
}

/** A list item or map value: null stays null, everything else is normalized in place. */
function element(v: unknown, f: FieldSchema): unknown {
  if (v === null || v === undefined) return null;
  switch (f.type) {
    case 'string':
      if (f.format === 'date-time') return timeText(v, f.micro);
      if (f.format === 'byte') return bytesText(v);
      return v;
    case 'object':
      return isPlainObject(v) ? struct(v, f.ref()) : v;
    case 'array':
      return Array.isArray(v) ? v.map((x) => element(x, f.items)) : v;
    case 'map':
      return isPlainObject(v) ? sortedMap(v, f.values) : v;
    case 'any':
      return clonePlain(v);
    default:
      return v;
  }
}

function sortedMap(v: Record<string, unknown>, values: FieldSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of sortSmall(Object.keys(v), compareCodePoints)) setOwn(out, k, element(v[k], values));
  return out;
}

function field(v: unknown, f: FieldSchema, emit: boolean, zeroEmpty: boolean): unknown {
  if (v === undefined || v === null) return emit ? zeroValue(f) : OMIT;
  switch (f.type) {
    case 'string': {
      const t = f.format === 'date-time' ? timeText(v, f.micro) : f.format === 'byte' ? bytesText(v) : v;
      return t === '' && !emit ? OMIT : t;
    }
    case 'integer':
    case 'number':
    case 'intOrString':
    case 'boolean':
      return zeroEmpty && !emit && (v === 0 || v === false) ? OMIT : v;
    case 'object':
      return isPlainObject(v) ? struct(v, f.ref()) : emit ? zeroValue(f) : OMIT;
    case 'array':
      if (!Array.isArray(v)) return emit ? zeroValue(f) : OMIT;
      return v.length === 0 && !emit ? OMIT : v.map((x) => element(x, f.items));
    case 'map':
      if (!isPlainObject(v)) return emit ? zeroValue(f) : OMIT;
      return Object.keys(v).length === 0 && !emit ? OMIT : sortedMap(v, f.values);
    case 'any':
      return clonePlain(v);
  }
}

/** What struct() needs per field, worked out once per schema (it runs for every object served). */
interface FieldPlan {
  name: string;
  f: FieldSchema;
  emit: boolean;
  zeroEmpty: boolean;
}

const planCache = new WeakMap<ObjectSchema, FieldPlan[]>();

function planOf(schema: ObjectSchema): FieldPlan[] {
  let plan = planCache.get(schema);
  if (!plan) {
    plan = emissionOrder(schema).map((name) => {
      const f = schema.fields[name];
      return { name, f, emit: Boolean(f.alwaysEmit || f.required), zeroEmpty: zeroIsEmpty.has(`${schema.name}.${name}`) };
    });
    planCache.set(schema, plan);
  }
  return plan;
}

const hasOwnProperty = Object.prototype.hasOwnProperty;

function struct(v: Record<string, unknown>, schema: ObjectSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of planOf(schema)) {
    const raw = hasOwnProperty.call(v, p.name) ? v[p.name] : undefined;
    const r = field(raw, p.f, p.emit, p.zeroEmpty);
    if (r !== OMIT) out[p.name] = r;
  }
  if (schema.preserveUnknownFields) {
    for (const k of Object.keys(v)) if (!hasOwnProperty.call(schema.fields, k) && v[k] !== undefined) setOwn(out, k, clonePlain(v[k]));
  }
  return out;
}

/** A free-form value with every object's keys sorted (Go's map encoding). */
function sortedPlain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedPlain);
  if (isPlainObject(v)) {
    const o: Record<string, unknown> = {};
    for (const k of sortSmall(Object.keys(v), compareCodePoints)) if (v[k] !== undefined) setOwn(o, k, sortedPlain(v[k]));
    return o;
  }
  return v;
}

function unstructuredValue(v: unknown, f: FieldSchema): unknown {
  if (v === null) return null;
  switch (f.type) {
    case 'object': {
      if (!isPlainObject(v)) return sortedPlain(v);
      const s = f.ref();
      return s.unstructured ? unstructuredStruct(v, s) : sortedPlain(struct(v, s));
    }
    case 'array':
      return Array.isArray(v) ? v.map((x) => unstructuredValue(x, f.items)) : sortedPlain(v);
    case 'map': {
      if (!isPlainObject(v)) return sortedPlain(v);
      const o: Record<string, unknown> = {};
      for (const k of sortSmall(Object.keys(v), compareCodePoints)) if (v[k] !== undefined) setOwn(o, k, unstructuredValue(v[k], f.values));
      return o;
    }
    default:
      return sortedPlain(v);
  }
}

function unstructuredStruct(v: Record<string, unknown>, schema: ObjectSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of sortSmall(Object.keys(v), compareCodePoints)) {
    const x = v[k];
    if (x === undefined) continue;
    const f = hasOwnProperty.call(schema.fields, k) ? schema.fields[k] : undefined;
    if (f) setOwn(out, k, unstructuredValue(x, f));
    else if (schema.preserveUnknownFields) setOwn(out, k, sortedPlain(x));
  }
  return out;
}

/** A new object in the schema's JSON shape (see the rules above). */
export function normalize<T extends object>(obj: T, schema: ObjectSchema): T {
  const o = obj as Record<string, unknown>;
  return (schema.unstructured ? unstructuredStruct(o, schema) : struct(o, schema)) as T;
}
