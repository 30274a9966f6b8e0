// Mutations of a valid body, guided by its kind's schema: each one breaks the body in one way a
// client can (a value of the wrong JSON type at any path, deep nesting, odd keys, repeated JSON
// keys, strategic merge directives of the wrong shape, duplicate or malformed list-map keys,
// metadata, type meta or managedFields of the wrong shape, number literals JavaScript and Go
// read differently, raw CBOR items). Each mutation changes the value in place and names its
// class, so findings can be counted by class.
import type { FieldSchema, ObjectSchema } from '../../../api';
import { ObjectMetaSchema } from '../../../api/meta';
import { deepCopy } from '../../../machinery/deepCopy';
import type { JsonObject, JsonValue } from '../../../machinery/jsonValue';
import { hasOwn, isJsonObject, setOwn } from '../../../machinery/jsonValue';
import { cborItemHex, deepMarker, duplicateKey, jsonLiteral } from './fuzzDocument';
import type { Prng } from './prng';

export const mutationClasses = [
  'type-swap',
  'deep-nesting',
  'odd-key',
  'duplicate-json-key',
  '$patch',
  '$retainKeys',
  '$deleteFromPrimitiveList',
  '$setElementOrder',
  'duplicate-merge-key',
  'list-shape',
  'metadata-type',
  'type-meta',
  'managed-fields',
  'number-literal',
  'cbor-item',
] as const;
export type MutationClass = (typeof mutationClasses)[number];

type Step = string | number;

/** A container or value in the body, with the schema of the field it sits in (if known). */
interface BodyNode {
  path: Step[];
  value: JsonValue;
  field: FieldSchema | undefined;
}

function childField(field: FieldSchema | undefined, step: Step): FieldSchema | undefined {
  if (!field) return undefined;
  if (field.type === 'array') return typeof step === 'number' ? field.items : undefined;
  if (field.type === 'map') return typeof step === 'string' ? field.values : undefined;
  if (field.type === 'object' && typeof step === 'string') return hasOwn(field.ref().fields, step) ? field.ref().fields[step] : undefined;
  return undefined;
}

function bodyNodes(root: JsonValue, schema: ObjectSchema): BodyNode[] {
  const out: BodyNode[] = [];
  const work: BodyNode[] = [{ path: [], value: root, field: { type: 'object', ref: () => schema } }];
  for (let n = work.pop(); n; n = work.pop()) {
    out.push(n);
    const { path, value, field } = n;
    if (Array.isArray(value)) value.forEach((v, i) => work.push({ path: [...path, i], value: v, field: childField(field, i) }));
    else if (isJsonObject(value)) for (const k of Object.keys(value)) work.push({ path: [...path, k], value: value[k], field: childField(field, k) });
  }
  return out;
}

function setAt(root: JsonValue, path: readonly Step[], value: JsonValue): void {
  let cur = root as JsonObject | JsonValue[];
  for (let i = 0; i < path.length - 1; i++) cur = (cur as Record<Step, JsonValue>)[path[i]] as JsonObject | JsonValue[];
  const last = path[path.length - 1];
  if (Array.isArray(cur)) cur[last as number] = value;
  else setOwn(cur, last as string, value);
}

function kindOf(v: JsonValue): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

const wrongValues: readonly JsonValue[] = [
  0,
  0.5,
  -1,
  1e308,
  -2147483649,
  '',
  'x',
  '0.5',
  'true',
  '2026-01-10T08:00:00Z',
  true,
  false,
  null,
  [],
  [0.5],
  ['x'],
  [null],
  [[]],
  [{}],
  [{ name: 'x' }],
  {},
  { a: 0.5 },
  { name: null },
  { '': 'x' },
];

/** A value of another JSON type than `current` (any value when current is absent). */
function wrongValue(rng: Prng, current: JsonValue | undefined): JsonValue {
  const pool = current === undefined ? wrongValues : wrongValues.filter((v) => kindOf(v) !== kindOf(current));
  return deepCopy(rng.pick(pool));
}

/** A plausible value of a field (for fields added to the body); objects always get `keys`. */
export function plausible(rng: Prng, f: FieldSchema | undefined, depth = 0, keys: readonly string[] = []): JsonValue {
  if (!f || depth > 3) return 'x';
  switch (f.type) {
    case 'string':
      return f.enum?.length ? (deepCopy(rng.pick(f.enum)) as JsonValue) : f.format === 'date-time' ? '2026-01-10T08:00:00Z' : f.format === 'byte' ? 'AAE=' : `v${rng.int(0, 3)}`;
    case 'integer':
    case 'intOrString':
      return rng.int(0, 5);
    case 'number':
      return rng.int(0, 5) + 0.5;
    case 'boolean':
      return rng.chance(0.5);
    case 'any':
      return { a: 'x' };
    case 'map':
      return { k: plausible(rng, f.values, depth + 1) };
    case 'array':
      return [plausible(rng, f.items, depth + 1, listKeysOf(f))];
    case 'object': {
      const o: JsonObject = {};
      for (const [k, sub] of Object.entries(f.ref().fields)) if (keys.includes(k) || rng.chance(0.5)) setOwn(o, k, plausible(rng, sub, depth + 1));
      return o;
    }
  }
}

/** The key fields of a list's items: SMP's merge key and server-side apply's list-map keys. */
function listKeysOf(f: FieldSchema | undefined): string[] {
  if (!f || f.type !== 'array') return [];
  return [...new Set([...(f.patchMergeKey ? [f.patchMergeKey] : []), ...(f.listMapKeys ?? [])])];
}

function objectNodes(nodes: BodyNode[]): BodyNode[] {
  return nodes.filter((n) => isJsonObject(n.value));
}

/** Schema fields of an object node that are lists (for directive keys), else its own keys. */
function listFieldNames(n: BodyNode): string[] {
  const f = n.field;
  if (f?.type === 'object') {
    const lists = Object.entries(f.ref().fields).filter(([, sub]) => sub.type === 'array').map(([k]) => k);
    if (lists.length) return lists;
  }
  return Object.keys(n.value as JsonObject);
}

/** Lists in the body whose items have key fields (merge key or list-map keys). */
function keyedLists(nodes: BodyNode[]): BodyNode[] {
  return nodes.filter((n) => Array.isArray(n.value) && listKeysOf(n.field).length > 0);
}

/** A keyed list in the body, or one added under an object node whose schema has one. */
function someKeyedList(rng: Prng, root: JsonValue, nodes: BodyNode[]): BodyNode | undefined {
  const present = keyedLists(nodes);
  if (present.length && rng.chance(0.7)) return rng.pick(present);
  const holders: { node: BodyNode; name: string; field: FieldSchema }[] = [];
  for (const n of objectNodes(nodes)) {
    if (n.field?.type !== 'object') continue;
    for (const [name, sub] of Object.entries(n.field.ref().fields)) if (listKeysOf(sub).length) holders.push({ node: n, name, field: sub });
  }
  if (!holders.length) return present.length ? rng.pick(present) : undefined;
  const h = rng.pick(holders);
  const list = plausible(rng, h.field) as JsonValue[];
  const path = [...h.node.path, h.name];
  setAt(root, path, list);
  return { path, value: list, field: h.field };
}

type Mutation = (rng: Prng, root: JsonObject, nodes: BodyNode[], schema: ObjectSchema) => boolean;

const typeSwap: Mutation = (rng, root, nodes) => {
  if (rng.chance(0.3)) {
    // A schema field the body lacks, set to a value of the wrong type.
    const holders = objectNodes(nodes).filter((n) => n.field?.type === 'object');
    if (holders.length) {
      const n = rng.pick(holders);
      const fields = Object.keys((n.field as { ref: () => ObjectSchema }).ref().fields);
      const name = rng.pick(fields);
      setOwn(n.value as JsonObject, name, wrongValue(rng, plausible(rng, childField(n.field, name))));
      return true;
    }
  }
  const inner = nodes.filter((n) => n.path.length > 0);
  if (!inner.length) return false;
  const n = rng.pick(inner);
  setAt(root, n.path, wrongValue(rng, n.value));
  return true;
};

const deepNesting: Mutation = (rng, _root, nodes) => {
  const n = rng.pick(objectNodes(nodes));
  const names = n.field?.type === 'object' ? Object.keys(n.field.ref().fields) : ['a'];
  const depth = rng.pick([20, 200, 999, 1000, 1001, 2500, 5000, 9999, 10001]);
  setOwn(n.value as JsonObject, rng.pick(names), deepMarker({ depth, container: rng.chance(0.5) ? 'array' : 'object', leaf: rng.pick(['1', '"x"', 'null', '{}', '[]']) }));
  return true;
};

const oddKeys = [
  '',
  ' ',
  '.',
  '/',
  'a/b',
  '~1',
  '~',
  '\u0000',
  '\ud800',
  '\u00e9',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'length',
  'f:x',
  'k:{"a":1}',
  'v:"x"',
  'i:0',
  '$foo',
  '$',
];

const oddKey: Mutation = (rng, _root, nodes) => {
  const n = rng.pick(objectNodes(nodes));
  // Long keys around the name limits (63, 253), now and then one of 70,000 characters (rare: every
  // answer quoting it costs milliseconds).
  const key = rng.chance(0.15) ? 'k'.repeat(rng.chance(0.1) ? 70_000 : rng.pick([64, 253, 254, 256, 317, 1024, 4096])) : rng.pick(oddKeys);
  setOwn(n.value as JsonObject, key, rng.chance(0.5) ? 'x' : wrongValue(rng, undefined));
  return true;
};

const duplicateJsonKey: Mutation = (rng, _root, nodes) => {
  const holders = objectNodes(nodes).filter((n) => Object.keys(n.value as JsonObject).length > 0);
  if (!holders.length) return false;
  const o = rng.pick(holders).value as JsonObject;
  const key = rng.pick(Object.keys(o));
  setOwn(o, duplicateKey(key), rng.chance(0.5) ? deepCopy(o[key]) : wrongValue(rng, o[key]));
  return true;
};

const patchDirectiveValues: readonly JsonValue[] = ['delete', 'replace', 'merge', 'Delete', 'bogus', '', 5, null, true, {}, [], ['delete']];

const patchDirective: Mutation = (rng, root, nodes) => {
  const value = deepCopy(rng.pick(patchDirectiveValues));
  const lists = nodes.filter((n) => Array.isArray(n.value));
  if (lists.length && rng.chance(0.5)) {
    const n = rng.pick(lists);
    const list = n.value as JsonValue[];
    const keys = listKeysOf(n.field);
    const item: JsonObject = { $patch: value };
    // With the item's merge key (an existing item's, or a new one) or without it.
    if (keys.length && rng.chance(0.7)) {
      const existing = list.find((x) => isJsonObject(x) && hasOwn(x, keys[0])) as JsonObject | undefined;
      setOwn(item, keys[0], existing && rng.chance(0.6) ? deepCopy(existing[keys[0]]) : rng.pick(['new', 5, null, {}]));
    }
    if (rng.chance(0.5) && list.length) list[rng.int(0, list.length - 1)] = item;
    else list.push(item);
    setAt(root, n.path, list);
    return true;
  }
  setOwn(rng.pick(objectNodes(nodes)).value as JsonObject, '$patch', value);
  return true;
};

const retainKeys: Mutation = (rng, _root, nodes) => {
  const o = rng.pick(objectNodes(nodes)).value as JsonObject;
  const keys = Object.keys(o);
  const choices: JsonValue[] = [[], keys, keys.slice(1), ['nope'], [5], [null], [{}], [[]], 'x', 5, null, {}, true, [...keys, 5]];
  setOwn(o, '$retainKeys', deepCopy(rng.pick(choices)));
  return true;
};

/** A directive key for `field`, sometimes malformed. */
function directiveKey(rng: Prng, prefix: string, field: string): string {
  if (rng.chance(0.85)) return `${prefix}/${field}`;
  return rng.pick([prefix, `${prefix}/`, `${prefix}x/${field}`, `${prefix}/${field}/x`, `${prefix}//${field}`, `${prefix.toLowerCase()}/${field}`]);
}

const deleteFromPrimitiveList: Mutation = (rng, _root, nodes) => {
  const n = rng.pick(objectNodes(nodes));
  const o = n.value as JsonObject;
  const field = rng.chance(0.8) ? rng.pick([...listFieldNames(n), 'nope']) : rng.pick(['', 'a/b', '$patch', '__proto__']);
  const existing = hasOwn(o, field) && Array.isArray(o[field]) ? (o[field] as JsonValue[]) : [];
  const choices: JsonValue[] = [[], existing, existing.slice(0, 1), ['x'], [5], [{}], [null], [[]], [{ name: 'x' }], 'x', 5, {}, null, true];
  setOwn(o, directiveKey(rng, '$deleteFromPrimitiveList', field), deepCopy(rng.pick(choices)));
  return true;
};

const setElementOrder: Mutation = (rng, _root, nodes) => {
  const n = rng.pick(objectNodes(nodes));
  const o = n.value as JsonObject;
  const field = rng.chance(0.85) ? rng.pick([...listFieldNames(n), 'nope']) : rng.pick(['', 'a/b', '$patch', '__proto__']);
  const list = hasOwn(o, field) && Array.isArray(o[field]) ? (o[field] as JsonValue[]) : [];
  const keys = listKeysOf(childField(n.field, field));
  const key = keys[0] ?? 'name';
  // The list's items reduced to their merge keys (what kubectl sends), then broken.
  const order: JsonValue[] = list.map((x) => (isJsonObject(x) && hasOwn(x, key) ? { [key]: x[key] } : x));
  const choices: JsonValue[] = [
    order,
    [...order].reverse(),
    order.slice(1),
    [...order, ...order],
    [...order, { [key]: 'missing' }],
    [{}],
    [{ [key]: 5 }],
    [{ [key]: null }],
    [{ other: 'x' }],
    ['x'],
    [5],
    [null],
    [[]],
    [],
    'x',
    {},
    5,
    null,
  ];
  setOwn(o, directiveKey(rng, '$setElementOrder', field), deepCopy(rng.pick(choices)));
  return true;
};

const duplicateMergeKey: Mutation = (rng, root, nodes) => {
  const n = someKeyedList(rng, root, nodes);
  if (!n) return false;
  const list = n.value as JsonValue[];
  const items = list.filter(isJsonObject);
  if (!items.length) return false;
  const item = rng.pick(items);
  const twin = deepCopy(item);
  // The same key with other content, or the same item twice.
  if (rng.chance(0.5)) for (const k of Object.keys(twin)) if (!listKeysOf(n.field).includes(k)) setOwn(twin, k, plausible(rng, childField(childField(n.field, 0), k)));
  list.splice(rng.int(0, list.length), 0, twin);
  return true;
};

const listShape: Mutation = (rng, root, nodes) => {
  const n = someKeyedList(rng, root, nodes);
  if (!n) return false;
  const list = n.value as JsonValue[];
  const keys = listKeysOf(n.field);
  const key = rng.pick(keys);
  const base = list.find(isJsonObject) ?? {};
  const broken: JsonValue[] = [
    'x',
    5,
    null,
    true,
    [],
    [deepCopy(base)],
    {},
    { ...deepCopy(base), [key]: 5 },
    { ...deepCopy(base), [key]: null },
    { ...deepCopy(base), [key]: {} },
    { ...deepCopy(base), [key]: ['x'] },
    { ...deepCopy(base), [key]: '' },
    Object.fromEntries(Object.entries(deepCopy(base)).filter(([k]) => k !== key)),
  ];
  const bad = deepCopy(rng.pick(broken));
  if (rng.chance(0.5) && list.length) list[rng.int(0, list.length - 1)] = bad;
  else list.push(bad);
  if (rng.chance(0.1)) setAt(root, n.path, [list]);
  return true;
};

const metaFields = Object.keys(ObjectMetaSchema.fields);

const metadataType: Mutation = (rng, root) => {
  if (rng.chance(0.35) || !isJsonObject(root.metadata)) {
    setOwn(root, 'metadata', wrongValue(rng, isJsonObject(root.metadata) ? {} : undefined));
    return true;
  }
  const meta = root.metadata;
  const name = rng.pick(metaFields);
  const f = ObjectMetaSchema.fields[name as keyof typeof ObjectMetaSchema.fields] as FieldSchema;
  const current = hasOwn(meta, name) ? meta[name] : plausible(rng, f);
  if (f.type === 'map' && rng.chance(0.5)) setOwn(meta, name, { k: wrongValue(rng, 'x') });
  else if (f.type === 'array' && rng.chance(0.5)) setOwn(meta, name, [wrongValue(rng, plausible(rng, f.items))]);
  else setOwn(meta, name, wrongValue(rng, current));
  return true;
};

const typeMetaValues: readonly JsonValue[] = ['', 'v2', 'v1/', '/v1', 'a/b/c', 'Pod', 'configmap', 'v1beta1', 5, null, true, {}, [], ['v1']];

const typeMeta: Mutation = (rng, root) => {
  for (const k of ['apiVersion', 'kind']) {
    if (!rng.chance(0.6)) continue;
    if (rng.chance(0.3)) delete root[k];
    else setOwn(root, k, deepCopy(rng.pick(typeMetaValues)));
  }
  return true;
};

const managedFieldsGarbage: readonly JsonValue[] = [
  5,
  'x',
  {},
  true,
  [5],
  [null],
  [{}],
  [{}, {}],
  [[]],
  [{ manager: 5 }],
  [{ manager: 'm', operation: 'Bogus', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }],
  [{ manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV2', fieldsV1: {} }],
  [{ manager: 'm', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: {} }],
  [{ manager: 'm', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: 5 }],
  [{ manager: 'm', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: [] }],
  [{ manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': 5 } }],
  [{ manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'x:y': {} } }],
  [{ manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'k:notjson': {} } }],
  [{ manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'k:[1]': {} } }],
  [{ manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'v:': {}, 'i:x': {}, 'f:': {} } }],
  [{ manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:a': { '.': 5 } } } } }],
  [{ manager: 'm', operation: 'Update', apiVersion: 'v1', time: 'yesterday', fieldsType: 'FieldsV1', fieldsV1: {} }],
  [{ manager: 'm', operation: 'Update', apiVersion: 'v1', time: 5, fieldsType: 'FieldsV1', fieldsV1: {} }],
  [{ manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {}, subresource: 5 }],
];

const managedFields: Mutation = (rng, root) => {
  if (!isJsonObject(root.metadata)) setOwn(root, 'metadata', {});
  setOwn(root.metadata as JsonObject, 'managedFields', deepCopy(rng.pick(managedFieldsGarbage)));
  return true;
};

/** Numbers and strings whose decoding differs between languages: out of range, -0, exponents, escapes. */
const literals = [
  '123456789012345678901234567890',
  '9007199254740993',
  '9223372036854775808',
  '-9223372036854775809',
  '18446744073709551616',
  '2147483648',
  '-0',
  '-0.0',
  '1.0',
  '1E400',
  '-1e400',
  '1e-400',
  '0.1e1',
  '"\\ud800"',
  '"\\udc00x"',
  '"\\u0000"',
  '"\\uffff"',
  '"a\\/b"',
];

const numberLiteral: Mutation = (rng, root, nodes) => {
  const inner = nodes.filter((n) => n.path.length > 0);
  const literal = jsonLiteral(rng.pick(literals));
  if (!inner.length || rng.chance(0.3)) setOwn(rng.pick(objectNodes(nodes)).value as JsonObject, rng.pick(['leaseDurationSeconds', 'expirationSeconds', 'generation', 'x']), literal);
  else setAt(root, rng.pick(inner).path, literal);
  return true;
};

/** CBOR items JSON has no word for (or spells differently): NaN, infinities, undefined, simple values, tags, byte strings, non-string keys, indefinite lengths. */
const cborItems = [
  'f97e00', // NaN (half)
  'f97c00', // +Infinity
  'f9fc00', // -Infinity
  'fb7ff8000000000000', // NaN (double)
  'f7', // undefined
  'f0', // simple(16)
  'f8ff', // simple(255)
  'f93e00', // 1.5 (half)
  'fa3fc00000', // 1.5 (single)
  '1bffffffffffffffff', // 2^64-1
  '3bffffffffffffffff', // -2^64
  'c249010000000000000000', // bignum 2^64
  'c349010000000000000000', // negative bignum
  'c074323032362d30312d31305430383a30303a30305a', // tag 0 date-time
  'c11a5f5e1000', // tag 1 epoch
  'd5420102', // tag 21 (base64url later) over bytes
  'd9d9f7617a', // a nested self-described tag
  'd82061', // tag 32 truncated
  '420102', // byte string
  '40', // empty byte string
  '5f4101ff', // indefinite byte string
  '7f6161ff', // indefinite text string
  '9f01ff', // indefinite array
  'bf6161f5ff', // indefinite map
  'a10161', // map with an int key (truncated value)
  'a1016178', // map with an int key
  'a1f66178', // map with a null key
  'a1426b316178', // map with a byte-string key
  'a2616161786161617a', // map with a repeated key
  '62c328', // invalid UTF-8 text
  '80', // []
  'a0', // {}
];

const cborItem: Mutation = (rng, root, nodes) => {
  const inner = nodes.filter((n) => n.path.length > 0);
  const item = cborItemHex(rng.pick(cborItems));
  if (!inner.length || rng.chance(0.3)) setOwn(rng.pick(objectNodes(nodes)).value as JsonObject, rng.pick(['metadata', 'spec', 'x', 'name']), item);
  else setAt(root, rng.pick(inner).path, item);
  return true;
};

const mutations: Record<MutationClass, Mutation> = {
  'type-swap': typeSwap,
  'deep-nesting': deepNesting,
  'odd-key': oddKey,
  'duplicate-json-key': duplicateJsonKey,
  $patch: patchDirective,
  $retainKeys: retainKeys,
  $deleteFromPrimitiveList: deleteFromPrimitiveList,
  $setElementOrder: setElementOrder,
  'duplicate-merge-key': duplicateMergeKey,
  'list-shape': listShape,
  'metadata-type': metadataType,
  'type-meta': typeMeta,
  'managed-fields': managedFields,
  'number-literal': numberLiteral,
  'cbor-item': cborItem,
};

/**
 * Applies one mutation of class `cls` to body (an object of the kind `schema` describes, or a
 * part of one) in place; false when the body offers nothing that mutation can break.
 */
export function mutateBody(rng: Prng, body: JsonObject, schema: ObjectSchema, cls: MutationClass): boolean {
  return mutations[cls](rng, body, bodyNodes(body, schema), schema);
}
