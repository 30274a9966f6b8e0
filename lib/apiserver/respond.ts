// Writing responses: objects in the negotiated media type, errors as Status (errors.md §1).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import * as yaml from 'js-yaml';
import type { Status } from '../api';
import { BodyChunks } from '../codec/bodyChunks';
import { encodeCBOR, encodeCBORItem, encodeCBORListChunks } from '../codec/cborEncode';
import { encodedMessage, encodeProtobuf, encodeProtobufChunks } from '../codec/protobuf';
import type { ObjectSchema } from '../api/schema';
import { RawJson } from '../codec/rawJson';
import { SplicedJson } from '../codec/splicedJson';
import { ApiError, errors } from '../machinery/errors';
import { servedEncodings } from '../registry/servedEncodings';
import { ServedObject } from '../registry/servingCache';
import { goQuote } from '../machinery/goStrconv';
import type { KindSchemas } from './kindSchemas';
import type { PartialTarget } from './partialObjectMetadata';
import type { TableTarget } from './tableOutput';
import { warningHeaderValues } from './warningHeader';
import { bodyPieceBytes, endInPieces } from './endInPieces';
import { isHttp2Response } from './protocol';
import { sanitizeErrorText } from './sanitize';

export type OutputEncoding = 'json' | 'yaml' | 'protobuf' | 'cbor';

export interface OutputFormat {
  format: OutputEncoding;
  /** The negotiated media type, written as Content-Type (the Protobuf spelling the client used). */
  mediaType: string;
  pretty: boolean;
  /** The client asked for a Table (as=Table;g=…;v=…) in this media type. */
  table?: TableTarget;
  /** The client asked for PartialObjectMetadata(List) (as=…;g=…;v=…) in this media type. */
  partial?: PartialTarget;
  /** Schemas by apiVersion and kind, which the Protobuf and CBOR encodings need. */
  schemas?: KindSchemas;
}

/** The JSON output used before negotiation and for answers that are JSON regardless (406). */
export function jsonOutput(pretty: boolean): OutputFormat {
  return { format: 'json', mediaType: 'application/json', pretty };
}

/** Responses at least this large are gzipped when the client accepts it (upstream's threshold). */
export const gzipThreshold = 128 * 1024;

export interface ResponseOptions {
  compression: boolean;
  warnings?: readonly string[];
}

export function isPrettyRequested(req: IncomingMessage, query: URLSearchParams): boolean {
  const p = query.get('pretty');
  if (p !== null) return p === '' || p === 'true' || p === '1';
  const ua = req.headers['user-agent'] ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/');
}

// Objects shared between responses (decoded list items, watch event objects, GETs) are frozen
// and encoded once per media type: the encoders below ask the registry's serving cache
// (servedEncodings, by identity; ServedObject for a read's revision) before encoding.

/** JSON of a value; frozen objects' JSON is computed once and reused. */
export function stringifyShared(value: object): string {
  if (!Object.isFrozen(value)) return JSON.stringify(value);
  return servedEncodings.jsonText.of(value, () => JSON.stringify(value));
}

/** Compact JSON bytes; a list's are jsonListChunks' in one buffer. */
function compactJson(value: unknown): Buffer {
  if (typeof value !== 'object' || value === null || !isList(value as Record<string, unknown>)) return Buffer.from(JSON.stringify(value));
  return jsonListChunks(value as Record<string, unknown> & { items: unknown[] }).toBuffer();
}

/** Text items gathered into one chunk up to about this many characters. */
const jsonTextChunk = 64 * 1024;

/**
 * A compact JSON list as pieces. The items' (possibly memoised) JSON is spliced in instead of
 * serialising them again: items rebuilt from stored bytes (SplicedJson) are written as a small
 * head (up to and with their resourceVersion) and a view of the rest of those bytes, never made
 * into strings or copied into a body-sized buffer; runs of text items (RawJson, memoised JSON) are joined into chunks of about 64 KiB.
 */
function jsonListChunks(value: Record<string, unknown> & { items: unknown[] }): BodyChunks {
  const { items, ...rest } = value;
  const head = JSON.stringify(rest);
  let text = `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}"items":[`;
  const chunks: Uint8Array[] = [];
  let length = 0;
  const flush = (): void => {
    const b = Buffer.from(text);
    chunks.push(b);
    length += b.length;
    text = '';
  };
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item instanceof SplicedJson) {
      if (text.length > 0) flush();
      length += item.appendTo(chunks, i > 0);
      continue;
    }
    const part = item instanceof RawJson ? item.json : stringifyShared(item as object);
    text = i > 0 ? `${text},${part}` : `${text}${part}`;
    if (text.length >= jsonTextChunk) flush();
  }
  text += ']}';
  flush();
  return new BodyChunks(chunks, length);
}

/** The Protobuf body of an object carrying apiVersion and kind: magic + Unknown envelope. */
export function protobufBody(value: unknown, schemas: KindSchemas | undefined): Buffer {
  const obj = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return servedEncodings.protobufBody.of(obj, () => {
    const { schema, apiVersion, kind } = protobufKind(obj, schemas);
    const bytes = encodeProtobuf(obj, schema, apiVersion, kind);
    // A view, not a copy: the encoder's output is exactly the body.
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  });
}

/** A Protobuf list body as pieces: the envelope and list fields around each item's kept message. */
function protobufListChunks(obj: Record<string, unknown>, schemas: KindSchemas | undefined): BodyChunks {
  const { schema, apiVersion, kind } = protobufKind(obj, schemas);
  return encodeProtobufChunks(obj, schema, apiVersion, kind);
}

/** The object's apiVersion and kind, and the schema its Protobuf encoding follows. */
function protobufKind(obj: Record<string, unknown>, schemas: KindSchemas | undefined): { schema: ObjectSchema; apiVersion: string; kind: string } {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const schema = schemas?.(apiVersion, kind);
  if (!schema) throw errors.internal(`no protobuf encoding is known for ${apiVersion}, Kind=${kind}`);
  return { schema, apiVersion, kind };
}

/** The item schema of a list kind, as the list encoders find it. */
function listItemSchema(schemas: KindSchemas | undefined, apiVersion: string, listKind: string): ObjectSchema | undefined {
  const f = schemas?.(apiVersion, listKind)?.fields.items;
  return f?.type === 'array' && f.items.type === 'object' ? f.items.ref() : undefined;
}

/**
 * How a Protobuf or CBOR list's items are kept per cached object (lib/registry list's
 * encodedItems): the bytes protobufBody / cborBody would write for the item, made once.
 */
export function encodedListItems(out: OutputFormat, apiVersion: string, listKind: string): { format: string; encode(item: object): object } | undefined {
  const schema = listItemSchema(out.schemas, apiVersion, listKind);
  if (!schema) return undefined;
  if (out.format === 'protobuf') return { format: 'protobuf', encode: (item) => encodedMessage(item as Record<string, unknown>, schema) };
  if (out.format === 'cbor') return { format: 'cbor', encode: (item) => exactCopy(encodeCBORItem(item, schema)) };
  return undefined;
}

/** Kept bytes in their own memory: not a view of the encoder's buffer or of Buffer's shared pool. */
function exactCopy(b: Uint8Array): Buffer {
  const c = Buffer.allocUnsafeSlow(b.length);
  c.set(b);
  return c;
}

function cborItem(item: unknown, schema: ObjectSchema | undefined): Buffer {
  // Kept encoded by the store (a list's encodedItems).
  if (Buffer.isBuffer(item)) return item;
  if (typeof item !== 'object' || item === null || !Object.isFrozen(item)) return encodeCBORItem(item, schema);
  // A kept item gets its own copy of the encoder's output.
  return servedEncodings.cborItem.of(item, () => Buffer.from(encodeCBORItem(item, schema)));
}

/** A CBOR list body as pieces: the list's own fields around each item's (kept) encoding. */
function cborListChunks(obj: Record<string, unknown> & { items: unknown[] }, schema: ObjectSchema | undefined): BodyChunks {
  const f = schema?.fields.items;
  const itemSchema = f?.type === 'array' && f.items.type === 'object' ? f.items.ref() : undefined;
  return encodeCBORListChunks(
    obj,
    schema,
    obj.items.map((i) => cborItem(i, itemSchema)),
  );
}

const isList = (obj: Record<string, unknown>): obj is Record<string, unknown> & { items: unknown[] } => Array.isArray(obj.items);

/**
 * The CBOR body of an object carrying apiVersion and kind (the self-described tag, then the
 * item), in the nondeterministic mode upstream uses for responses (docs/decisions.md, "CBOR").
 */
export function cborBody(value: unknown, schemas: KindSchemas | undefined): Buffer {
  const obj = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return servedEncodings.cborBody.of(obj, () => {
    const schema = schemas?.(String(obj.apiVersion ?? ''), String(obj.kind ?? ''));
    // A list's body is made at its exact size: a remembered one needs no copy either.
    if (isList(obj)) return cborListChunks(obj, schema).toBuffer();
    // The encoder's buffer may be larger than its output: a remembered body gets its own copy.
    const body = encodeCBOR(obj, schema);
    return Object.isFrozen(obj) ? Buffer.from(body) : body;
  });
}

/**
 * Compact JSON bytes the serving cache has for a value: a read's revision (its memoised text or
 * splice into the stored bytes), the object a write returned (the text found in the bytes it
 * wrote), a shared frozen object's body; undefined when the value has to be serialised.
 */
function cachedCompactJson(value: object): Buffer | undefined {
  const kept = value instanceof ServedObject ? value.json() : servedEncodings.writtenJson.peek(value);
  if (kept instanceof RawJson) return Buffer.from(kept.json);
  if (kept instanceof SplicedJson) return kept.toBuffer();
  if (!Object.isFrozen(value)) return undefined;
  return servedEncodings.jsonBody.of(value, () => Buffer.from(stringifyShared(value)));
}

export function serialize(value: unknown, out: OutputFormat): Buffer {
  // A read's revision: compact JSON without a decoded tree, else its shared object.
  if (value instanceof ServedObject && (out.format !== 'json' || out.pretty)) return serialize(value.object, out);
  if (out.format === 'protobuf') return protobufBody(value, out.schemas);
  if (out.format === 'cbor') return cborBody(value, out.schemas);
  if (out.format === 'yaml') return Buffer.from(yaml.dump(value, { lineWidth: -1, noRefs: true, schema: yaml.JSON_SCHEMA }));
  if (out.pretty) return Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
  if (value instanceof RawJson) return Buffer.from(value.json);
  if (value instanceof SplicedJson) return value.toBuffer();
  const cached = typeof value === 'object' && value !== null ? cachedCompactJson(value) : undefined;
  return cached ?? compactJson(value);
}

/**
 * serialize's bytes, or a CBOR, Protobuf or compact JSON list's as pieces (its items' kept
 * encodings are written as they are, never gathered into one body-sized buffer). A shared
 * frozen list keeps its one buffer.
 */
export function serializeBody(value: unknown, out: OutputFormat): Buffer | BodyChunks {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value) || !isList(value as Record<string, unknown>)) return serialize(value, out);
  const obj = value as Record<string, unknown> & { items: unknown[] };
  if (out.format === 'cbor') return cborListChunks(obj, out.schemas?.(String(obj.apiVersion ?? ''), String(obj.kind ?? '')));
  if (out.format === 'protobuf') return protobufListChunks(obj, out.schemas);
  if (out.format === 'json' && !out.pretty) return jsonListChunks(obj);
  return serialize(value, out);
}

export function writeBody(
  req: IncomingMessage,
  res: ServerResponse,
  code: number,
  body: Buffer | BodyChunks,
  contentType: string,
  opts: ResponseOptions,
  extraHeaders: Record<string, string | string[]> = {},
): void {
  const headers: Record<string, string | string[] | number> = { 'Content-Type': contentType, ...extraHeaders };
  // Upstream's rule for the whole list (dedupe, quoting, 4 Ki runes): applied here, once.
  const warnings = opts.warnings?.length ? warningHeaderValues(opts.warnings) : [];
  if (warnings.length) headers.Warning = warnings;
  let payload = body;
  if (opts.compression && body.length >= gzipThreshold && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    payload = gzipSync(body instanceof BodyChunks ? body.toBuffer() : body);
    headers['Content-Encoding'] = 'gzip';
    headers.Vary = 'Accept-Encoding';
  }
  headers['Content-Length'] = payload.length;
  res.writeHead(code, headers);
  // HTTP/2 frames its own DATA and keeps no buffer of a write's size: one piece, all corked.
  if (req.method === 'HEAD') res.end();
  else endInPieces(res, payload instanceof BodyChunks ? payload.chunks : payload, isHttp2Response(res) ? Infinity : bodyPieceBytes);
}

/** The last object written as a response body, for audit at level RequestResponse. */
const writtenObjects = new WeakMap<ServerResponse, unknown>();

export function writtenObject(res: ServerResponse): unknown {
  const value = writtenObjects.get(res);
  return value instanceof ServedObject ? value.object : value;
}

export function writeObject(
  req: IncomingMessage,
  res: ServerResponse,
  code: number,
  value: unknown,
  out: OutputFormat,
  opts: ResponseOptions,
): void {
  const body = serializeBody(value, out);
  // A read's revision is kept as it is: audit asks for its object only when it records it.
  writtenObjects.set(res, value);
  writeBody(req, res, code, body, out.mediaType, opts);
}

export function writeError(req: IncomingMessage, res: ServerResponse, err: ApiError, out: OutputFormat | null, opts: ResponseOptions): void {
  const status: Status = err.status;
  const format: OutputFormat = out ?? jsonOutput(true);
  const extra: Record<string, string> = { 'X-Content-Type-Options': 'nosniff' };
  const retry = status.details?.retryAfterSeconds;
  if (retry && retry > 0) extra['Retry-After'] = String(retry);
  if (res.headersSent) {
    res.end();
    return;
  }
  let body: Buffer;
  try {
    body = serialize(status, format);
  } catch {
    // Not expected (Status always has a schema); the client still gets the error, in JSON.
    writeBody(req, res, status.code ?? 500, serialize(status, jsonOutput(true)), 'application/json', opts, extra);
    return;
  }
  writeBody(req, res, status.code ?? 500, body, format.mediaType, opts, extra);
}

/**
 * Upstream's responsewriters.InternalError (Go's http.Error): a plain-text 500 naming the request
 * URI, not a Status. Upstream answers this way where a filter fails before any handler (a
 * malformed impersonation request); clients show the text.
 */
export function writeInternalErrorText(res: ServerResponse, requestURI: string, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = sanitizeErrorText(`Internal Server Error: ${goQuote(requestURI)}: ${message}`);
  const body = Buffer.from(`${text}\n`, 'utf8');
  res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Content-Length': body.length });
  res.end(body);
}
