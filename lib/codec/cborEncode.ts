// CBOR encoder (wire-formats.md §6; apimachinery's serializer/cbor with the internal/modes
// Encode options). Driven by the same JSON-shaped value the JSON encoder writes, so the key set
// is upstream's JSON key set (OmitEmptyGoValue is encoding/json's omitempty). Choices as upstream:
// - strings and map keys as byte strings (StringToByteString, FieldNameToByteString);
// - `byte` fields (Go []byte, base64 in JSON) as tag 22 + the raw bytes (ByteSliceLaterFormatBase64);
// - integers in the shortest head; other numbers as the shortest float that keeps the value
//   (ShortestFloat16); NaN and infinities rejected; definite lengths only; null stays null;
// - FieldsV1 (`any` here) is re-encoded by its own MarshalCBOR through the deterministic mode,
//   so its keys are always sorted.
// Key order: `sorted` is the deterministic mode (bytewise lexical order of the encoded keys, RFC
// 8949 §4.2.1); otherwise the value's own order (declaration order, which is one of the orders
// the nondeterministic SortFastShuffle mode responses use can produce).
import type { FieldSchema, ObjectSchema } from '../api/schema';
import { BodyChunks } from './bodyChunks';
import { Base64Error, decodeGoBase64 } from './goBase64';

/** The self-described CBOR tag 55799 head every body starts with (upstream's magic number). */
export const cborSelfDescribed: Uint8Array = Uint8Array.of(0xd9, 0xd9, 0xf7);

export class CborEncodeError extends Error {}

export interface CborEncodeOptions {
  /** Deterministic mode: map keys sorted bytewise on their encoding. Default false. */
  sorted?: boolean;
}

const MAJOR_UINT = 0;
const MAJOR_NINT = 1;
const MAJOR_BYTES = 2;
const MAJOR_ARRAY = 4;
const MAJOR_MAP = 5;
const TAG_BASE64_LATER = 22;

/** Growable output buffer. */
class Out {
  buf: Buffer;
  len = 0;
  constructor(size = 1024) {
    this.buf = Buffer.allocUnsafe(size);
  }
  reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }
  byte(b: number): void {
    this.reserve(1);
    this.buf[this.len++] = b;
  }
  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }
  /** A head: major type and argument in the shortest form. */
  head(major: number, n: number): void {
    const m = major << 5;
    this.reserve(9);
    const b = this.buf;
    if (n < 24) b[this.len++] = m | n;
    else if (n < 0x100) {
      b[this.len++] = m | 24;
      b[this.len++] = n;
    } else if (n < 0x10000) {
      b[this.len++] = m | 25;
      b.writeUInt16BE(n, this.len);
      this.len += 2;
    } else if (n < 0x100000000) {
      b[this.len++] = m | 26;
      b.writeUInt32BE(n, this.len);
      this.len += 4;
    } else {
      b[this.len++] = m | 27;
      b.writeBigUInt64BE(BigInt(n), this.len);
      this.len += 8;
    }
  }
  /** A Go string: UTF-8 in a byte string. */
  string(s: string): void {
    // ASCII fast path: one byte per code unit.
    if (s.length < 24 && isAscii(s)) {
      this.reserve(1 + s.length);
      this.buf[this.len++] = (MAJOR_BYTES << 5) | s.length;
      for (let i = 0; i < s.length; i++) this.buf[this.len++] = s.charCodeAt(i);
      return;
    }
    const n = Buffer.byteLength(s, 'utf8');
    this.head(MAJOR_BYTES, n);
    this.reserve(n);
    this.len += this.buf.write(s, this.len, 'utf8');
  }
  finish(): Buffer {
    return this.buf.subarray(0, this.len);
  }
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

const f32 = new Float32Array(1);

/** float16 bits of `v` when that is exact, else -1. */
function float16Bits(v: number): number {
  if (v === 0) return Object.is(v, -0) ? 0x8000 : 0;
  const sign = v < 0 ? 0x8000 : 0;
  const a = Math.abs(v);
  const e = Math.floor(Math.log2(a));
  if (e > 15) return -1;
  if (e >= -14) {
    const mant = a / 2 ** e - 1; // [0, 1)
    const m = mant * 1024;
    if (!Number.isInteger(m)) return -1;
    return sign | ((e + 15) << 10) | m;
  }
  // Subnormal: a = m × 2^-24 with m < 1024.
  const m = a * 2 ** 24;
  if (!Number.isInteger(m) || m >= 1024) return -1;
  return sign | m;
}

function writeFloat(out: Out, v: number): void {
  if (Number.isNaN(v)) throw new CborEncodeError('cbor: unsupported value: NaN');
  if (!Number.isFinite(v)) throw new CborEncodeError('cbor: unsupported value: Inf');
  const h = float16Bits(v);
  out.reserve(9);
  if (h >= 0) {
    out.buf[out.len++] = 0xf9;
    out.buf.writeUInt16BE(h, out.len);
    out.len += 2;
    return;
  }
  f32[0] = v;
  if (f32[0] === v) {
    out.buf[out.len++] = 0xfa;
    out.buf.writeFloatBE(v, out.len);
    out.len += 4;
    return;
  }
  out.buf[out.len++] = 0xfb;
  out.buf.writeDoubleBE(v, out.len);
  out.len += 8;
}

function writeInteger(out: Out, v: number): void {
  if (v >= 0) out.head(MAJOR_UINT, v);
  else out.head(MAJOR_NINT, -1 - v);
}

function writeNumber(out: Out, v: number): void {
  // Schema numbers are all Go ints; free-form numbers are int64 when whole (utiljson), else float64.
  if (Number.isInteger(v)) writeInteger(out, v);
  else writeFloat(out, v);
}

/** Encoded key bytes, for the deterministic order: shorter first, then bytewise (RFC 8949 §4.2.1). */
function compareKeys(a: string, b: string): number {
  // ASCII keys (nearly all): byte length is the string length, bytewise order is code unit order.
  if (isAscii(a) && isAscii(b)) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return ab.length - bb.length || Buffer.compare(ab, bb);
}

/** A struct field's encoded key (a byte string head + name) and schema, computed once per schema. */
interface FieldPlan {
  key: Buffer;
  field: FieldSchema;
}

const plans = new WeakMap<ObjectSchema, Map<string, FieldPlan>>();

function keyBytes(name: string): Buffer {
  const k = new Out(name.length + 9);
  k.string(name);
  return Buffer.from(k.finish());
}

function planFor(schema: ObjectSchema): Map<string, FieldPlan> {
  let p = plans.get(schema);
  if (!p) {
    p = new Map(Object.entries(schema.fields).map(([name, field]) => [name, { key: keyBytes(name), field }]));
    plans.set(schema, p);
  }
  return p;
}

function definedKeys(obj: Record<string, unknown>, sorted: boolean): string[] {
  const keys: string[] = [];
  for (const k in obj) if (Object.hasOwn(obj, k) && obj[k] !== undefined) keys.push(k);
  return sorted ? keys.sort(compareKeys) : keys;
}

function writeStruct(out: Out, obj: Record<string, unknown>, schema: ObjectSchema, sorted: boolean): void {
  const plan = planFor(schema);
  const keys = definedKeys(obj, sorted);
  out.head(MAJOR_MAP, keys.length);
  for (const k of keys) {
    const p = plan.get(k);
    if (p) {
      out.bytes(p.key);
      writeValue(out, obj[k], p.field, sorted);
    } else {
      out.string(k);
      writeValue(out, obj[k], undefined, sorted);
    }
  }
}

function writeValue(out: Out, v: unknown, field: FieldSchema | undefined, sorted: boolean): void {
  if (v === null || v === undefined) {
    out.byte(0xf6);
    return;
  }
  switch (typeof v) {
    case 'string':
      if (field?.type === 'string' && field.format === 'byte') {
        let raw: Buffer;
        try {
          raw = decodeGoBase64(v);
        } catch (e) {
          if (e instanceof Base64Error) throw new CborEncodeError(`cbor: invalid base64 in []byte field: ${e.message}`);
          throw e;
        }
        out.head(6, TAG_BASE64_LATER);
        out.head(MAJOR_BYTES, raw.length);
        out.bytes(raw);
        return;
      }
      out.string(v);
      return;
    case 'number':
      writeNumber(out, v);
      return;
    case 'boolean':
      out.byte(v ? 0xf5 : 0xf4);
      return;
    case 'bigint':
      writeInteger(out, Number(v));
      return;
    case 'object':
      break;
    default:
      throw new CborEncodeError(`cbor: unsupported type: ${typeof v}`);
  }
  if (Array.isArray(v)) {
    out.head(MAJOR_ARRAY, v.length);
    const items = field?.type === 'array' ? field.items : field?.type === 'any' ? field : undefined;
    for (const item of v) writeValue(out, item, items, sorted);
    return;
  }
  const obj = v as Record<string, unknown>;
  if (field?.type === 'object') {
    writeStruct(out, obj, field.ref(), sorted);
    return;
  }
  // FieldsV1.MarshalCBOR encodes its content with the deterministic mode.
  const keys = definedKeys(obj, sorted || field?.type === 'any');
  const values = field?.type === 'map' ? field.values : field?.type === 'any' ? field : undefined;
  out.head(MAJOR_MAP, keys.length);
  for (const k of keys) {
    out.string(k);
    writeValue(out, obj[k], values, sorted);
  }
}

/** One CBOR data item without the self-described tag (items of a list, embedded objects). */
export function encodeCBORItem(value: unknown, schema: ObjectSchema | undefined, opts: CborEncodeOptions = {}): Buffer {
  const out = new Out();
  writeValue(out, value, schema ? { type: 'object', ref: () => schema } : undefined, opts.sorted === true);
  return out.finish();
}

/** A complete CBOR body: the self-described tag, then the item. */
export function encodeCBOR(value: unknown, schema: ObjectSchema | undefined, opts: CborEncodeOptions = {}): Buffer {
  const out = new Out();
  out.bytes(cborSelfDescribed);
  writeValue(out, value, schema ? { type: 'object', ref: () => schema } : undefined, opts.sorted === true);
  return out.finish();
}

/**
 * A list body whose items were encoded already (responses reuse each shared item's bytes):
 * the list's own fields from `head`, then `items` as an array of the given encodings, as
 * pieces: the list's fields before `items` (in the key order), each item's bytes as they are,
 * then any fields after `items`. Nothing of the items is copied.
 */
export function encodeCBORListChunks(
  head: Record<string, unknown>,
  listSchema: ObjectSchema | undefined,
  items: readonly Uint8Array[],
  opts: CborEncodeOptions = {},
): BodyChunks {
  const sorted = opts.sorted === true;
  const plan = listSchema ? planFor(listSchema) : undefined;
  const keys = [...definedKeys(head, false).filter((k) => k !== 'items'), 'items'];
  if (sorted) keys.sort(compareKeys);
  const before = new Out(256);
  before.bytes(cborSelfDescribed);
  before.head(MAJOR_MAP, keys.length);
  let after: Out | undefined;
  for (const k of keys) {
    if (k === 'items') {
      before.string(k);
      before.head(MAJOR_ARRAY, items.length);
      after = new Out(64);
      continue;
    }
    const o = after ?? before;
    o.string(k);
    writeValue(o, head[k], plan?.get(k)?.field, sorted);
  }
  // Indexed loops: no iterator objects per item (a list's pieces are one per object).
  const tail = after && after.len > 0 ? after.finish() : undefined;
  const chunks = new Array<Uint8Array>(items.length + (tail ? 2 : 1));
  chunks[0] = before.finish();
  let length = before.len;
  for (let i = 0; i < items.length; i++) {
    chunks[i + 1] = items[i];
    length += items[i].length;
  }
  if (tail) {
    chunks[items.length + 1] = tail;
    length += tail.length;
  }
  return new BodyChunks(chunks, length);
}

/** encodeCBORListChunks's body in one buffer of its exact size. */
export function encodeCBORList(
  head: Record<string, unknown>,
  listSchema: ObjectSchema | undefined,
  items: readonly Uint8Array[],
  opts: CborEncodeOptions = {},
): Buffer {
  return encodeCBORListChunks(head, listSchema, items, opts).toBuffer();
}
