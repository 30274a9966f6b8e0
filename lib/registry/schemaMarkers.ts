// The schema's serverSet and immutable markers (lib/api/schema.ts), enforced for every kind from
// its schema so no strategy states them again. The store runs its strategy through
// withSchemaMarkers once; each endpoint (main and subresources) then
// - on create drops what the client sent in a serverSet field, before the kind's prepareForCreate
//   (which may fill it, e.g. a CSR's requester);
// - on update keeps the stored value of a serverSet field, after the kind's prepareForUpdate;
// - on update refuses a changed immutable field, after the kind's validateUpdate errors, with
//   upstream's ValidateImmutableField wording or the field's own rule.
// Markers sit on object fields reached through objects; a marker inside a list or map item would
// need an index or key to enforce, and is refused when the schema is first read.
import type { ApiObject, FieldSchema, ImmutableRule, ObjectSchema } from '../api';
import { goZero } from '../codec/goZero';
import { deepEqual } from '../machinery/deepEqual';
import { fieldErr, type FieldError } from '../machinery/fieldErrors';
import type { RequestContext, Strategy, UpdateStrategy } from './strategy';

export interface MarkedField {
  /** Field names from the object's root, e.g. ['spec', 'username']. */
  readonly path: readonly string[];
  readonly field: FieldSchema;
}

export interface SchemaMarkers {
  readonly serverSet: readonly MarkedField[];
  readonly immutable: readonly MarkedField[];
}

/** upstream's ValidateImmutableField detail. */
export const immutableDetail = 'field is immutable';

const byRoot = new WeakMap<ObjectSchema, SchemaMarkers>();

/** Every marked field of a kind, in schema order (read once per schema). */
export function schemaMarkers(root: ObjectSchema): SchemaMarkers {
  let markers = byRoot.get(root);
  if (!markers) {
    const found = { serverSet: [] as MarkedField[], immutable: [] as MarkedField[] };
    collect(root, [], new Set(), found);
    byRoot.set(root, (markers = found));
  }
  return markers;
}

function collect(schema: ObjectSchema, path: string[], open: Set<ObjectSchema>, out: { serverSet: MarkedField[]; immutable: MarkedField[] }): void {
  // A schema that contains itself (a recursive type) is walked once along each path.
  if (open.has(schema)) return;
  open.add(schema);
  for (const [name, field] of Object.entries(schema.fields)) {
    const at = [...path, name];
    if (field.serverSet) out.serverSet.push({ path: at, field });
    if (field.immutable) out.immutable.push({ path: at, field });
    if (field.type === 'object') collect(field.ref(), at, open, out);
    else if (field.type === 'array') refuseMarkersWithin(field.items, `${at.join('.')}[*]`, open);
    else if (field.type === 'map') refuseMarkersWithin(field.values, `${at.join('.')}[*]`, open);
  }
  open.delete(schema);
}

function refuseMarkersWithin(field: FieldSchema, where: string, open: Set<ObjectSchema>): void {
  if (field.serverSet || field.immutable) throw new Error(`schema marker inside a list or map item at ${where}: not enforceable generically`);
  if (field.type === 'array') refuseMarkersWithin(field.items, `${where}[*]`, open);
  else if (field.type === 'map') refuseMarkersWithin(field.values, `${where}[*]`, open);
  else if (field.type === 'object') {
    const schema = field.ref();
    if (open.has(schema)) return;
    open.add(schema);
    for (const [name, f] of Object.entries(schema.fields)) refuseMarkersWithin(f, `${where}.${name}`, open);
    open.delete(schema);
  }
}

type Tree = Record<string, unknown>;

function isTree(v: unknown): v is Tree {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value at path, or undefined where any step is missing. */
export function valueAt(obj: unknown, path: readonly string[]): unknown {
  let cur = obj;
  for (const name of path) {
    if (!isTree(cur)) return undefined;
    cur = cur[name];
  }
  return cur;
}

/** Removes the value at path (parents are left as they are). */
function dropAt(obj: ApiObject, path: readonly string[]): void {
  const parent = valueAt(obj, path.slice(0, -1));
  if (isTree(parent)) delete parent[path[path.length - 1]];
}

/** Sets obj's value at path to a copy of old's (creating parents), or removes it where old has none. */
function keepStored(obj: ApiObject, old: ApiObject, path: readonly string[]): void {
  const stored = valueAt(old, path);
  if (stored === undefined) {
    dropAt(obj, path);
    return;
  }
  let parent: Tree = obj as Tree;
  for (const name of path.slice(0, -1)) {
    const next = parent[name];
    parent = isTree(next) ? next : (parent[name] = {});
  }
  parent[path[path.length - 1]] = structuredClone(stored);
}

/** The value as upstream's internal Go struct (rule.goStruct), for comparing and printing. */
function asGoStruct(value: unknown, field: FieldSchema, goStruct: Readonly<Record<string, string>>): Record<string, unknown> {
  const fields = field.type === 'object' ? field.ref().fields : {};
  const out: Record<string, unknown> = {};
  for (const [json, go] of Object.entries(goStruct)) {
    const v = isTree(value) ? value[json] : undefined;
    out[go] = v ?? (json in fields ? goZero(fields[json]) : null);
  }
  return out;
}

function immutableError(marked: MarkedField, obj: ApiObject, old: ApiObject): FieldError | undefined {
  const rule: ImmutableRule | undefined = typeof marked.field.immutable === 'object' ? marked.field.immutable : undefined;
  let now = valueAt(obj, marked.path);
  let before = valueAt(old, marked.path);
  if (rule?.goStruct) {
    now = asGoStruct(now, marked.field, rule.goStruct);
    before = asGoStruct(before, marked.field, rule.goStruct);
  }
  if (deepEqual(now, before)) return undefined;
  return fieldErr.invalid(marked.path.join('.'), now ?? null, rule?.detail ?? immutableDetail);
}

/** Drops the client's values of serverSet fields (create). */
export function dropServerSet(markers: SchemaMarkers, obj: ApiObject): void {
  for (const m of markers.serverSet) dropAt(obj, m.path);
}

/** Puts the stored values of serverSet fields back (update). */
export function keepServerSet(markers: SchemaMarkers, obj: ApiObject, old: ApiObject): void {
  for (const m of markers.serverSet) keepStored(obj, old, m.path);
}

/** The refusals of changed immutable fields (update). */
export function immutableErrors(markers: SchemaMarkers, obj: ApiObject, old: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const m of markers.immutable) {
    const e = immutableError(m, obj, old);
    if (e) errs.push(e);
  }
  return errs;
}

function endpointWithMarkers<S extends UpdateStrategy>(endpoint: S, markers: SchemaMarkers): S {
  // The endpoint's own members stay reachable (and `this` inside them is the endpoint itself).
  const enforced: S = Object.create(endpoint);
  enforced.prepareForUpdate = (ctx: RequestContext, obj: ApiObject, old: ApiObject): void => {
    endpoint.prepareForUpdate(ctx, obj, old);
    keepServerSet(markers, obj, old);
  };
  enforced.validateUpdate = (ctx: RequestContext, obj: ApiObject, old: ApiObject): FieldError[] => {
    const errs = endpoint.validateUpdate(ctx, obj, old);
    const refused = immutableErrors(markers, obj, old);
    return refused.length ? [...errs, ...refused] : errs;
  };
  return enforced;
}

/**
 * The strategy as the store runs it: the kind's, with its schema's markers enforced on create
 * and on every update endpoint. A kind without markers gets its own strategy back.
 */
export function withSchemaMarkers(strategy: Strategy): Strategy {
  const markers = schemaMarkers(strategy.resource.schema);
  if (!markers.serverSet.length && !markers.immutable.length) return strategy;
  const enforced = endpointWithMarkers(strategy, markers);
  enforced.prepareForCreate = (ctx: RequestContext, obj: ApiObject): void => {
    dropServerSet(markers, obj);
    strategy.prepareForCreate(ctx, obj);
  };
  const subresources: Record<string, UpdateStrategy> = {};
  for (const [name, endpoint] of Object.entries(strategy.subresourceStrategies)) subresources[name] = endpointWithMarkers(endpoint, markers);
  Object.defineProperty(enforced, 'subresourceStrategies', { value: subresources, enumerable: true });
  return enforced;
}
