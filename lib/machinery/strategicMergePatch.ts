// Strategic merge patch (apply-and-patch.md §4) as the API server applies it, driven by the
// declarative schemas: an array's patchStrategy ('merge', 'merge,retainKeys') and patchMergeKey
// play the role of upstream's Go struct tags. Maps and objects merge, null deletes, lists
// without the merge strategy are replaced, and the directives $patch, $retainKeys,
// $setElementOrder/<list> and $deleteFromPrimitiveList/<list> are honoured.
// Semantics follow upstream's strategicpatch (server side: parallel lists merged, unmatched
// nulls ignored), including its quirks: new merge-list items are placed by the relative order
// of the patch and live lists (a new item sent alone lands first), `$patch: merge` inside a map
// is an unknown patch type, `$patch: delete` inside a map leaves an empty map, and a value added
// whole (no counterpart in the original) loses its nulls and any map carrying `$patch`.
// Errors follow the patch handler's interpretation: malformed directive keys and lists are 400s,
// lists of lists the generic 422, anything else (missing merge key, unknown $patch value…)
// the library's own text as a plain 500, and where the library panics (a map or list among a
// primitive list's items, a null first item) the panic-recovery filter's 500.
import type { FieldSchema, ObjectSchema } from '../api/schema';
import { deepCopy } from './deepCopy';
import { ApiError, errors } from './errors';
import { goFormatValue, goKind, goTypeNames, type GoKind } from './goFormat';
import { GoJsonNode, GoJsonSyntaxError, goJsonKindWord, goJsonNodeValue, goUnmarshalTypeError, parseGoJsonTree } from './goJson';
import { goQuote } from './goStrconv';
import type { FieldValidationDirective } from './jsonPatch';
import { firstFloatOverflow, refuseDeepPatch } from './nesting';
import type { JsonObject, JsonValue } from './jsonValue';
import { getOwn, hasOwn, isJsonObject, setOwn } from './jsonValue';

const directiveMarker = '$patch';
const deleteDirective = 'delete';
const replaceDirective = 'replace';
const mergeDirective = 'merge';
const retainKeysDirective = '$retainKeys';
const deleteFromPrimitiveListPrefix = '$deleteFromPrimitiveList';
const setElementOrderPrefix = '$setElementOrder';

// mergepatch's sentinel errors and how the patch handler maps them to responses.
const badFormat = {
  primitiveList: 'invalid patch format of primitive list',
  retainKeys: 'invalid patch format of retainKeys',
  setElementOrder: 'invalid patch format of setElementOrder list',
};
/** ErrNoListOfLists: the handler answers with the generic 422 (the text is not returned). */
const noListOfLists = (): ApiError => errors.genericUnprocessable();
/** Any other library error reaches the client as a plain 500 with its text. */
const plain = (message: string): ApiError => errors.plain(500, message);

// ---- Go's view of the values (encoding/json into interface{}, ints preserved) ----

/** Go's == on two interface{} values holding JSON scalars (maps and slices never match here). */
function goEqual(a: unknown, b: unknown): boolean {
  const ka = goKind(a);
  if (ka !== goKind(b)) return false;
  if (ka === 'nil') return true;
  if (ka === 'map' || ka === 'slice' || ka === 'bytes') return false;
  return a === b;
}

const goFormat = goFormatValue;

function errBadArgType(expected: GoKind, actual: unknown): ApiError {
  return plain(`expected a ${goTypeNames[expected]}, but received a ${goTypeNames[goKind(actual)]}`);
}
function errNoMergeKey(m: JsonObject, key: string): ApiError {
  return plain(`map: ${goFormat(m)} does not contain declared merge key: ${key}`);
}
function errBadPatchType(t: unknown, m: JsonObject): ApiError {
  return plain(`unknown patch type: ${goFormat(t, 's')} in map: ${goFormat(m)}`);
}

// ---- Schema lookup (upstream's LookupPatchMeta over Go struct tags) ----

/** What is known about a value: an object's fields, a map's value schema, or nothing. */
type Meta = { kind: 'struct'; schema: ObjectSchema } | { kind: 'map'; values: FieldSchema } | { kind: 'unknown' };

const unknownMeta: Meta = { kind: 'unknown' };

function metaOf(f: FieldSchema | undefined): Meta {
  if (!f) return unknownMeta;
  if (f.type === 'object') return { kind: 'struct', schema: f.ref() };
  if (f.type === 'map') return { kind: 'map', values: f.values };
  if (f.type === 'array') return metaOf(f.items);
  return unknownMeta;
}

/** The schema of member `key`; unknown fields (and `any` values) have none. */
function fieldOf(meta: Meta, key: string): FieldSchema | undefined {
  if (meta.kind === 'struct') return getOwn(meta.schema.fields, key) as FieldSchema | undefined;
  if (meta.kind === 'map') return meta.values;
  return undefined;
}

interface ListMeta {
  /** The patch strategy without retainKeys: 'merge' or ''. */
  strategy: string;
  mergeKey: string;
  items: Meta;
  /** PatchMetaFromStruct.Name(): the Go kind of the element type. */
  itemKindName: string;
}

function listMetaOf(f: FieldSchema | undefined): ListMeta {
  if (!f || f.type !== 'array') return { strategy: '', mergeKey: '', items: metaOf(f), itemKindName: 'struct' };
  const strategies = (f.patchStrategy ?? '').split(',');
  const items = f.items;
  return {
    strategy: strategies.includes(mergeDirective) ? mergeDirective : '',
    mergeKey: f.patchMergeKey ?? '',
    items: metaOf(items),
    itemKindName: items.type === 'object' ? 'struct' : items.type === 'map' ? 'map' : items.type === 'any' ? 'interface' : items.type,
  };
}

/** The Go struct's name in upstream's lookup errors ("io.svc.api.core.v1.ServiceAccount" → "ServiceAccount"). */
function structName(meta: Meta): string {
  if (meta.kind !== 'struct') return '';
  const n = meta.schema.name;
  return n.slice(n.lastIndexOf('.') + 1);
}

/**
 * LookupPatchMetadataForSlice for a $setElementOrder list: upstream fails for a field its
 * struct does not have, for a non-list field, and inside maps.
 */
function lookupSliceStrict(meta: Meta, key: string): ListMeta {
  if (meta.kind === 'map') throw plain('merging an object in json but data type is not struct, instead is: map');
  const f = fieldOf(meta, key);
  if (!f) throw plain(`unable to find api field in struct ${structName(meta)} for the json field ${goQuote(key)}`);
  if (f.type !== 'array') throw plain('expected slice or array type, but got: struct');
  return listMetaOf(f);
}

// ---- Merging ----

/** Removes maps carrying $patch (and list items that are such maps); modifies v. */
function removeDirectives(v: JsonValue): { value: JsonValue; keep: boolean } {
  if (Array.isArray(v)) {
    const out: JsonValue[] = [];
    for (const item of v) {
      const r = removeDirectives(item);
      if (r.keep) out.push(r.value);
    }
    return { value: out, keep: true };
  }
  if (isJsonObject(v)) {
    if (hasOwn(v, directiveMarker)) return { value: null, keep: false };
    for (const k of Object.keys(v)) {
      const r = removeDirectives(v[k]);
      if (r.keep) setOwn(v, k, r.value);
      else delete v[k];
    }
  }
  return { value: v, keep: true };
}

/** Drops every null member of maps, recursively (lists are walked, their null items kept). */
function discardNulls(v: JsonValue): void {
  if (Array.isArray(v)) for (const item of v) discardNulls(item);
  else if (isJsonObject(v)) {
    for (const k of Object.keys(v)) {
      if (v[k] === null) delete v[k];
      else discardNulls(v[k]);
    }
  }
}

/** A patch value with no counterpart in the original: taken whole, minus nulls and directives. */
function takePatchValue(original: JsonObject, key: string, patchV: JsonValue): void {
  discardNulls(patchV);
  const r = removeDirectives(patchV);
  if (r.keep) setOwn(original, key, r.value);
  else delete original[key];
}

function extractKey(key: string, prefix: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw errors.badRequest(prefix === deleteFromPrimitiveListPrefix ? badFormat.primitiveList : badFormat.setElementOrder);
  }
  return key.slice(slash + 1);
}

function mergeMap(original: JsonObject, patch: JsonObject, meta: Meta): JsonObject {
  if (hasOwn(patch, directiveMarker)) {
    const directive = patch[directiveMarker];
    if (directive === replaceDirective) {
      delete patch[directiveMarker];
      return patch;
    }
    if (directive === deleteDirective) return {};
    throw errBadPatchType(directive, patch);
  }
  applyRetainKeys(original, patch);
  mergeSetElementOrderLists(original, patch, meta);

  for (const patchKey of Object.keys(patch)) {
    const patchV = patch[patchKey];
    let key = patchKey;
    let isDeleteList = false;
    if (patchKey.startsWith(deleteFromPrimitiveListPrefix)) {
      key = extractKey(patchKey, deleteFromPrimitiveListPrefix);
      isDeleteList = true;
    }
    if (patchV === null) {
      delete original[key];
      continue;
    }
    if (!hasOwn(original, key)) {
      if (!isDeleteList) takePatchValue(original, key, patchV);
      continue;
    }
    const originalV = original[key];
    const kind = goKind(originalV);
    if (kind !== goKind(patchV)) {
      if (!isDeleteList) takePatchValue(original, key, patchV);
      continue;
    }
    if (kind === 'map') {
      setOwn(original, key, mergeMap(originalV as JsonObject, patchV as JsonObject, metaOf(fieldOf(meta, key))));
    } else if (kind === 'slice') {
      const lm = listMetaOf(fieldOf(meta, key));
      setOwn(original, key, mergeSliceHandler(originalV as JsonValue[], patchV as JsonValue[], lm, isDeleteList));
    } else {
      setOwn(original, key, patchV);
    }
  }
  return original;
}

function applyRetainKeys(original: JsonObject, patch: JsonObject): void {
  if (!hasOwn(patch, retainKeysDirective)) return;
  const list = patch[retainKeysDirective];
  delete patch[retainKeysDirective];
  if (!Array.isArray(list)) throw errors.badRequest(badFormat.retainKeys);
  const retained = new Set(list.filter((x): x is string => typeof x === 'string'));
  for (const k of Object.keys(patch)) {
    if (patch[k] === null || k.startsWith(deleteFromPrimitiveListPrefix) || k.startsWith(setElementOrderPrefix)) continue;
    if (!retained.has(k)) throw errors.badRequest(badFormat.retainKeys);
  }
  for (const k of Object.keys(original)) if (!retained.has(k)) delete original[k];
}

function mergeSliceHandler(original: JsonValue[], patch: JsonValue[], lm: ListMeta, isDeleteList: boolean): JsonValue[] {
  // Delete lists apply whatever the field's strategy is; lists without merge are replaced.
  if (lm.strategy === mergeDirective || isDeleteList) return mergeSlice(original, patch, lm, isDeleteList);
  return patch;
}

/** sliceElementType: all items of the lists must share one Go type, and not be lists. */
function sliceElementKind(...lists: (JsonValue[] | undefined)[]): GoKind {
  let prev: GoKind | undefined;
  for (const l of lists) {
    for (const v of l ?? []) {
      const k = goKind(v);
      if (prev === undefined) {
        // reflect.TypeOf(nil).Kind() panics upstream (a nil pointer dereference).
        if (k === 'nil') throw errors.panicked();
        if (k === 'slice') throw noListOfLists();
        prev = k;
      } else if (prev !== k) {
        throw plain(`list element types are not identical: ${goFormat(lists.map((x) => x ?? []))}`);
      }
    }
  }
  if (prev === undefined) throw plain('no elements in any of the given slices');
  return prev;
}

function mergeSlice(original: JsonValue[], patch: JsonValue[], lm: ListMeta, isDeleteList: boolean): JsonValue[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementKind(original, patch);
  const mergeKey = kind === 'map' ? lm.mergeKey : '';
  let merged: JsonValue[];
  if (kind !== 'map') {
    if (isDeleteList) return original.filter((v) => !patch.some((d) => goEqual(d, v)));
    merged = [];
    for (const v of [...original, ...patch]) if (!merged.some((m) => goEqual(m, v))) merged.push(v);
  } else {
    if (!mergeKey) throw plain(`cannot merge lists without merge key for ${lm.itemKindName}`);
    ({ original, patch } = mergeSliceWithSpecialElements(original, patch, mergeKey));
    merged = mergeSliceWithoutSpecialElements(original, patch, mergeKey, lm.items);
  }
  const { inList, rest } = partition(merged, patch, mergeKey);
  return normalizeElementOrder(inList, rest, patch, original, mergeKey, kind);
}

function asMap(v: JsonValue): JsonObject {
  if (!isJsonObject(v)) throw errBadArgType('map', v);
  return v;
}

function findByKey(list: readonly JsonValue[], key: string, value: JsonValue): number {
  for (let i = 0; i < list.length; i++) {
    const m = list[i];
    if (!isJsonObject(m)) throw plain(`value for key ${i} is not a map`);
    if (hasOwn(m, key) && goEqual(m[key], value)) return i;
  }
  return -1;
}

/** Handles `$patch` items of a merge list: delete by key, replace the whole list. */
function mergeSliceWithSpecialElements(original: JsonValue[], patch: JsonValue[], mergeKey: string): { original: JsonValue[]; patch: JsonValue[] } {
  const plainItems: JsonValue[] = [];
  let replace = false;
  for (const v of patch) {
    const m = v as JsonObject;
    if (!hasOwn(m, directiveMarker)) {
      plainItems.push(v);
      continue;
    }
    const directive = m[directiveMarker];
    if (directive === deleteDirective) {
      if (!hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
      for (let i = findByKey(original, mergeKey, m[mergeKey]); i >= 0; i = findByKey(original, mergeKey, m[mergeKey])) {
        original = [...original.slice(0, i), ...original.slice(i + 1)];
      }
    } else if (directive === replaceDirective) {
      replace = true;
    } else if (directive === mergeDirective) {
      throw plain('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(directive, m);
    }
  }
  return replace ? { original: plainItems, patch: [] } : { original, patch: plainItems };
}

function mergeSliceWithoutSpecialElements(original: JsonValue[], patch: JsonValue[], mergeKey: string, items: Meta): JsonValue[] {
  const out = [...original];
  for (const v of patch) {
    const m = v as JsonObject;
    if (!hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
    const i = findByKey(out, mergeKey, m[mergeKey]);
    if (i >= 0) out[i] = mergeMap(out[i] as JsonObject, m, items);
    else out.push(v);
  }
  return out;
}

/** Splits items into those present in `by` (by merge key for maps) and the others. */
function partition(items: readonly JsonValue[], by: readonly JsonValue[], mergeKey: string): { inList: JsonValue[]; rest: JsonValue[] } {
  const inList: JsonValue[] = [];
  const rest: JsonValue[] = [];
  // Upstream's partitionPrimitivesByPresentInList indexes a map[interface{}]bool by the items of
  // `by`, then looks the items up in it: a map or list in either panics (unhashable type).
  const unhashable = (v: JsonValue): boolean => isJsonObject(v) || Array.isArray(v);
  if (!mergeKey && (by.some(unhashable) || items.some(unhashable))) throw errors.panicked();
  for (const v of items) {
    let found: boolean;
    if (!mergeKey) {
      found = by.some((b) => goEqual(b, v));
    } else {
      const m = asMap(v);
      if (!hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
      found = findByKey(by, mergeKey, m[mergeKey]) >= 0;
    }
    (found ? inList : rest).push(v);
  }
  return { inList, rest };
}

/** upstream's index(): position of v in l, comparing merge key values for maps. */
function indexOf(l: readonly JsonValue[], v: JsonValue, mergeKey: string, kind: GoKind): number {
  const val = (x: JsonValue): unknown => (kind === 'map' ? (isJsonObject(x) ? getOwn(x, mergeKey) ?? null : null) : x);
  const want = val(v);
  for (let i = 0; i < l.length; i++) if (goEqual(want, val(l[i]))) return i;
  return -1;
}

/** sort.SliceStable (insertion sort; identical for the consistent orders met here). */
function stableSort<T>(a: T[], less: (x: T, y: T) => boolean): void {
  for (let i = 1; i < a.length; i++) {
    for (let j = i; j > 0 && less(a[j], a[j - 1]); j--) [a[j], a[j - 1]] = [a[j - 1], a[j]];
  }
}

function normalizeSliceOrder(toSort: JsonValue[], order: readonly JsonValue[], mergeKey: string, kind: GoKind): JsonValue[] {
  let keep = [...toSort];
  let deleted: JsonValue[] = [];
  if (kind === 'map') {
    for (const list of [toSort, order]) {
      for (const item of list) {
        const m = asMap(item);
        if (!hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
      }
    }
    keep = toSort.filter((v) => (v as JsonObject)[directiveMarker] !== deleteDirective);
    deleted = toSort.filter((v) => (v as JsonObject)[directiveMarker] === deleteDirective);
  }
  stableSort(keep, (x, y) => {
    const ix = indexOf(order, x, mergeKey, kind);
    const iy = ix >= 0 ? indexOf(order, y, mergeKey, kind) : -1;
    return ix >= 0 && iy >= 0 ? ix < iy : true;
  });
  return [...keep, ...deleted];
}

/**
 * Orders patch items by patchOrder and server-only items by serverOrder, then interleaves
 * them: a server-only item goes before a patch item only if it came first in serverOrder.
 */
function normalizeElementOrder(
  patchItems: JsonValue[],
  serverOnly: JsonValue[],
  patchOrder: readonly JsonValue[],
  serverOrder: readonly JsonValue[],
  mergeKey: string,
  kind: GoKind,
): JsonValue[] {
  const right = normalizeSliceOrder(patchItems, patchOrder, mergeKey, kind);
  const left = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  const out: JsonValue[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexOf(serverOrder, left[i], mergeKey, kind);
      const ri = indexOf(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

function mergeKeyValueEqual(left: JsonValue, right: JsonValue, mergeKey: string): boolean {
  if (!mergeKey) return goEqual(left, right);
  const l = asMap(left);
  const r = asMap(right);
  if (!hasOwn(l, mergeKey)) throw errNoMergeKey(l, mergeKey);
  if (!hasOwn(r, mergeKey)) throw errNoMergeKey(r, mergeKey);
  return goEqual(l[mergeKey], r[mergeKey]);
}

/** The patch list's items (deletions aside) must appear in $setElementOrder in the same order. */
function validatePatchWithSetOrderList(patchList: JsonValue[] | undefined, setOrder: JsonValue[], mergeKey: string): void {
  if (!patchList || setOrder.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey ? patchList.filter((v) => asMap(v)[directiveMarker] !== deleteDirective) : patchList;
  let pi = 0;
  let si = 0;
  while (pi < nonDelete.length && si < setOrder.length) {
    if (isJsonObject(nonDelete[pi]) && hasOwn(nonDelete[pi] as JsonObject, directiveMarker)) {
      pi++;
      continue;
    }
    if (mergeKeyValueEqual(nonDelete[pi], setOrder[si], mergeKey)) pi++;
    si++;
  }
  if (pi < nonDelete.length && si >= setOrder.length) {
    throw plain(`The order in patch list:\n${goFormat(patchList)}\n doesn't match ${setElementOrderPrefix} list:\n${goFormat(setOrder)}\n`);
  }
}

/**
 * Processes every `$setElementOrder/<list>` of patch: merges the list (if patched) and orders
 * the result by the directive, then the patch, then the live list. Consumes the directive and
 * the list from patch.
 */
function mergeSetElementOrderLists(original: JsonObject, patch: JsonObject, meta: Meta): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(setElementOrderPrefix)) continue;
    const setOrder = patch[key];
    delete patch[key];
    if (!Array.isArray(setOrder)) throw errBadArgType('slice', setOrder);
    const listKey = extractKey(key, setElementOrderPrefix);
    const foundOriginal = hasOwn(original, listKey);
    const foundPatch = hasOwn(patch, listKey);
    const originalList = foundOriginal ? original[listKey] : undefined;
    const patchList = foundPatch ? patch[listKey] : undefined;
    if (foundOriginal && !Array.isArray(originalList)) throw errBadArgType('slice', originalList);
    if (foundPatch && !Array.isArray(patchList)) throw errBadArgType('slice', patchList);
    const originalItems = originalList as JsonValue[] | undefined;
    const patchItems = patchList as JsonValue[] | undefined;
    const lm = lookupSliceStrict(meta, listKey);
    validatePatchWithSetOrderList(patchItems, setOrder, lm.mergeKey);

    let merged: JsonValue[];
    if (originalItems && !patchItems) merged = originalItems;
    else if (!originalItems && patchItems) merged = removeDirectives(patchItems).value as JsonValue[];
    else if (originalItems && patchItems) merged = mergeSliceHandler(originalItems, patchItems, lm, false);
    else continue;

    const { inList, rest } = partition(merged, setOrder, lm.mergeKey);
    const kind = sliceElementKind(originalItems, patchItems);
    setOwn(original, listKey, normalizeElementOrder(inList, rest, setOrder, originalItems ?? [], lm.mergeKey, kind));
    delete patch[listKey];
  }
}

/**
 * Applies a strategic merge patch to original (neither is modified) using schema for the list
 * semantics. A patch that is not a JSON object leaves the original unchanged (upstream decodes
 * `null` to an empty patch; decodeStrategicMergePatch refuses everything else). Throws
 * ApiError: 400 for malformed directives, 422 for lists of lists, 500 for other failures.
 */
export function applyStrategicMergePatch(original: unknown, patch: unknown, schema: ObjectSchema): JsonValue {
  const out = (isJsonObject(original) ? deepCopy(original) : {}) as JsonObject;
  if (!isJsonObject(patch)) return out;
  return mergeMap(out, deepCopy(patch) as JsonObject, { kind: 'struct', schema });
}

/**
 * Decodes a strategic merge patch body as upstream does (json into map[string]interface{}):
 * decoder errors are 400s with the decoder's text in every fieldValidation mode; `null` is an
 * empty patch. Duplicate members: the last one wins.
 */
export function decodeStrategicMergePatch(body: Uint8Array | string, fieldValidation: FieldValidationDirective = 'Warn'): JsonObject {
  void fieldValidation; // Strict and non-strict decoding fail with the same texts.
  let tree: GoJsonNode;
  try {
    tree = parseGoJsonTree(body);
  } catch (e) {
    if (e instanceof GoJsonSyntaxError) throw errors.badRequest(e.message);
    throw e;
  }
  if (tree.kind === 'null') return {};
  if (tree.kind !== 'object') throw errors.badRequest(goUnmarshalTypeError(goJsonKindWord(tree), 'map[string]interface {}'));
  refuseDeepPatch(tree);
  // Numbers are decoded as float64 (or int64): out of range is the decoder's error.
  const overflow = firstFloatOverflow(tree);
  if (overflow !== undefined) throw errors.badRequest(goUnmarshalTypeError(`number ${overflow}`, 'float64'));
  return goJsonNodeValue(tree) as JsonObject;
}
