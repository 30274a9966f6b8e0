// Server-side apply as a PATCH mechanism (upstream's applyPatcher): the body (YAML or JSON) is the
// applier's configuration; it is checked against the endpoint's kind, merged into the current
// object with ownership by lib/machinery/managedFields, and a missing object is created, which
// needs the create verb as well (upstream's withAuthorization around createValidation).
import type { ApiObject } from '../../api';
import { stockClientApply } from '../../api/product';
import { marshalJSON, parseGoRFC3339, parseYAML, TimeParseError, YAMLSyntaxError } from '../../codec';
import { decodeCBORMap } from '../../codec/cborDecode';
import type { FieldValidation } from '../../codec';
import { errors } from '../../machinery/errors';
import { TypedValueError } from '../../machinery/fieldpath';
import type { JsonObject } from '../../machinery/jsonValue';
import { goJsonNodeValue } from '../../machinery/goJson';
import { isJsonObject } from '../../machinery/jsonValue';
import { applyConfiguration } from '../../machinery/managedFields';
import type { HandlerContext } from '../handlerContext';
import { authorizationAttributes } from '../filters/authorization';
import { revalidateObject } from './body';
import { checkName } from './checkName';

/** An apply body: the configuration, and the strict-decoding findings checked after the merge. */
export interface ApplyPatchBody {
  config: JsonObject;
  /** Go's YAML strict-decoding error for repeated keys, and one line per repeat. */
  duplicateKeys?: { error: string; lines: string[] };
}

/** Decodes the configuration; 400s with upstream's texts. */
export function decodeApplyPatch(body: Buffer, fieldValidation: FieldValidation): ApplyPatchBody {
  let config;
  let duplicateKeys: ApplyPatchBody['duplicateKeys'];
  try {
    const tree = parseYAML(body.toString('utf8'), fieldValidation !== 'Ignore');
    if (tree.duplicateKeys) duplicateKeys = { error: tree.duplicateKeys, lines: tree.duplicateKeyErrors ?? [] };
    config = goJsonNodeValue(tree.root);
  } catch (e) {
    if (e instanceof YAMLSyntaxError) throw errors.badRequest(`error decoding patch: error converting YAML to JSON: ${e.message}`);
    throw e;
  }
  if (config === null) return { config: {}, duplicateKeys };
  if (!isJsonObject(config)) {
    const what = Array.isArray(config) ? 'array' : typeof config === 'string' ? 'string' : typeof config === 'number' ? 'number' : 'bool';
    throw errors.badRequest(`error decoding patch: json: cannot unmarshal ${what} into Go value of type map[string]interface {}`);
  }
  return { config, duplicateKeys };
}

/**
 * Upstream's applyPatcher checks strict decoding only after the merge succeeded, so a conflict
 * (409) wins over repeated keys; Strict refuses them, Warn reports each repeat once.
 */
function checkStrictDecoding(h: HandlerContext, body: ApplyPatchBody, fieldValidation: FieldValidation, warned: { done: boolean }): void {
  const dups = body.duplicateKeys;
  if (!dups) return;
  if (fieldValidation === 'Strict') throw errors.badRequest(`error strict decoding YAML: error converting YAML to JSON: ${dups.error}`);
  if (fieldValidation === 'Warn' && !warned.done) {
    warned.done = true;
    h.warnings.push(...dups.lines);
  }
}

/**
 * A CBOR configuration (application/apply-patch+cbor): upstream unmarshals it with the strict
 * decoder in every fieldValidation mode, since duplicate keys are always fatal in CBOR and an
 * unstructured target has no unknown fields.
 */
export function decodeApplyPatchCbor(body: Buffer): JsonObject {
  const r = decodeCBORMap(body);
  if (r.error !== undefined) throw errors.badRequest(`error decoding patch: ${r.error}`);
  return isJsonObject(r.value) ? r.value : {};
}

function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

const gvString = (group: string, version: string) => (group ? `${group}/${version}` : version);

/**
 * Upstream's objectGVKNN: `<namespace>/<name>; <group>/<version>, Kind=<Kind>`, the name and
 * namespace as an unstructured object reads them (empty unless strings in a map).
 */
function objectGVKNN(h: HandlerContext, config: JsonObject): string {
  const { info } = h.served;
  const meta = isJsonObject(config.metadata) ? config.metadata : {};
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  return `${text(meta.namespace)}/${text(meta.name)}; ${info.group}/${info.version}, Kind=${info.kind}`;
}

/**
 * Upstream's `GetManagedFields() != nil` on the configuration: metadata.managedFields is a list
 * and every item converts to a ManagedFieldsEntry (string fields strings or null, time an RFC
 * 3339 string or null). Anything else reads as no managedFields; the typed conversion that
 * follows then judges its shape.
 */
function sendsManagedFields(meta: unknown): boolean {
  if (!isJsonObject(meta) || !Array.isArray(meta.managedFields)) return false;
  return meta.managedFields.every((e) => {
    if (!isJsonObject(e)) return false;
    for (const k of ['manager', 'operation', 'apiVersion', 'fieldsType', 'subresource']) {
      if (e[k] !== undefined && e[k] !== null && typeof e[k] !== 'string') return false;
    }
    const time = e.time;
    if (time === undefined || time === null) return true;
    return typeof time === 'string' && parsesAsGoRFC3339(time);
  });
}

function parsesAsGoRFC3339(s: string): boolean {
  try {
    parseGoRFC3339(s);
    return true;
  } catch (e) {
    if (e instanceof TimeParseError) return false;
    throw e;
  }
}

/** The configuration's apiVersion, kind and managedFields, checked as upstream's field manager does. */
function checkConfig(h: HandlerContext, config: JsonObject): void {
  const { info } = h.served;
  const apiVersion = typeof config.apiVersion === 'string' ? config.apiVersion : '';
  const kind = typeof config.kind === 'string' ? config.kind : '';
  const { group, version } = parseGroupVersion(apiVersion);
  if (group !== info.group || kind !== info.kind) throw errors.badRequest(`invalid object type: ${group}/${version}, Kind=${kind}`);
  if (version !== info.version) {
    throw errors.badRequest(
      `Incorrect version specified in apply patch. Specified patch version: ${gvString(group, version)}, expected: ${gvString(info.group, info.version)}`,
    );
  }
  if (sendsManagedFields(config.metadata)) throw errors.badRequest('metadata.managedFields must be nil');
}

/** The function store.update calls with the current object (null when absent). */
export function applyTo(h: HandlerContext, body: ApplyPatchBody, fieldManager: string, force: boolean, fieldValidation: FieldValidation, dryRun: boolean) {
  const { store, info } = h.served;
  const { config } = body;
  const ctx = h.requestContext(dryRun);
  const warned = { done: false };
  return (current: ApiObject | null): ApiObject => {
    checkConfig(h, config);
    const scope = {
      ...store.ownershipScope(ctx),
      manager: fieldManager,
      force,
      clientSideApply: { manager: stockClientApply.manager, annotation: stockClientApply.lastAppliedAnnotation },
    };
    let result;
    try {
      result = applyConfiguration((current ?? {}) as JsonObject, config, scope);
    } catch (e) {
      // Upstream's typed conversion failure is a plain error: 500, no reason, its text.
      if (!(e instanceof TypedValueError)) throw e;
      const named = e.object === 'patch' ? config : ((current ?? {}) as JsonObject);
      throw errors.plain(500, `failed to create typed ${e.object} object (${objectGVKNN(h, named)}): ${e.message}`);
    }
    checkStrictDecoding(h, body, fieldValidation, warned);
    if (!current) refuseUidOnCreate(h, config);
    const obj = result.object as ApiObject;
    const meta = (obj.metadata ??= {});
    if (result.managedFields) meta.managedFields = result.managedFields;
    else delete meta.managedFields;
    if (fieldManager === stockClientApply.manager) syncLastApplied(obj, config);
    const out = revalidateObject(h, info, obj, fieldValidation);
    checkName(out, h.info.name);
    if (!current) authorizeCreate(h);
    return out;
  };
}

/** Upstream's patcher: a configuration naming a uid cannot create (409 Conflict). */
function refuseUidOnCreate(h: HandlerContext, config: JsonObject): void {
  const uid = isJsonObject(config.metadata) ? config.metadata.uid : undefined;
  if (typeof uid !== 'string' || uid === '') return;
  throw errors.conflict(h.served.store.groupResource, h.info.name, `uid mismatch: the provided object specified uid ${uid}, and no existing object was found`);
}

/** Creating through apply also needs `create` (upstream: 403 naming the resource, the authorizer's reason). */
function authorizeCreate(h: HandlerContext): void {
  const attrs = { ...authorizationAttributes(h.user, h.info), verb: 'create' };
  const d = h.authorizer.authorize(attrs);
  if (d.decision === 'allow') return;
  throw errors.forbidden({ group: attrs.apiGroup, resource: attrs.resource }, attrs.name, d.reason);
}

/**
 * Upstream's lastAppliedUpdater: a kubectl server-side apply to an object that still carries the
 * client-side apply record rewrites the record to this configuration, so a later client-side
 * apply diffs against what was really applied. Go's encoding: sorted keys, trailing newline.
 */
function syncLastApplied(obj: ApiObject, config: JsonObject): void {
  const key = stockClientApply.lastAppliedAnnotation;
  const annotations = obj.metadata?.annotations;
  if (!annotations?.[key]) return;
  const copy = structuredClone(config);
  const meta = isJsonObject(copy.metadata) ? copy.metadata : undefined;
  if (meta && isJsonObject(meta.annotations)) delete meta.annotations[key];
  annotations[key] = `${marshalJSON(sortedKeys(copy))}\n`;
}

function sortedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (!isJsonObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) out[k] = sortedKeys(v[k]);
  return out;
}
