// Strict CBOR decoding into the JSON-shaped value of a schema (apimachinery's modes.Decode and
// DecodeLax over fxamacker/cbor v2.7.0, as the CBOR serializer unmarshals into a Go struct):
// - map keys match fields by exact name, as text or byte strings; a key matching a field twice,
//   or an unknown key repeated, is a duplicate (always an error, never a warning); an unknown
//   field is a strict error (the first one, by its index in its map); a key that is neither a
//   string nor an integer cannot name a field (an error in every mode);
// - byte strings decode into Go strings as their bytes, or in the text form an enclosing
//   "expected later encoding" tag (21 base64url, 22 base64, 23 base16) names; into []byte
//   fields an untagged byte string holds base64 text (ByteStringExpectedBase64), a tagged one
//   the raw bytes; text strings must be valid UTF-8 and cannot fill []byte;
// - integers must fit the field (int64 for free-form values); only the simple values false,
//   true and null are accepted; null leaves a field unset; tag 55799 and unknown tags are
//   transparent; tags 0 and 1 need their content types (RFC 8949 §3.4).
// The first error wins, except that a duplicate or unknown key ends its map with that error;
// a type error names the outermost struct field it was found under, as fxamacker's does.
// FieldsV1 content (`any`) is only read when transcoded to JSON after the decode, so its errors
// come last, worded as that transcoding words them.
import type { FieldSchema, ObjectSchema } from '../api/schema';
import { goStructType, goTypeOf } from './goTypes';
import { type CborNode, CborError, Major, majorName, parseCBOR } from './cborParse';

export { CborError } from './cborParse';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const utf8Lossy = new TextDecoder('utf-8');

const maxInt64 = 0x7fffffffffffffffn;

class CborTypeError {
  structField?: string;
  constructor(
    readonly cborType: string,
    readonly goType: string,
    readonly detail?: string,
  ) {}
  get message(): string {
    const s = this.structField
      ? `cbor: cannot unmarshal ${this.cborType} into Go struct field ${this.structField} of type ${this.goType}`
      : `cbor: cannot unmarshal ${this.cborType} into Go value of type ${this.goType}`;
    return this.detail ? `${s} (${this.detail})` : s;
  }
}

/** An error that ends the map it was found in (duplicate key, unknown field). */
class MapError {
  constructor(
    readonly message: string,
    readonly unknownField: boolean,
  ) {}
}

type DecodeError = CborTypeError | MapError | CborError;

export interface CborDecodeResult {
  value: unknown;
  /** A fatal error (400). */
  error?: string;
  /** Strict mode only: the unknown-field error (upstream reports it as a strict decoding error). */
  strictError?: string;
}

interface Ctx {
  strict: boolean;
  /** Innermost enclosing "expected later encoding" tag (21, 22, 23), if any. */
  later?: number;
  /**
   * Errors inside FieldsV1 content: its UnmarshalCBOR keeps the raw item, and only the
   * transcoding to JSON after the whole decode reads it, so they count after every other error.
   */
  deferred: string[];
}

type Result = { value?: unknown; err?: DecodeError };

const goTypeName = (f: FieldSchema | undefined): string => (f ? goTypeOf(f) : 'interface {}');

function textOf(node: { value: Uint8Array }): string | CborError {
  try {
    return utf8.decode(node.value);
  } catch {
    return new CborError('cbor: invalid UTF-8 string');
  }
}

/** Go's base64.StdEncoding.Decode of the byte string's content. */
function base64Decode(b: Uint8Array): Buffer | CborError {
  const s = Buffer.from(b).toString('latin1');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) {
    let i = 0;
    const m = /[^A-Za-z0-9+/=]/.exec(s);
    if (m) i = m.index;
    else {
      const pad = s.indexOf('=');
      i = pad >= 0 && pad < s.length - 2 ? pad : s.length - (s.length % 4 || 4);
      if (s.length % 4 !== 0) i = s.length - (s.length % 4);
    }
    return new CborError(`cbor: failed to decode base64 from byte string: illegal base64 data at input byte ${i}`);
  }
  return Buffer.from(s, 'base64');
}

/** The text form an expected-later-encoding tag asks for (byte string into a Go string). */
function laterText(b: Uint8Array, later: number | undefined): string {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  if (later === 21) return buf.toString('base64url');
  if (later === 22) return buf.toString('base64');
  if (later === 23) return buf.toString('hex');
  return utf8Lossy.decode(b);
}

/** Strips tags the way fxamacker does before filling a value; checks built-in tag contents. */
function untag(node: CborNode, ctx: Ctx): { node: CborNode; ctx: Ctx } | CborError {
  let n = node;
  let c = ctx;
  while (n.major === Major.tag) {
    const tag = n.tag;
    const content = n.content;
    if (tag === 0n && content.major !== Major.text) {
      return new CborError(`cbor: tag number 0 must be followed by text string, got ${majorName(content.major)}`);
    }
    if (tag === 1n && content.major !== Major.uint && content.major !== Major.nint && !(content.major === Major.simple && content.float !== undefined)) {
      return new CborError(`cbor: tag number 1 must be followed by integer or floating-point number, got ${majorName(content.major)}`);
    }
    if (tag === 21n || tag === 22n || tag === 23n) c = { ...c, later: Number(tag) };
    n = content;
  }
  return { node: n, ctx: c };
}

function rejectedSimple(n: { simple?: number }): CborError | undefined {
  const v = n.simple;
  if (v === undefined || v === 20 || v === 21 || v === 22) return undefined;
  return new CborError(`cbor: data item of cbor type primitives is not accepted by protocol: simple value ${v} is not recognized`);
}

function decodeValue(raw: CborNode, field: FieldSchema | undefined, outer: Ctx): Result {
  const u = untag(raw, outer);
  if (u instanceof CborError) return { err: u };
  const { node, ctx } = u;
  if (node.major === Major.simple && node.float === undefined) {
    const rej = rejectedSimple(node);
    if (rej) return { err: rej };
    if (node.simple === 22) return { value: field === undefined || field.type === 'any' ? null : undefined };
  }
  const mismatch = (): Result => ({ err: new CborTypeError(majorName(node.major), goTypeName(field)) });
  if (field === undefined) return decodeAny(node, ctx);
  if (field.type === 'any') {
    // metav1.FieldsV1: a map (or null) read later as map[string]interface{} by the strict mode.
    const r = node.major === Major.map ? decodeMap(node.entries, undefined, { ...ctx, strict: true }) : { err: new CborTypeError(majorName(node.major), 'map[string]interface {}') };
    if (r.err) {
      ctx.deferred.push(`failed to transcode FieldsV1 to JSON: metav1.FieldsV1 cbor invalid: ${r.err.message}`);
      return {};
    }
    return r;
  }
  switch (field.type) {
    case 'string': {
      if (field.format === 'byte') {
        if (node.major !== Major.bytes) return mismatch();
        if (ctx.later !== undefined) return { value: Buffer.from(node.value).toString('base64') };
        const d = base64Decode(node.value);
        if (d instanceof CborError) return { err: d };
        return { value: d.toString('base64') };
      }
      if (node.major === Major.text) {
        const t = textOf(node);
        return t instanceof CborError ? { err: t } : { value: t };
      }
      if (node.major === Major.bytes) return { value: laterText(node.value, ctx.later) };
      // metav1.Time unmarshals into a *string first.
      if (field.format === 'date-time') return { err: new CborTypeError(majorName(node.major), 'string') };
      return mismatch();
    }
    case 'integer': {
      if (node.major !== Major.uint && node.major !== Major.nint) return mismatch();
      const bits = field.format === 'int32' ? 32 : 64;
      const max = (1n << BigInt(bits - 1)) - 1n;
      if (node.major === Major.uint) {
        if (node.value > max) return { err: new CborTypeError(majorName(node.major), field.format, `${node.value} overflows ${field.format}`) };
        return { value: Number(node.value) };
      }
      if (node.value > maxInt64) return { err: new CborTypeError(majorName(node.major), field.format, `${-1n - node.value} overflows Go's int64`) };
      const v = -1n - node.value;
      if (v < -max - 1n) return { err: new CborTypeError(majorName(node.major), field.format, `${v} overflows ${field.format}`) };
      return { value: Number(v) };
    }
    case 'boolean':
      if (node.major === Major.simple && (node.simple === 20 || node.simple === 21)) return { value: node.simple === 21 };
      return mismatch();
    case 'number':
      if (node.major === Major.uint || node.major === Major.nint || (node.major === Major.simple && node.float !== undefined)) return decodeAny(node, ctx);
      return mismatch();
    case 'intOrString':
      if (node.major === Major.uint || node.major === Major.nint || node.major === Major.text) return decodeAny(node, ctx);
      return mismatch();
    case 'array': {
      if (node.major !== Major.array) return mismatch();
      const out: unknown[] = [];
      let err: DecodeError | undefined;
      for (const item of node.items) {
        const r = decodeValue(item, field.items, ctx);
        if (r.err) err ??= r.err;
        // Go keeps the slot (zero value) for an element that failed or was null.
        out.push(r.value === undefined ? null : r.value);
      }
      return { value: out, err };
    }
    case 'map':
      if (node.major !== Major.map) return mismatch();
      return decodeMap(node.entries, field.values, ctx);
    case 'object':
      if (node.major !== Major.map) return mismatch();
      return decodeStruct(node.entries, field.ref(), ctx);
  }
}

/** A free-form value (interface{}): maps with string keys, int64 integers. */
function decodeAny(node: CborNode, ctx: Ctx): Result {
  switch (node.major) {
    case Major.uint:
      if (node.value > maxInt64) return { err: new CborTypeError(majorName(node.major), 'int64', `${node.value} overflows Go's int64`) };
      return { value: Number(node.value) };
    case Major.nint:
      if (node.value > maxInt64) return { err: new CborTypeError(majorName(node.major), 'int64', `${-1n - node.value} overflows Go's int64`) };
      return { value: Number(-1n - node.value) };
    case Major.bytes:
      return { value: laterText(node.value, ctx.later) };
    case Major.text: {
      const t = textOf(node);
      return t instanceof CborError ? { err: t } : { value: t };
    }
    case Major.array: {
      const out: unknown[] = [];
      let err: DecodeError | undefined;
      for (const item of node.items) {
        const r = decodeValue(item, undefined, ctx);
        if (r.err) err ??= r.err;
        out.push(r.value === undefined ? null : r.value);
      }
      return { value: out, err };
    }
    case Major.map:
      return decodeMap(node.entries, undefined, ctx);
    case Major.simple:
      if (node.float !== undefined) return { value: node.float };
      return { value: node.simple === 21 ? true : node.simple === 20 ? false : null };
    case Major.tag:
      return decodeValue(node, undefined, ctx);
  }
}

/** A string key for a Go map[string]…: text or byte string. */
function mapKey(node: CborNode, ctx: Ctx): string | DecodeError {
  const u = untag(node, ctx);
  if (u instanceof CborError) return u;
  const k = u.node;
  if (k.major === Major.text) return textOf(k);
  if (k.major === Major.bytes) return laterText(k.value, u.ctx.later);
  return new CborTypeError(majorName(k.major), 'string');
}

function decodeMap(entries: CborNode[], values: FieldSchema | undefined, ctx: Ctx): Result {
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  let err: DecodeError | undefined;
  for (let j = 0; j * 2 < entries.length; j++) {
    const k = mapKey(entries[2 * j], ctx);
    if (typeof k !== 'string') {
      err ??= k;
      continue;
    }
    if (seen.has(k)) return { value: out, err: new MapError(`cbor: found duplicate map key "${k}" at map element index ${j}`, false) };
    seen.add(k);
    const r = decodeValue(entries[2 * j + 1], values, ctx);
    if (r.err) err ??= r.err;
    Object.defineProperty(out, k, { value: r.value === undefined ? null : r.value, enumerable: true, writable: true, configurable: true });
  }
  return { value: out, err };
}

function decodeStruct(entries: CborNode[], schema: ObjectSchema, ctx: Ctx): Result {
  const out: Record<string, unknown> = {};
  const matched = new Set<string>();
  const unknownKeys = new Set<string>();
  const structType = goStructType(schema);
  let err: DecodeError | undefined;
  for (let j = 0; j * 2 < entries.length; j++) {
    const keyNode = entries[2 * j];
    let name: string | undefined;
    let unknownKey: string | undefined;
    if (keyNode.major === Major.text || keyNode.major === Major.bytes) {
      if (keyNode.major === Major.text) {
        const t = textOf(keyNode);
        if (t instanceof CborError) {
          err ??= t;
          continue;
        }
        name = t;
      } else {
        name = utf8Lossy.decode(keyNode.value);
      }
      if (Object.hasOwn(schema.fields, name)) {
        if (matched.has(name)) return { value: out, err: new MapError(`cbor: found duplicate map key "${name}" at map element index ${j}`, false) };
        matched.add(name);
        const r = decodeValue(entries[2 * j + 1], schema.fields[name], ctx);
        if (r.err) {
          if (r.err instanceof CborTypeError) r.err.structField = `${structType}.${name}`;
          err ??= r.err;
        }
        if (r.value !== undefined) out[name] = r.value;
        continue;
      }
      unknownKey = `s:${name}`;
    } else if (keyNode.major === Major.uint || keyNode.major === Major.nint) {
      if (keyNode.major === Major.nint && keyNode.value > maxInt64) {
        err ??= new CborTypeError(majorName(keyNode.major), 'int64', `-1-${keyNode.value} overflows Go's int64`);
        continue;
      }
      unknownKey = `i:${keyNode.major === Major.uint ? keyNode.value : -1n - keyNode.value}`;
    } else {
      const t = majorName(keyNode.major);
      err ??= new CborTypeError(t, 'string', `map key is of type ${t} and cannot be used to match struct field name`);
    }
    if (ctx.strict) return { value: out, err: new MapError(`cbor: found unknown field at map element index ${j}`, true) };
    if (unknownKey !== undefined) {
      if (unknownKeys.has(unknownKey)) {
        const shown = unknownKey.slice(2);
        return { value: out, err: new MapError(`cbor: found duplicate map key "${shown}" at map element index ${j}`, false) };
      }
      unknownKeys.add(unknownKey);
    }
  }
  return { value: out, err };
}

function rootResult(node: CborNode, field: FieldSchema, strict: boolean): Result {
  const ctx: Ctx = { strict, deferred: [] };
  const r = decodeValue(node, field, ctx);
  if (!r.err && ctx.deferred.length) return { value: r.value, err: new CborError(ctx.deferred[0]) };
  return r;
}

/**
 * Decodes a CBOR body into `schema`'s JSON shape. Strict mode reports an unknown field as
 * `strictError` and decodes again leniently for the value (upstream's serializer does the same).
 */
export function decodeCBOR(data: Uint8Array, schema: ObjectSchema, strict: boolean): CborDecodeResult {
  let node: CborNode;
  try {
    node = parseCBOR(data);
  } catch (e) {
    if (e instanceof CborError) return { value: undefined, error: e.message };
    throw e;
  }
  const field: FieldSchema = { type: 'object', ref: () => schema };
  let strictError: string | undefined;
  if (strict) {
    const r = rootResult(node, field, true);
    if (!(r.err instanceof MapError && r.err.unknownField)) return r.err ? { value: r.value, error: r.err.message } : { value: r.value };
    strictError = r.err.message;
  }
  const r = rootResult(node, field, false);
  if (r.err) return { value: r.value, error: r.err.message };
  return strictError !== undefined ? { value: r.value, strictError } : { value: r.value };
}

/** Decodes a free-form CBOR body (apply configurations: Go's map[string]interface{}). */
export function decodeCBORMap(data: Uint8Array): CborDecodeResult {
  let node: CborNode;
  try {
    node = parseCBOR(data);
  } catch (e) {
    if (e instanceof CborError) return { value: undefined, error: e.message };
    throw e;
  }
  const u = untag(node, { strict: true, deferred: [] });
  if (u instanceof CborError) return { value: undefined, error: u.message };
  if (u.node.major === Major.simple && u.node.simple === 22) return { value: null };
  if (u.node.major !== Major.map) {
    const rej = u.node.major === Major.simple ? rejectedSimple(u.node) : undefined;
    return { value: undefined, error: (rej ?? new CborTypeError(majorName(u.node.major), 'map[string]interface {}')).message };
  }
  const r = decodeMap(u.node.entries, undefined, u.ctx);
  return r.err ? { value: r.value, error: r.err.message } : { value: r.value };
}

/** apiVersion and kind, as upstream's metaFactory reads them (lenient decode into TypeMeta). */
export function interpretCBOR(data: Uint8Array): { apiVersion: string; kind: string } {
  const typeMeta: ObjectSchema = {
    name: 'io.svc.apimachinery.pkg.apis.meta.v1.TypeMeta',
    fields: { kind: { type: 'string' }, apiVersion: { type: 'string' } },
  };
  const r = decodeCBOR(data, typeMeta, false);
  if (r.error !== undefined) throw new CborError(`unable to determine group/version/kind: ${r.error}`);
  const v = (r.value ?? {}) as { apiVersion?: string; kind?: string };
  return { apiVersion: v.apiVersion ?? '', kind: v.kind ?? '' };
}
