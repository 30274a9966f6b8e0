// One step of a field path (structured-merge-diff's PathElement): a struct field or map key, a
// map-list element named by its key fields, a set-list element named by its value, or a
// positional list index. Their FieldsV1 spelling (`f:`, `k:`, `v:`, `i:`) and their total order
// are upstream's, because managedFields written here are read back by clients and other servers.
import { goJsonStringify, parseGoJson } from '../goJson';
import type { JsonValue } from '../jsonValue';
import { isJsonObject } from '../jsonValue';

// Elements are immutable and serialised several times per write (the comparison keys list items
// by it, the field set keys its tree by it, and every insert below an element spells it again):
// each keeps its FieldsV1 text once made (`text`), which cost far less than a WeakMap beside them.
export type PathElement =
  | { kind: 'field'; name: string; text: string | undefined }
  /** Key fields sorted by name, as upstream keeps them. */
  | { kind: 'key'; fields: readonly (readonly [string, JsonValue])[]; text: string | undefined }
  | { kind: 'value'; value: JsonValue; text: string | undefined }
  | { kind: 'index'; index: number };

export type Path = readonly PathElement[];

/** A string Go's encoder writes as it is between quotes: no quote, backslash, control character, <, >, & or non-ASCII. */
const plainJsonString = /^[\x20\x21\x23-\x25\x27-\x3b\x3d\x3f-\x5b\x5d-\x7e]*$/;

/** A map-list element named by one plain string field (`k:{"name":"x"}`, most of them), its text made at once. */
function singleKey(name: string, value: string): PathElement {
  const text = plainJsonString.test(name) && plainJsonString.test(value) ? `k:{"${name}":"${value}"}` : undefined;
  return { kind: 'key', fields: [[name, value]], text };
}

export const pe = {
  field: (name: string): PathElement => ({ kind: 'field', name, text: undefined }),
  key: (fields: Record<string, JsonValue>): PathElement => {
    const names = Object.keys(fields);
    if (names.length === 1 && typeof fields[names[0]] === 'string') return singleKey(names[0], fields[names[0]] as string);
    return {
      kind: 'key',
      fields: names.sort(compareStrings).map((k) => [k, fields[k]] as const),
      text: undefined,
    };
  },
  value: (value: JsonValue): PathElement => ({ kind: 'value', value, text: undefined }),
  index: (index: number): PathElement => ({ kind: 'index', index }),
};

/** Go's strings.Compare: byte order of the UTF-8 encodings. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // UTF-16 unit order is code point (= UTF-8 byte) order except between a surrogate, which
    // stands for a code point ≥ U+10000, and a unit in U+E000–U+FFFF.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys && (xs ? y >= 0xe000 : x >= 0xe000)) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : 1;
}

const kindRank = { field: 0, key: 1, value: 2, index: 3 } as const;

/** Upstream's PathElement.Compare: fields, then keys, then values, then indexes. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return kindRank[a.kind] - kindRank[b.kind];
  switch (a.kind) {
    case 'field':
      return compareStrings(a.name, (b as typeof a).name);
    case 'key':
      return compareKeyFields(a.fields, (b as typeof a).fields);
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    case 'index':
      return Math.sign(a.index - (b as typeof a).index);
  }
}

function compareKeyFields(a: PathElementKeyFields, b: PathElementKeyFields): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = compareStrings(a[i][0], b[i][0]) || compareValues(a[i][1], b[i][1]);
    if (c) return c;
  }
}
type PathElementKeyFields = readonly (readonly [string, JsonValue])[];

function valueRank(v: JsonValue): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v !== null) return 4;
  return 5;
}

/** Upstream's value.Compare: a total order over numbers, strings, bools, lists, maps, null. */
export function compareValues(a: JsonValue, b: JsonValue): number {
  const ra = valueRank(a);
  const rb = valueRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number') return Math.sign(a - (b as number));
  if (typeof a === 'string') return compareStrings(a, b as string);
  if (typeof a === 'boolean') return Number(a) - Number(b as boolean);
  if (Array.isArray(a)) {
    const bl = b as JsonValue[];
    for (let i = 0; ; i++) {
      if (i >= a.length && i >= bl.length) return 0;
      if (i >= a.length) return -1;
      if (i >= bl.length) return 1;
      const c = compareValues(a[i], bl[i]);
      if (c) return c;
    }
  }
  if (a === null) return 0;
  const ao = a as Record<string, JsonValue>;
  const bo = b as Record<string, JsonValue>;
  const ak = Object.keys(ao).sort(compareStrings);
  const bk = Object.keys(bo).sort(compareStrings);
  for (let i = 0; ; i++) {
    if (i >= ak.length && i >= bk.length) return 0;
    if (i >= ak.length) return -1;
    if (i >= bk.length) return 1;
    const c = compareStrings(ak[i], bk[i]) || compareValues(ao[ak[i]], bo[bk[i]]);
    if (c) return c;
  }
}

/** JSON with object keys sorted by name, as upstream's value writer emits maps. */
function sortedJson(v: JsonValue): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (isJsonObject(v)) {
    const keys = Object.keys(v).sort(compareStrings);
    return `{${keys.map((k) => `${goJsonStringify(k)}:${sortedJson(v[k] as JsonValue)}`).join(',')}}`;
  }
  return goJsonStringify(v);
}

/** The FieldsV1 key of an element: `f:name`, `k:{"name":"x"}`, `v:"x"`, `i:0`. */
export function serializePathElement(e: PathElement): string {
  switch (e.kind) {
    case 'field':
      return (e.text ??= `f:${e.name}`);
    case 'key':
      return (e.text ??= `k:{${e.fields.map(([k, v]) => `${goJsonStringify(k)}:${sortedJson(v)}`).join(',')}}`);
    case 'value':
      return (e.text ??= `v:${sortedJson(e.value)}`);
    case 'index':
      return `i:${e.index}`;
  }
}

/**
 * `{"field":"value"}` where neither string needs an escape in Go's encoding (no quote,
 * backslash, control character, <, >, & or non-ASCII): its serialisation is the text itself.
 */
const simpleKey = /^\{"([\x20\x21\x23-\x25\x27-\x3b\x3d\x3f-\x5b\x5d-\x7e]+)":"([\x20\x21\x23-\x25\x27-\x3b\x3d\x3f-\x5b\x5d-\x7e]*)"\}$/;

/** Parses a FieldsV1 key; the messages are upstream's DeserializePathElement errors. */
export function deserializePathElement(s: string): PathElement {
  const prefix = s.slice(0, 2);
  const rest = s.slice(2);
  switch (prefix) {
    case 'f:':
      return pe.field(rest);
    case 'k:': {
      // Most keys are one field with a plain string (`k:{"name":"x"}`, as upstream writes a map
      // list's name): no JSON parse, and the text is already the element's own spelling.
      const simple = simpleKey.exec(rest);
      if (simple) return { kind: 'key', fields: [[simple[1], simple[2]]], text: s };
      const v = parseJsonOrThrow(rest);
      if (!isJsonObject(v)) throw new Error('expected key value pairs');
      if (Object.keys(v).length === 0) throw new Error('expected key value pairs');
      return pe.key(v as Record<string, JsonValue>);
    }
    case 'v:':
      return pe.value(parseJsonOrThrow(rest));
    case 'i:': {
      if (!/^-?\d+$/.test(rest)) throw new Error(`strconv.Atoi: parsing "${rest}": invalid syntax`);
      return pe.index(Number(rest));
    }
    default:
      throw new Error('unknown path element type');
  }
}

function parseJsonOrThrow(text: string): JsonValue {
  return parseGoJson(text);
}

function valueString(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueString).join(',')}]`;
  const keys = Object.keys(v).sort(compareStrings);
  return `{${keys.map((k) => `${k}=${valueString(v[k] as JsonValue)}`).join(';')}}`;
}

/** Upstream's PathElement.String: `.name`, `[type="Approved"]`, `[="x"]`, `[0]`. */
export function pathElementString(e: PathElement): string {
  switch (e.kind) {
    case 'field':
      return `.${e.name}`;
    case 'key':
      return `[${e.fields.map(([k, v]) => `${k}=${valueString(v)}`).join(',')}]`;
    case 'value':
      return `[=${valueString(e.value)}]`;
    case 'index':
      return `[${e.index}]`;
  }
}

/** Upstream's Path.String, the form conflicts print: `.status.conditions[type="Approved"].reason`. */
export function pathString(p: Path): string {
  return p.map(pathElementString).join('');
}
