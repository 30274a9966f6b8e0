// RFC 7386 JSON Merge Patch: objects merge recursively, null deletes, everything else (arrays
// included) replaces. decodeMergePatch reproduces the API server's 400s (apply-and-patch.md §3).
import { deepCopy } from './deepCopy';
import { deepEqual } from './deepEqual';
import { errors } from './errors';
import { GoJsonNode, GoJsonSyntaxError, goJsonKindWord, goJsonNodeValue, goUnmarshalTypeError, parseGoJsonTree } from './goJson';
import type { FieldValidationDirective } from './jsonPatch';
import { firstFloatOverflow, refuseDeepPatch } from './nesting';
import type { JsonObject, JsonValue } from './jsonValue';
import { getOwn, hasOwn, isJsonObject, setOwn } from './jsonValue';

/** RFC 7386 MergePatch(target, patch); neither argument is modified. Iterative. */
export function applyMergePatch(target: unknown, patch: unknown): JsonValue {
  if (!isJsonObject(patch)) return deepCopy(patch) as JsonValue;
  const out = (isJsonObject(target) ? deepCopy(target) : {}) as JsonObject;
  // `out` is a private copy, so nested members can be merged into in place.
  const work: [JsonObject, JsonObject][] = [[out, patch]];
  for (let w = work.pop(); w; w = work.pop()) {
    const [dst, src] = w;
    for (const k of Object.keys(src)) {
      const pv = src[k];
      if (pv === null) delete dst[k];
      else if (isJsonObject(pv)) {
        const cur = getOwn(dst, k);
        const child: JsonObject = isJsonObject(cur) ? cur : {};
        setOwn(dst, k, child);
        work.push([child, pv]);
      } else setOwn(dst, k, deepCopy(pv));
    }
  }
  return out;
}

/**
 * A merge patch that turns original into modified (null for removed members; arrays and
 * scalars that differ are sent whole). Equal documents give {}.
 */
export function createMergePatch(original: unknown, modified: unknown): JsonValue {
  if (!isJsonObject(original) || !isJsonObject(modified)) return deepCopy(modified) as JsonValue;
  const patch: JsonObject = {};
  for (const k of Object.keys(original)) {
    if (!hasOwn(modified, k)) setOwn(patch, k, null);
  }
  for (const k of Object.keys(modified)) {
    const m = modified[k];
    if (!hasOwn(original, k)) {
      setOwn(patch, k, deepCopy(m));
      continue;
    }
    const o = original[k];
    if (deepEqual(o, m)) continue;
    if (isJsonObject(o) && isJsonObject(m)) setOwn(patch, k, createMergePatch(o, m));
    else setOwn(patch, k, deepCopy(m));
  }
  return patch;
}

const badPatch = 'Invalid JSON Patch';

/**
 * Decodes a merge patch body as the patch handler does. With Warn/Strict (default Warn) the
 * body is first decoded into a map ("error decoding patch: …"); the library then refuses null,
 * scalars and syntax errors with "Invalid JSON Patch". An array passes (it replaces the object).
 */
export function decodeMergePatch(body: Uint8Array | string, fieldValidation: FieldValidationDirective = 'Warn'): JsonValue {
  const strict = fieldValidation !== 'Ignore';
  let tree: GoJsonNode;
  try {
    tree = parseGoJsonTree(body);
  } catch (e) {
    if (e instanceof GoJsonSyntaxError) throw errors.badRequest(strict ? `error decoding patch: ${e.message}` : badPatch);
    throw e;
  }
  if (strict && tree.kind !== 'object' && tree.kind !== 'null') {
    throw errors.badRequest(`error decoding patch: ${goUnmarshalTypeError(goJsonKindWord(tree), 'map[string]interface {}')}`);
  }
  refuseDeepPatch(tree);
  // The strict decode reads numbers as float64: out of range is its error (upstream's lenient path keeps them raw).
  const overflow = strict ? firstFloatOverflow(tree) : undefined;
  if (overflow !== undefined) throw errors.badRequest(`error decoding patch: ${goUnmarshalTypeError(`number ${overflow}`, 'float64')}`);
  if (tree.kind === 'object' || tree.kind === 'array') return goJsonNodeValue(tree);
  throw errors.badRequest(badPatch);
}
