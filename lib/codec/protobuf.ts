// Schema-driven Protobuf codec (wire-formats.md §5, wire-formats.proto). Every schema field
// carries its field number (`protobuf`); the message layout follows from the field type:
// - strings: length-delimited UTF-8; `byte` strings: raw bytes (base64 in the JSON form);
//   `date-time` strings: a metav1.Time message {1: seconds, 2: nanos} (a zero-length message
//   is the zero time, JSON null; nanos are dropped as upstream's Time.Unmarshal does);
// - integers and booleans: varints (int32 truncated, int64 read as a JS number);
// - objects: nested messages; arrays: repeated fields (varint arrays packed or not);
// - maps: repeated entry messages {1: key, 2: value}; a map whose values are arrays wraps
//   each value in a message {1: repeated items} (ExtraValue);
// - `any` (ManagedFieldsEntry.fieldsV1): a FieldsV1 message {1: Raw} holding JSON.
// Decoding gives a plain JSON-shaped object holding the fields the message carried (Go's
// non-pointer zero values included); unknown field numbers are skipped. Encoding writes
// the fields present in the object, in field-number order, map entries sorted by key.
import type { FieldSchema, ObjectSchema } from '../api/schema';
import { GoJsonSyntaxError, parseGoJsonTree } from '../machinery/goJson';
import { setOwn } from '../machinery/jsonValue';
import { maxProcessedNesting, nestsDeeperThan } from '../machinery/nesting';
import { BodyChunks } from './bodyChunks';
import { Base64Error, decodeGoBase64 } from './goBase64';
import { formatMicroTime, formatRFC3339, parseGoRFC3339, parseMicroTime, TimeParseError } from './goTime';
import { goStructName } from './goTypes';
import { protobufMapValueZero } from './goZero';
import { compareCodePoints } from './normalize';
import { ProtobufError, ProtoReader, WireType } from '../protowire/reader';
import { ProtoWriter } from '../protowire/writer';

export { ProtobufError } from '../protowire/reader';

/** The 4-byte prefix of every Protobuf body ("k8s\0"). */
export const protobufMagic: Uint8Array = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

type Entry = readonly [name: string, field: FieldSchema];

const numberCache = new WeakMap<ObjectSchema, Map<number, Entry>>();
const orderCache = new WeakMap<ObjectSchema, ReadonlyArray<readonly [number, string, FieldSchema]>>();

function byNumber(schema: ObjectSchema): Map<number, Entry> {
  let m = numberCache.get(schema);
  if (!m) {
    m = new Map();
    for (const [name, f] of Object.entries(schema.fields)) if (f.protobuf !== undefined) m.set(f.protobuf, [name, f]);
    numberCache.set(schema, m);
  }
  return m;
}

function fieldOrder(schema: ObjectSchema): ReadonlyArray<readonly [number, string, FieldSchema]> {
  let o = orderCache.get(schema);
  if (!o) {
    o = Object.entries(schema.fields)
      .filter(([, f]) => f.protobuf !== undefined)
      .map(([name, f]) => [f.protobuf as number, name, f] as const)
      .sort((a, b) => a[0] - b[0]);
    orderCache.set(schema, o);
  }
  return o;
}

/** The Go struct field name upstream's "wrong wireType" errors print ("APIVersion", "UID"). */
function goFieldName(jsonName: string): string {
  if (jsonName === 'uid') return 'UID';
  if (jsonName.startsWith('api')) return `API${jsonName.slice(3)}`;
  return jsonName.charAt(0).toUpperCase() + jsonName.slice(1);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array) && !(v instanceof Date);

const utf8 = new TextDecoder('utf-8');

// ---------------------------------------------------------------------------------------
// Decoding

const isVarintType = (f: FieldSchema): boolean => f.type === 'integer' || f.type === 'boolean';

function wrongWireType(wireType: number, goName: string): ProtobufError {
  return new ProtobufError(`proto: wrong wireType = ${wireType} for field ${goName}`);
}

function varintValue(v: bigint, f: FieldSchema): number | boolean {
  if (f.type === 'boolean') return v !== 0n;
  if (f.type === 'integer' && f.format === 'int32') return Number(BigInt.asIntN(32, v));
  return Number(BigInt.asIntN(64, v));
}

/** metav1.Time.Unmarshal: empty → zero time (JSON null); otherwise whole seconds. */
function decodeTime(bytes: Uint8Array, micro: boolean): string | null {
  if (bytes.length === 0) return null;
  const r = new ProtoReader(bytes);
  let seconds = 0n;
  let nanos = 0;
  while (!r.done) {
    const start = r.pos;
    const { field, wireType } = r.key('Timestamp');
    if (field === 1 || field === 2) {
      if (wireType !== WireType.varint) throw wrongWireType(wireType, field === 1 ? 'Seconds' : 'Nanos');
      const v = r.uvarint();
      if (field === 1) seconds = BigInt.asIntN(64, v);
      else nanos = Number(BigInt.asIntN(32, v));
    } else {
      r.skipFrom(start);
    }
  }
  const ms = Number(seconds) * 1000;
  const d = new Date(ms);
  if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 0 || d.getUTCFullYear() > 9999) {
    throw new ProtobufError('Time.MarshalJSON: year outside of range [0,9999]');
  }
  return micro ? formatMicroTime(ms, Math.max(0, Math.floor(nanos / 1000))) : formatRFC3339(ms);
}

/** FieldsV1 {1: Raw}: the raw JSON tree; nil Raw is JSON null. */
function decodeFieldsV1(bytes: Uint8Array): unknown {
  const r = new ProtoReader(bytes);
  let raw: Uint8Array | undefined;
  while (!r.done) {
    const start = r.pos;
    const { field, wireType } = r.key('FieldsV1');
    if (field === 1) {
      if (wireType !== WireType.bytes) throw wrongWireType(wireType, 'Raw');
      raw = r.bytes();
    } else {
      r.skipFrom(start);
    }
  }
  if (raw === undefined) return null;
  // Stored as it is, so no deeper than the store can copy (JSON bodies are held so in decodeTree).
  let tree;
  try {
    tree = parseGoJsonTree(raw);
  } catch (e) {
    if (e instanceof GoJsonSyntaxError) throw new ProtobufError('invalid JSON in FieldsV1');
    throw e;
  }
  if (nestsDeeperThan(tree, maxProcessedNesting)) throw new ProtobufError(`FieldsV1 nested more than ${maxProcessedNesting} levels deep`);
  try {
    return JSON.parse(utf8.decode(raw));
  } catch {
    throw new ProtobufError('invalid JSON in FieldsV1');
  }
}

/** A wrapper message {1: repeated items} (ExtraValue) for a map value that is a list. */
function decodeWrapper(bytes: Uint8Array, items: FieldSchema): unknown[] {
  const out: unknown[] = [];
  decodeRepeatedInto(new ProtoReader(bytes), 'ExtraValue', 1, 'Items', items, out);
  return out;
}

/** Reads the messages of a wrapper-like body: only field `num` counts, as a repeated field. */
function decodeRepeatedInto(r: ProtoReader, message: string, num: number, goName: string, items: FieldSchema, out: unknown[]): void {
  while (!r.done) {
    const start = r.pos;
    const { field, wireType } = r.key(message);
    if (field === num) readRepeated(r, wireType, items, goName, out);
    else r.skipFrom(start);
  }
}

/** One occurrence of a repeated field: a single element, or a packed run of varints. */
function readRepeated(r: ProtoReader, wireType: number, items: FieldSchema, goName: string, out: unknown[]): void {
  if (isVarintType(items) && wireType === WireType.bytes) {
    const packed = r.nested();
    while (!packed.done) out.push(varintValue(packed.uvarint(), items));
    return;
  }
  out.push(readElement(r, wireType, items, goName, undefined));
}

/** One value of type `f` at the reader's position (after its key). */
function readElement(r: ProtoReader, wireType: number, f: FieldSchema, goName: string, existing: unknown): unknown {
  if (isVarintType(f)) {
    if (wireType !== WireType.varint) throw wrongWireType(wireType, goName);
    return varintValue(r.uvarint(), f);
  }
  if (wireType !== WireType.bytes) throw wrongWireType(wireType, goName);
  const bytes = r.bytes();
  switch (f.type) {
    case 'string':
      if (f.format === 'date-time') return decodeTime(bytes, f.micro === true);
      if (f.format === 'byte') return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
      return utf8.decode(bytes);
    case 'object':
      // A message field seen twice merges, as proto does.
      return decodeMessage(new ProtoReader(bytes), f.ref(), isPlainObject(existing) ? existing : {});
    case 'array':
      return decodeWrapper(bytes, f.items);
    case 'any':
      return decodeFieldsV1(bytes);
    case 'map':
      throw new ProtobufError(`proto: ${goName}: nested maps are not supported`);
  }
  /* istanbul ignore next */
  throw new ProtobufError(`proto: ${goName}: unsupported field type`);
}

function readMapEntry(r: ProtoReader, f: Extract<FieldSchema, { type: 'map' }>, goName: string, into: Record<string, unknown>): void {
  const e = r.nested();
  let key = '';
  let value: unknown;
  let seen = false;
  while (!e.done) {
    const start = e.pos;
    const { field, wireType } = e.key(goName);
    if (field === 1) {
      if (wireType !== WireType.bytes) throw wrongWireType(wireType, 'key');
      key = utf8.decode(e.bytes());
    } else if (field === 2) {
      value = readElement(e, wireType, f.values, 'value', value);
      seen = true;
    } else {
      e.skipFrom(start);
    }
  }
  setOwn(into, key, seen ? value : protobufMapValueZero(f.values));
}

function decodeMessage(r: ProtoReader, schema: ObjectSchema, into: Record<string, unknown>): Record<string, unknown> {
  const fields = byNumber(schema);
  const message = goStructName(schema);
  while (!r.done) {
    const start = r.pos;
    const { field, wireType } = r.key(message);
    const embed = schema.protobufEmbedded?.find((e) => e.protobuf === field);
    if (embed) {
      // An inline-embedded struct: its fields land in this object, as in JSON.
      const inner = embed.schema();
      if (wireType !== WireType.bytes) throw wrongWireType(wireType, goStructName(inner));
      decodeMessage(new ProtoReader(r.bytes()), inner, into);
      continue;
    }
    const entry = fields.get(field);
    if (!entry) {
      r.skipFrom(start);
      continue;
    }
    const [name, f] = entry;
    const goName = goFieldName(name);
    if (f.type === 'array') {
      const cur = Array.isArray(into[name]) ? (into[name] as unknown[]) : [];
      readRepeated(r, wireType, f.items, goName, cur);
      into[name] = cur;
    } else if (f.type === 'map') {
      if (wireType !== WireType.bytes) throw wrongWireType(wireType, goName);
      const cur = isPlainObject(into[name]) ? (into[name] as Record<string, unknown>) : {};
      readMapEntry(r, f, goName, cur);
      into[name] = cur;
    } else {
      into[name] = readElement(r, wireType, f, goName, into[name]);
    }
  }
  return into;
}

/** Decodes an object message (the envelope's `raw`) into its JSON shape; throws ProtobufError. */
export function decodeProtobufObject(bytes: Uint8Array, schema: ObjectSchema): Record<string, unknown> {
  return decodeMessage(new ProtoReader(bytes), schema, {});
}

// ---------------------------------------------------------------------------------------
// Encoding

function encodeError(path: string, why: string): ProtobufError {
  return new ProtobufError(`cannot encode ${path}: ${why}`);
}

// Parsed times by their text: list items repeat the same timestamps; bounded by clearing.
const timeCache = new Map<string, { seconds: number; nanos: number }>();
const timeCacheLimit = 4096;

function parsedTime(v: string, path: string, micro: boolean): { seconds: number; nanos: number } {
  const key = micro ? `m${v}` : v;
  let t = timeCache.get(key);
  if (t) return t;
  try {
    if (micro) {
      const { ms, micros } = parseMicroTime(v);
      t = { seconds: Math.floor(ms / 1000), nanos: micros * 1000 };
    } else {
      t = { seconds: Math.floor(parseGoRFC3339(v) / 1000), nanos: 0 }; // metav1.Time writes nanos = 0
    }
  } catch (e) {
    if (e instanceof TimeParseError) throw encodeError(path, e.message);
    throw e;
  }
  if (timeCache.size >= timeCacheLimit) timeCache.clear();
  timeCache.set(key, t);
  return t;
}

/** A Time/MicroTime message {1: seconds, 2: nanos}; the zero time is an empty message. */
function writeTime(w: ProtoWriter, num: number, v: unknown, path: string, micro: boolean): void {
  const m = w.begin(num);
  if (v !== null && v !== undefined && v !== '') {
    let t: { seconds: number; nanos: number };
    if (v instanceof Date) t = { seconds: Math.floor(v.getTime() / 1000), nanos: micro ? (v.getTime() % 1000) * 1e6 : 0 };
    else if (typeof v === 'string') t = parsedTime(v, path, micro);
    else throw encodeError(path, 'not a time');
    w.varint(1, t.seconds);
    w.varint(2, t.nanos);
  }
  w.end(m);
}

function byteValue(v: unknown, path: string): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (typeof v !== 'string') throw encodeError(path, 'not a base64 string');
  try {
    return decodeGoBase64(v);
  } catch (e) {
    if (e instanceof Base64Error) throw encodeError(path, e.message);
    throw e;
  }
}

const int32Min = -(2 ** 31);
const int32Max = 2 ** 31 - 1;

function integerValue(v: unknown, f: FieldSchema, path: string): number | bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw encodeError(path, 'not an integer');
  const int32 = f.type === 'integer' && f.format === 'int32';
  if (int32 && (v < int32Min || v > int32Max)) return BigInt.asIntN(32, BigInt(v));
  return Number.isSafeInteger(v) ? v : BigInt(v);
}

/** Writes one value of type `f` as field `num` (an array value becomes a wrapper message). */
function writeElement(w: ProtoWriter, num: number, f: FieldSchema, v: unknown, path: string): void {
  switch (f.type) {
    case 'string':
      if (f.format === 'date-time') return writeTime(w, num, v, path, f.micro === true);
      if (f.format === 'byte') {
        if (v === null || v === undefined) return;
        return w.bytes(num, byteValue(v, path));
      }
      if (v === null || v === undefined) return w.string(num, '');
      if (typeof v !== 'string') throw encodeError(path, 'not a string');
      return w.string(num, v);
    case 'integer':
      return w.varint(num, v === null || v === undefined ? 0 : integerValue(v, f, path));
    case 'boolean':
      if (v !== null && v !== undefined && typeof v !== 'boolean') throw encodeError(path, 'not a boolean');
      return w.varint(num, v === true);
    case 'object': {
      const schema = f.ref();
      if (v instanceof EncodedMessage) {
        if (v.schema !== schema) throw encodeError(path, 'encoded as another message');
        return w.bytes(num, v.bytes);
      }
      if (v !== null && v !== undefined && !isPlainObject(v)) throw encodeError(path, 'not an object');
      const shared = v && Object.isFrozen(v) ? sharedMessages.get(v) : undefined;
      if (shared && shared.schema === schema) return w.bytes(num, shared.bytes);
      const m = w.begin(num);
      const start = w.length;
      writeMessage(w, (v ?? {}) as Record<string, unknown>, schema, path);
      if (v && Object.isFrozen(v)) sharedMessages.set(v, { schema, bytes: w.copy(start) });
      return w.end(m);
    }
    case 'array': {
      const m = w.begin(num);
      writeField(w, 1, { type: 'array', items: f.items }, v ?? [], path);
      return w.end(m);
    }
    case 'any': {
      const m = w.begin(num);
      if (v !== null && v !== undefined) w.string(1, JSON.stringify(v));
      return w.end(m);
    }
    case 'map':
      throw encodeError(path, 'nested maps are not supported');
    case 'number':
    case 'intOrString':
      // Only custom resources use these, and they have no Protobuf encoding.
      throw encodeError(path, `no Protobuf encoding for ${f.type}`);
  }
}

function writeField(w: ProtoWriter, num: number, f: FieldSchema, v: unknown, path: string): void {
  if (v === undefined) return;
  switch (f.type) {
    case 'array':
      if (v === null) return;
      if (!Array.isArray(v)) throw encodeError(path, 'not an array');
      for (let i = 0; i < v.length; i++) writeElement(w, num, f.items, v[i], `${path}[${i}]`);
      return;
    case 'map': {
      if (v === null) return;
      if (!isPlainObject(v)) throw encodeError(path, 'not a map');
      for (const k of Object.keys(v).sort(compareCodePoints)) {
        const m = w.begin(num);
        w.string(1, k);
        writeElement(w, 2, f.values, v[k], `${path}.${k}`);
        w.end(m);
      }
      return;
    }
    case 'string':
      // A null time is Go's zero Time: an empty message. Other nulls are absent.
      if (v === null && f.format !== 'date-time') return;
      return writeElement(w, num, f, v, path);
    default:
      if (v === null) return;
      return writeElement(w, num, f, v, path);
  }
}

/**
 * Where a top-level message's kept item messages go (encodeProtobufChunks): the writer's
 * position after each one's field header, and its bytes, which the writer does not copy.
 */
type Splices = Array<{ at: number; bytes: Uint8Array }>;

/**
 * A repeated message field whose elements are kept messages (EncodedMessage): each one's tag
 * and length are written, its bytes recorded in `splices` to be placed there. Only at the top
 * level: no enclosing length has to count them.
 */
function writeSplicedField(w: ProtoWriter, num: number, f: Extract<FieldSchema, { type: 'array' }>, v: unknown[], path: string, splices: Splices): void {
  const schema = f.items.type === 'object' ? f.items.ref() : undefined;
  for (let i = 0; i < v.length; i++) {
    const e = v[i];
    if (e instanceof EncodedMessage && e.schema === schema) {
      w.bytesHeader(num, e.bytes.length);
      splices.push({ at: w.length, bytes: e.bytes });
    } else {
      writeElement(w, num, f.items, e, `${path}[${i}]`);
    }
  }
}

function writeMessage(w: ProtoWriter, obj: Record<string, unknown>, schema: ObjectSchema, path: string, splices?: Splices): void {
  const embeds = schema.protobufEmbedded ?? [];
  let next = 0;
  // Inline-embedded structs are non-pointer messages: always written, in field-number order.
  const writeEmbedsBefore = (num: number): void => {
    for (; next < embeds.length && embeds[next].protobuf < num; next++) {
      const m = w.begin(embeds[next].protobuf);
      writeMessage(w, obj, embeds[next].schema(), path);
      w.end(m);
    }
  };
  for (const [num, name, f] of fieldOrder(schema)) {
    writeEmbedsBefore(num);
    if (!Object.prototype.hasOwnProperty.call(obj, name)) continue;
    const v = obj[name];
    if (splices && f.type === 'array' && Array.isArray(v)) writeSplicedField(w, num, f, v, name, splices);
    else writeField(w, num, f, v, path ? `${path}.${name}` : name);
  }
  writeEmbedsBefore(Infinity);
}

/**
 * A message already encoded (a list item the store keeps as its bytes instead of a decoded
 * tree): written as it is where its schema's message goes.
 */
export class EncodedMessage {
  constructor(
    readonly schema: ObjectSchema,
    readonly bytes: Uint8Array,
  ) {
    Object.freeze(this);
  }
}

/** An object's message as an EncodedMessage of its own exact-size bytes (kept by a cache). */
export function encodedMessage(obj: Record<string, unknown>, schema: ObjectSchema): EncodedMessage {
  const bytes = encodeMessage(obj, schema, '');
  // A Buffer of its own memory: a list writes it as it is, and the writer would wrap a plain Uint8Array again per write.
  const own = Buffer.allocUnsafeSlow(bytes.length);
  own.set(bytes);
  return new EncodedMessage(schema, own);
}

// Frozen objects are shared read-only (list items, watch events): their message is encoded
// once, as their JSON is (apiserver/respond.ts stringifyShared).
const sharedMessages = new WeakMap<object, { schema: ObjectSchema; bytes: Uint8Array }>();

function encodeMessage(obj: Record<string, unknown>, schema: ObjectSchema, path: string): Uint8Array {
  const w = new ProtoWriter();
  writeMessage(w, obj, schema, path);
  return w.finish();
}

/** Encodes a JSON-shaped object as its message (the envelope's `raw`); throws ProtobufError. */
export function encodeProtobufObject(obj: Record<string, unknown>, schema: ObjectSchema): Uint8Array {
  return encodeMessage(obj, schema, '');
}

// ---------------------------------------------------------------------------------------
// Envelope: magic + runtime.Unknown {1: TypeMeta{1: apiVersion, 2: kind}, 2: raw,
// 3: contentEncoding, 4: contentType}.

export interface ProtobufEnvelope {
  apiVersion: string;
  kind: string;
  /** The serialized object message. */
  raw: Uint8Array;
  contentType: string;
}

function decodeTypeMeta(bytes: Uint8Array): { apiVersion: string; kind: string } {
  const r = new ProtoReader(bytes);
  const out = { apiVersion: '', kind: '' };
  while (!r.done) {
    const start = r.pos;
    const { field, wireType } = r.key('TypeMeta');
    if (field === 1 || field === 2) {
      if (wireType !== WireType.bytes) throw wrongWireType(wireType, field === 1 ? 'APIVersion' : 'Kind');
      const s = utf8.decode(r.bytes());
      if (field === 1) out.apiVersion = s;
      else out.kind = s;
    } else {
      r.skipFrom(start);
    }
  }
  return out;
}

/**
 * Parses a Protobuf body: the magic, then runtime.Unknown. Throws ProtobufError with the
 * protobuf serializer's texts ("empty data", "provided data does not appear to be …").
 * A non-empty contentEncoding is refused: the raw bytes could not be read as a message.
 */
export function decodeProtobufEnvelope(body: Uint8Array): ProtobufEnvelope {
  const n = protobufMagic.length;
  if (body.length === 0) throw new ProtobufError('empty data');
  if (body.length < n || !protobufMagic.every((b, i) => body[i] === b)) {
    throw new ProtobufError(`provided data does not appear to be a protobuf message, expected prefix [${[...protobufMagic].join(' ')}]`);
  }
  if (body.length === n) throw new ProtobufError('empty body');
  const r = new ProtoReader(body, n);
  const out: ProtobufEnvelope = { apiVersion: '', kind: '', raw: new Uint8Array(0), contentType: '' };
  let contentEncoding = '';
  while (!r.done) {
    const start = r.pos;
    const { field, wireType } = r.key('Unknown');
    const names: Record<number, string> = { 1: 'TypeMeta', 2: 'Raw', 3: 'ContentEncoding', 4: 'ContentType' };
    if (!names[field]) {
      r.skipFrom(start);
      continue;
    }
    if (wireType !== WireType.bytes) throw wrongWireType(wireType, names[field]);
    const b = r.bytes();
    if (field === 1) Object.assign(out, decodeTypeMeta(b));
    else if (field === 2) out.raw = b;
    else if (field === 3) contentEncoding = utf8.decode(b);
    else out.contentType = utf8.decode(b);
  }
  if (contentEncoding !== '') throw new ProtobufError(`unsupported content encoding ${JSON.stringify(contentEncoding)}`);
  return out;
}

/** The envelope's bytes before a `raw` of rawLength bytes (magic included) and after it. */
function envelopeAround(apiVersion: string, kind: string, rawLength: number): { head: Uint8Array; tail: Uint8Array } {
  const tm = new ProtoWriter();
  tm.string(1, apiVersion);
  tm.string(2, kind);
  const w = new ProtoWriter();
  w.bytes(1, tm.finish());
  w.bytesHeader(2, rawLength);
  const h = w.finish();
  const head = new Uint8Array(protobufMagic.length + h.length);
  head.set(protobufMagic, 0);
  head.set(h, protobufMagic.length);
  const tail = new ProtoWriter();
  tail.string(3, '');
  tail.string(4, '');
  return { head, tail: tail.finish() };
}

/** magic + Unknown, all four fields written as upstream's marshaller does. */
export function encodeProtobufEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  const { head, tail } = envelopeAround(apiVersion, kind, raw.length);
  // raw (a whole list's message can be megabytes) is copied once, straight into the output.
  const out = new Uint8Array(head.length + raw.length + tail.length);
  out.set(head, 0);
  out.set(raw, head.length);
  out.set(tail, head.length + raw.length);
  return out;
}

/**
 * encodeProtobuf's body as pieces (a list's response, lib/codec/bodyChunks.ts): the envelope
 * and the object's own fields around the bytes of each kept item message (EncodedMessage) in
 * a top-level repeated field, which are not copied. Field headers and lengths are the same:
 * each item's length is its kept bytes', the message's the sum of its pieces.
 */
export function encodeProtobufChunks(obj: Record<string, unknown>, schema: ObjectSchema, apiVersion: string, kind: string): BodyChunks {
  const w = new ProtoWriter();
  const splices: Splices = [];
  writeMessage(w, obj, schema, '', splices);
  const written = w.finish();
  // Buffers (views), so the writer need not wrap each piece again.
  const own = Buffer.from(written.buffer, written.byteOffset, written.length);
  const chunks = new Array<Uint8Array>(2 * splices.length + 3);
  let rawLength = own.length;
  let from = 0;
  let n = 1;
  for (let i = 0; i < splices.length; i++) {
    const { at, bytes } = splices[i];
    chunks[n++] = own.subarray(from, at);
    chunks[n++] = bytes;
    rawLength += bytes.length;
    from = at;
  }
  chunks[n++] = own.subarray(from);
  const { head, tail } = envelopeAround(apiVersion, kind, rawLength);
  chunks[0] = Buffer.from(head.buffer, head.byteOffset, head.length);
  chunks[n] = Buffer.from(tail.buffer, tail.byteOffset, tail.length);
  return new BodyChunks(chunks, head.length + rawLength + tail.length);
}

/** Object → complete Protobuf body (envelope around the object's message). */
export function encodeProtobuf(obj: Record<string, unknown>, schema: ObjectSchema, apiVersion: string, kind: string): Uint8Array {
  return encodeProtobufEnvelope(apiVersion, kind, encodeProtobufObject(obj, schema));
}
