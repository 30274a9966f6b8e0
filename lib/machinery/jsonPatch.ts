// RFC 6902 JSON Patch as the API server applies it (apply-and-patch.md §2):
// decoding errors are 400s with Go's decoder text, more than 10000 operations a 413, and any
// failure while applying a 422 with upstream's generic text. Application is atomic: it works on
// a deep copy, so a failed patch leaves the input untouched.
// Semantics follow the library upstream uses (evanphx/json-patch v4), including its leniencies:
// negative array indexes count from the end, `replace` of a missing object member adds it,
// a missing `value` is null, `copy` from a missing member copies null.
import { deepCopy } from './deepCopy';
import { deepEqual } from './deepEqual';
import { errors } from './errors';
import { GoJsonNode, GoJsonSyntaxError, goJsonKindWord, goJsonNodeValue, goJsonStringify, goUnmarshalTypeError, parseGoJsonTree } from './goJson';
import { goAtoi } from './goStrconv';
import type { JsonValue } from './jsonValue';
import { firstFloatOverflow, refuseDeepPatch } from './nesting';
import { getOwn, hasOwn, isJsonObject, setOwn } from './jsonValue';

/** One operation as sent; members other than op/path/from/value are kept but ignored. */
export type JsonPatchOperation = Readonly<Record<string, JsonValue>>;

export const maxJsonPatchOperations = 10000;
/** Upstream's JSONPatchMaxCopyBytes default: total bytes `copy` operations may add. */
export const jsonPatchMaxCopyBytes = 3 * 1024 * 1024;

export type FieldValidationDirective = 'Ignore' | 'Warn' | 'Strict';

export interface DecodedJsonPatch {
  operations: JsonPatchOperation[];
  /** Unknown/duplicate members found by the strict decoder (Warn: warnings; Strict: errors). */
  strictErrors: string[];
}

const opFields = new Set(['op', 'path', 'from', 'value']);

/**
 * Decodes a JSON patch body. With Warn/Strict (the default is Warn) upstream first decodes
 * strictly into its operation struct ("error decoding patch: …"); then the library decodes it.
 */
export function decodeJsonPatch(body: Uint8Array | string, fieldValidation: FieldValidationDirective = 'Warn'): DecodedJsonPatch {
  const strict = fieldValidation !== 'Ignore';
  let tree: GoJsonNode;
  try {
    tree = parseGoJsonTree(body);
  } catch (e) {
    if (e instanceof GoJsonSyntaxError) throw errors.badRequest(strict ? `error decoding patch: ${e.message}` : e.message);
    throw e;
  }
  refuseDeepPatch(tree);
  const strictErrors: string[] = [];
  if (strict) {
    const err = strictShapeError(tree, strictErrors);
    if (err) throw errors.badRequest(`error decoding patch: ${err}`);
  }
  if (tree.kind === 'null') return { operations: [], strictErrors };
  if (tree.kind !== 'array') throw errors.badRequest(goUnmarshalTypeError(goJsonKindWord(tree), 'jsonpatch.Patch'));
  const operations: JsonPatchOperation[] = [];
  for (const item of tree.items) {
    if (item.kind === 'null') operations.push({});
    else if (item.kind === 'object') operations.push(goJsonNodeValue(item) as JsonPatchOperation);
    else throw errors.badRequest(goUnmarshalTypeError(goJsonKindWord(item), 'jsonpatch.Operation'));
  }
  if (operations.length > maxJsonPatchOperations) {
    throw errors.requestEntityTooLarge(
      `The allowed maximum operations in a JSON patch is ${maxJsonPatchOperations}, got ${operations.length}`,
    );
  }
  return { operations, strictErrors };
}

/** Type errors of the strict decode into []handlers.jsonPatchOp; collects unknown/duplicate members. */
function strictShapeError(tree: GoJsonNode, strictErrors: string[]): string | undefined {
  if (tree.kind === 'null') return undefined;
  if (tree.kind !== 'array') return goUnmarshalTypeError(goJsonKindWord(tree), '[]handlers.jsonPatchOp');
  let first: string | undefined;
  tree.items.forEach((item, i) => {
    if (item.kind === 'null') return;
    if (item.kind !== 'object') {
      first ??= goUnmarshalTypeError(goJsonKindWord(item), 'handlers.jsonPatchOp');
      return;
    }
    const seen = new Set<string>();
    for (const { key, value } of item.members) {
      const path = `[${i}].${key}`;
      if (!opFields.has(key)) strictErrors.push(`json patch unknown field "${path}"`);
      else if (seen.has(key)) strictErrors.push(`json patch duplicate field "${path}"`);
      seen.add(key);
      if (key !== 'value' && value.kind !== 'string' && value.kind !== 'null' && opFields.has(key)) {
        first ??= goUnmarshalTypeError(goJsonKindWord(value), 'string', { struct: 'jsonPatchOp', field: key });
      }
      // value is an interface{}: its numbers are float64s, so out of range is a type error.
      const overflow = key === 'value' ? firstFloatOverflow(value) : undefined;
      if (overflow !== undefined) first ??= goUnmarshalTypeError(`number ${overflow}`, 'float64', { struct: 'jsonPatchOp', field: 'value' });
    }
  });
  return first;
}

class PatchFailure extends Error {}

type Container = Record<string, JsonValue> | JsonValue[];

function decodeToken(t: string): string {
  return t.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Parent container and final token of a pointer (upstream's findObject); undefined if absent. */
function findParent(root: Container, path: string): { con: Container; key: string } | undefined {
  if (!path.startsWith('/')) return undefined;
  const parts = path.split('/').slice(1);
  const key = decodeToken(parts.pop() as string);
  let cur: Container = root;
  for (const raw of parts) {
    const next = childOf(cur, decodeToken(raw));
    if (next === undefined || next === null || typeof next !== 'object') return undefined;
    cur = next as Container;
  }
  return { con: cur, key };
}

function childOf(con: Container, key: string): JsonValue | undefined {
  if (!Array.isArray(con)) return getOwn(con, key) as JsonValue | undefined;
  const i = arrayIndex(con.length, key, false);
  return i === undefined ? undefined : con[i];
}

/** Index into an array of length n; negative counts from the end. insert allows i == n. */
function arrayIndex(n: number, key: string, insert: boolean): number | undefined {
  const i = goAtoi(key);
  if (i === undefined) return undefined;
  const size = insert ? n + 1 : n;
  if (i >= size || i < -size) return undefined;
  return i < 0 ? i + size : i;
}

function get(con: Container, key: string, op: string): JsonValue | undefined {
  if (!Array.isArray(con)) return getOwn(con, key) as JsonValue | undefined;
  const i = arrayIndex(con.length, key, false);
  if (i === undefined) throw new PatchFailure(`error in ${op}: Unable to access invalid index: ${key}`);
  return con[i];
}

function add(con: Container, key: string, value: JsonValue, op: string): void {
  if (!Array.isArray(con)) {
    setOwn(con, key, value);
    return;
  }
  if (key === '-') {
    con.push(value);
    return;
  }
  const i = arrayIndex(con.length, key, true);
  if (i === undefined) throw new PatchFailure(`error in ${op}: Unable to access invalid index: ${key}`);
  con.splice(i, 0, value);
}

function remove(con: Container, key: string, op: string): void {
  if (!Array.isArray(con)) {
    if (!hasOwn(con, key)) throw new PatchFailure(`error in ${op}: Unable to remove nonexistent key: ${key}`);
    delete con[key];
    return;
  }
  const i = arrayIndex(con.length, key, false);
  if (i === undefined) throw new PatchFailure(`error in ${op}: Unable to access invalid index: ${key}`);
  con.splice(i, 1);
}

function stringMember(op: JsonPatchOperation, name: 'path' | 'from', kind: string): string {
  const v = getOwn(op, name);
  if (typeof v !== 'string') throw new PatchFailure(`${kind} operation missing or invalid ${name}`);
  return v;
}

function valueOf(op: JsonPatchOperation): JsonValue {
  const v = getOwn(op, 'value') as JsonValue | undefined;
  return v === undefined ? null : deepCopy(v);
}

function applyOne(doc: { root: Container }, op: JsonPatchOperation, copied: { bytes: number }): void {
  const kind = typeof getOwn(op, 'op') === 'string' ? (getOwn(op, 'op') as string) : 'unknown';
  switch (kind) {
    case 'add': {
      const path = stringMember(op, 'path', kind);
      const t = findParent(doc.root, path);
      if (!t) throw new PatchFailure(`add operation does not apply: doc is missing path: "${path}"`);
      add(t.con, t.key, valueOf(op), 'add');
      return;
    }
    case 'remove': {
      const path = stringMember(op, 'path', kind);
      const t = findParent(doc.root, path);
      if (!t) throw new PatchFailure(`remove operation does not apply: doc is missing path: "${path}"`);
      remove(t.con, t.key, 'remove');
      return;
    }
    case 'replace': {
      const path = stringMember(op, 'path', kind);
      if (path === '') {
        const v = valueOf(op);
        if (v === null || typeof v !== 'object') throw new PatchFailure('replace operation value must be object or array');
        doc.root = v as Container;
        return;
      }
      const t = findParent(doc.root, path);
      if (!t) throw new PatchFailure(`replace operation does not apply: doc is missing path: ${path}`);
      if (Array.isArray(t.con)) {
        const i = arrayIndex(t.con.length, t.key, false);
        if (i === undefined) throw new PatchFailure(`replace operation does not apply: doc is missing key: ${path}`);
        t.con[i] = valueOf(op);
      } else setOwn(t.con, t.key, valueOf(op));
      return;
    }
    case 'move': {
      const from = stringMember(op, 'from', kind);
      const f = findParent(doc.root, from);
      if (!f) throw new PatchFailure(`move operation does not apply: doc is missing from path: ${from}`);
      const v = get(f.con, f.key, 'move');
      remove(f.con, f.key, 'move');
      const path = stringMember(op, 'path', kind);
      const t = findParent(doc.root, path);
      if (!t) throw new PatchFailure(`move operation does not apply: doc is missing destination path: ${path}`);
      add(t.con, t.key, v === undefined ? null : v, 'move');
      return;
    }
    case 'copy': {
      const from = stringMember(op, 'from', kind);
      const f = findParent(doc.root, from);
      if (!f) throw new PatchFailure(`copy operation does not apply: doc is missing from path: ${from}`);
      const v = get(f.con, f.key, 'copy');
      const path = stringMember(op, 'path', kind);
      const t = findParent(doc.root, path);
      if (!t) throw new PatchFailure(`copy operation does not apply: doc is missing destination path: ${path}`);
      const value = v === undefined ? null : deepCopy(v);
      copied.bytes += Buffer.byteLength(goJsonStringify(value));
      if (copied.bytes > jsonPatchMaxCopyBytes) {
        throw new PatchFailure(
          `Unable to complete the copy, the accumulated size increase of copy is ${copied.bytes}, exceeding the limit ${jsonPatchMaxCopyBytes}`,
        );
      }
      add(t.con, t.key, value, 'copy');
      return;
    }
    case 'test': {
      const path = stringMember(op, 'path', kind);
      const expected = getOwn(op, 'value') as JsonValue | undefined;
      if (path === '') {
        if (expected === undefined || !deepEqual(doc.root, expected)) throw new PatchFailure(`testing value ${path} failed`);
        return;
      }
      const t = findParent(doc.root, path);
      if (!t) throw new PatchFailure(`test operation does not apply: is missing path: ${path}`);
      const actual = get(t.con, t.key, 'test');
      // Missing and null are the same to the library; only an explicit null matches them.
      if (actual === undefined || actual === null) {
        if (expected === null) return;
        throw new PatchFailure(`testing value ${path} failed`);
      }
      if (expected === undefined || !deepEqual(actual, expected)) throw new PatchFailure(`testing value ${path} failed`);
      return;
    }
    default:
      throw new PatchFailure(`Unexpected kind: ${kind}`);
  }
}

export type JsonPatchResult = { ok: true; doc: JsonValue } | { ok: false; reason: string };

/** Applies operations to a copy of doc; the reason of a failure is for logs and tests only. */
export function tryApplyJsonPatch(doc: unknown, operations: readonly unknown[]): JsonPatchResult {
  if (doc === null || typeof doc !== 'object') return { ok: false, reason: 'document is not an object or array' };
  const state = { root: deepCopy(doc) as Container };
  const copied = { bytes: 0 };
  try {
    for (const op of operations) {
      if (!isJsonObject(op)) throw new PatchFailure('Unexpected kind: unknown');
      applyOne(state, op, copied);
    }
  } catch (e) {
    if (e instanceof PatchFailure) return { ok: false, reason: e.message };
    throw e;
  }
  return { ok: true, doc: state.root };
}

/**
 * Applies a decoded patch (see decodeJsonPatch) to a copy of doc; any failure is the generic
 * 422 of upstream's patch handler. Operations that are not objects fail like unknown ops.
 */
export function applyJsonPatch(doc: unknown, operations: readonly unknown[]): JsonValue {
  const r = tryApplyJsonPatch(doc, operations);
  if (!r.ok) throw errors.genericUnprocessable();
  return r.doc;
}
