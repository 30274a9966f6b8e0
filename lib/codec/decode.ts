// Request body decoding for create/update (upstream: the json/yaml serializer in strict or
// non-strict mode, wrapped by the handlers' transformDecodeError). Every failure is a 400
// BadRequest with upstream's message; unknown and duplicate fields follow fieldValidation.
import type { ApiObject } from '../api/meta';
import { protobufMediaType, protobufMediaTypeAliases } from '../api/product';
import type { ObjectSchema } from '../api/schema';
import { ApiError, errors } from '../machinery/errors';
import type { GoJsonNode } from '../machinery/goJson';
import { goJsonNodeFromValue, GoJsonSyntaxError, parseGoJsonTree } from '../machinery/goJson';
import { goQuote } from '../machinery/goStrconv';
import { decodeTree } from './decodeTree';
import { decodeTyped } from './decodeTyped';
import { GroupVersionKind, groupVersionString, interpretKind, InterpretError, parseGroupVersion, withDefaults } from './interpret';
import { mediaTypeOf } from './mediaType';
import { normalize } from './normalize';
import { CborError, decodeCBOR, interpretCBOR } from './cborDecode';
import { decodeProtobufEnvelope, decodeProtobufObject, ProtobufError } from './protobuf';
import { parseYAML, YAMLSyntaxError } from './yamlTree';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export interface DecodeOptions {
  /** Content-Type header (parameters allowed); absent or empty means JSON. */
  contentType?: string;
  /** Schema of the endpoint's kind. */
  schema: ObjectSchema;
  /** The kind the endpoint decodes into; a body without apiVersion/kind gets these. */
  gvk: GroupVersionKind;
  /** Default Warn, as upstream. */
  fieldValidation?: FieldValidation;
  /** Group-versions the endpoint accepts (default: exactly gvk's). */
  acceptsGroupVersion?: (gv: { group: string; version: string }) => boolean;
  /** `application/cbor` bodies are read (the CBORServingAndStorage gate). Default false. */
  cbor?: boolean;
}

export interface DecodeResult {
  /** The decoded object with apiVersion and kind set; unknown fields dropped. */
  object: ApiObject;
  /** Warning texts (Warn only), one per Warning header: `unknown field "spec.foo"`. */
  warnings: string[];
}

/** Media types a create/update body may have, as listed in upstream's 415 message. */
export const bodyMediaTypes = ['application/json', 'application/yaml', protobufMediaType] as const;

/** CBOR's media type (RFC 8949), served when the CBORServingAndStorage gate is on. */
export const cborMediaType = 'application/cbor';

/** The 415 list: the codec factory's types, CBOR last when the gate adds it. */
export function bodyMediaTypesFor(cbor: boolean): readonly string[] {
  return cbor ? [...bodyMediaTypes, cborMediaType] : bodyMediaTypes;
}

/** Content types read as Protobuf: ours and the upstream spelling stock clients send. */
const protobufBodyTypes: ReadonlySet<string> = new Set([protobufMediaType, ...protobufMediaTypeAliases]);

/** Scheme name upstream prints in "no kind is registered" errors. */
const schemeName = 'pkg/api/legacyscheme/scheme.go:30';

/** summarizeData(body, 30) of the apiserver's handlers. */
function summarize(body: Uint8Array): string {
  const max = 30;
  if (body.length === 0) return '<empty>';
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body[0] === 0x7b) return body.length > max ? `${buf.subarray(0, max).toString('utf8')} ...` : buf.toString('utf8');
  return body.length > max ? `${buf.subarray(0, max).toString('hex')} ...` : buf.toString('hex');
}

function unrecognized(kind: string, message: string, body: Uint8Array): ApiError {
  return errors.badRequest(`the object provided is unrecognized (must be of type ${kind}): ${message} (${summarize(body)})`);
}

/** Upstream's addStrictDecodingWarnings: YAML error lists become one warning per line. */
function warningsOf(strict: readonly string[]): string[] {
  const out: string[] = [];
  for (const e of strict) {
    let text = e;
    for (const prefix of ['yaml: unmarshal errors:\n', 'error converting YAML to JSON: yaml: unmarshal errors:\n']) {
      if (text.startsWith(prefix)) {
        text = text.slice(prefix.length);
        break;
      }
    }
    for (const line of text.split('\n')) out.push(line.trim());
  }
  return out;
}

/** The endpoint checks both formats share: group/version accepted, kind registered. */
function checkKind(actual: GroupVersionKind, opts: DecodeOptions): (why: string) => ApiError {
  const expected = opts.gvk;
  const cannotHandle = (why: string): ApiError =>
    errors.badRequest(`${actual.kind} in version ${goQuote(actual.version)} cannot be handled as a ${expected.kind}: ${why}`);
  const acceptsGV = opts.acceptsGroupVersion ?? ((gv) => gv.group === expected.group && gv.version === expected.version);
  if (!acceptsGV(actual)) {
    throw errors.badRequest(
      `the API version in the data (${groupVersionString(actual)}) does not match the expected API version (${groupVersionString(expected)})`,
    );
  }
  if (actual.kind !== expected.kind) {
    throw cannotHandle(`no kind ${goQuote(actual.kind)} is registered for version ${goQuote(groupVersionString(actual))} in scheme ${goQuote(schemeName)}`);
  }
  return cannotHandle;
}

function finish(actual: GroupVersionKind, value: Record<string, unknown>, warnings: string[]): DecodeResult {
  const apiVersion = groupVersionString(actual);
  const object: ApiObject = { apiVersion, kind: actual.kind, ...value };
  object.apiVersion = apiVersion;
  object.kind = actual.kind;
  return { object, warnings };
}

/**
 * The protobuf serializer's Decode: magic, runtime.Unknown, kind defaults from the endpoint
 * (copyKindDefaults), then proto.Unmarshal of raw. Envelope errors have no kind yet, so the
 * handler reports them as "the object provided is unrecognized"; errors in raw as "cannot be
 * handled as". Protobuf has no unknown-field detection, hence no warnings.
 */
function decodeProtobufBody(body: Uint8Array, opts: DecodeOptions): DecodeResult {
  const expected = opts.gvk;
  let env;
  try {
    env = decodeProtobufEnvelope(body);
  } catch (e) {
    if (e instanceof ProtobufError) throw unrecognized(expected.kind, e.message, body);
    throw e;
  }
  // schema.FromAPIVersionAndKind: an unparsable apiVersion leaves group and version empty.
  let gv = { group: '', version: '' };
  try {
    gv = parseGroupVersion(env.apiVersion);
  } catch (e) {
    if (!(e instanceof InterpretError)) throw e;
  }
  const actual: GroupVersionKind = { ...gv, kind: env.kind };
  if (!actual.kind) actual.kind = expected.kind;
  if (!actual.version && expected.version) {
    actual.group = expected.group;
    actual.version = expected.version;
  }
  const cannotHandle = checkKind(actual, opts);

  let decoded: Record<string, unknown>;
  try {
    decoded = decodeProtobufObject(env.raw, opts.schema);
  } catch (e) {
    if (e instanceof ProtobufError) throw cannotHandle(e.message);
    throw e;
  }
  // The Go struct proto.Unmarshal filled is what the JSON decoder would fill from that
  // struct's JSON, so go through that JSON form: zero values dropped as encoding/json's
  // omitempty would, then the same tree decoder as JSON bodies.
  const result = decodeTree(goJsonNodeFromValue(normalize(decoded, opts.schema)), opts.schema, { strict: false });
  if (result.error !== undefined) throw cannotHandle(result.error);
  return finish(actual, result.value, []);
}

/**
 * The CBOR serializer's Decode: apiVersion/kind read leniently first (its errors have no kind
 * yet: "the object provided is unrecognized"), then the strict decode into the endpoint's type,
 * whose unknown-field error is the one strict decoding error (a warning under Warn). Duplicate
 * keys are always fatal (cborDecode.ts).
 */
function decodeCborBody(body: Uint8Array, opts: DecodeOptions, validation: FieldValidation): DecodeResult {
  const expected = opts.gvk;
  let typeMeta;
  try {
    typeMeta = interpretCBOR(body);
  } catch (e) {
    if (e instanceof CborError) throw unrecognized(expected.kind, e.message, body);
    throw e;
  }
  let gv = { group: '', version: '' };
  try {
    gv = parseGroupVersion(typeMeta.apiVersion);
  } catch (e) {
    if (!(e instanceof InterpretError)) throw e;
  }
  const actual = withDefaults({ ...gv, kind: typeMeta.kind }, expected);
  const cannotHandle = checkKind(actual, opts);
  const decoded = decodeCBOR(body, opts.schema, validation !== 'Ignore');
  if (decoded.error !== undefined) throw cannotHandle(decoded.error);
  const warnings: string[] = [];
  if (decoded.strictError !== undefined) {
    if (validation === 'Strict') throw cannotHandle(`strict decoding error: ${decoded.strictError}`);
    warnings.push(decoded.strictError);
  }
  const value = decoded.value ?? {};
  const result = decodeTree(goJsonNodeFromValue(value), opts.schema, { strict: false });
  if (result.error !== undefined) throw cannotHandle(result.error);
  return finish(actual, result.value, warnings);
}

/** decode's end for a body decodeTyped read: interpretKind's reading of the same members, then as below. */
function finishTyped(value: Record<string, unknown>, body: Uint8Array, opts: DecodeOptions): DecodeResult {
  // decodeTyped gave up on anything but a string or null in these (and on other spellings).
  const apiVersion = typeof value.apiVersion === 'string' ? value.apiVersion : '';
  const kind = typeof value.kind === 'string' ? value.kind : '';
  let actual: GroupVersionKind;
  try {
    actual = withDefaults({ ...parseGroupVersion(apiVersion), kind }, opts.gvk);
  } catch (e) {
    if (e instanceof InterpretError) throw unrecognized(opts.gvk.kind, e.message, body);
    throw e;
  }
  checkKind(actual, opts);
  return finish(actual, value, []);
}

/** Decodes a create/update body; throws ApiError (400/415) as upstream would. */
export function decode(body: Uint8Array, opts: DecodeOptions): DecodeResult {
  const validation = opts.fieldValidation ?? 'Warn';
  const strict = validation !== 'Ignore';
  const expected = opts.gvk;
  const { mediaType } = mediaTypeOf(opts.contentType);
  if (protobufBodyTypes.has(mediaType)) return decodeProtobufBody(body, opts);
  if (mediaType === cborMediaType && opts.cbor === true) return decodeCborBody(body, opts, validation);

  let root: GoJsonNode;
  const strictErrors: string[] = [];
  if (mediaType === '' || mediaType === 'application/json') {
    // Most bodies decode in one pass; anything to report is left to the exact path below.
    const typed = decodeTyped(body, opts.schema);
    if (typed) return finishTyped(typed, body, opts);
    try {
      root = parseGoJsonTree(body);
    } catch (e) {
      if (e instanceof GoJsonSyntaxError) throw unrecognized(expected.kind, `couldn't get version/kind; json parse error: ${e.message}`, body);
      throw e;
    }
  } else if (mediaType === 'application/yaml') {
    try {
      const tree = parseYAML(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'), strict);
      root = tree.root;
      if (tree.duplicateKeys) strictErrors.push(tree.duplicateKeys);
    } catch (e) {
      if (e instanceof YAMLSyntaxError) throw unrecognized(expected.kind, e.message, body);
      throw e;
    }
  } else {
    throw errors.unsupportedMediaType(bodyMediaTypesFor(opts.cbor === true).join(', '));
  }

  let actual: GroupVersionKind;
  try {
    actual = withDefaults(interpretKind(root), expected);
  } catch (e) {
    if (e instanceof InterpretError) throw unrecognized(expected.kind, e.message, body);
    throw e;
  }
  const cannotHandle = checkKind(actual, opts);

  const result = decodeTree(root, opts.schema, { strict });
  if (result.error !== undefined) throw cannotHandle(result.error);
  strictErrors.push(...result.strictErrors);

  let warnings: string[] = [];
  if (strictErrors.length && validation === 'Strict') throw cannotHandle(`strict decoding error: ${strictErrors.join(', ')}`);
  if (validation === 'Warn') warnings = warningsOf(strictErrors);

  return finish(actual, result.value, warnings);
}
