// FieldsV1, the JSON form of a field set in managedFields: every key a serialised path element,
// every leaf `{}`, and `".": {}` first when a member also has members below it. Keys are written
// in upstream's element order so the bytes match what upstream servers write.
import type { JsonObject, JsonValue } from '../jsonValue';
import { isJsonObject, shareableJson } from '../jsonValue';
import { childOf, FieldSet } from './fieldSet';
import type { FieldSetNode } from './fieldSet';
import { deserializePathElement, serializePathElement } from './pathElement';

/** Shareable (never changed after): copies of the object holding it share it instead of cloning it. */
export function encodeFieldsV1(set: FieldSet): JsonObject {
  return shareableJson(encodeNode(set.tree as FieldSetNode, false));
}

function encodeNode(n: FieldSetNode, includeSelf: boolean): JsonObject {
  const out: JsonObject = {};
  if (includeSelf && n.children.size) out['.'] = {};
  // The tree is keyed by each element's FieldsV1 spelling already.
  for (const c of FieldSet.sortedChildren(n)) out[c.key] = encodeNode(c.node, c.node.member);
  return out;
}

/** Decodes FieldsV1; throws an Error with upstream's text for malformed input. */
export function decodeFieldsV1(v: JsonValue | undefined): FieldSet {
  if (v === undefined || v === null) return new FieldSet();
  if (!isJsonObject(v)) throw new Error('expected an object');
  return FieldSet.build((root) => decodeInto(root, v, true));
}

/**
 * Writes obj's members into node, as inserting each path would (the same element spelled two
 * ways lands in one child), without building or re-walking a path per member.
 */
function decodeInto(node: FieldSetNode, obj: JsonObject, isRoot: boolean): void {
  for (const k in obj) {
    if (!Object.prototype.hasOwnProperty.call(obj, k)) continue;
    if (k === '.') {
      if (!isRoot) node.member = true;
      continue;
    }
    const e = deserializePathElement(k);
    const child = obj[k];
    if (!isJsonObject(child)) throw new Error('expected an object');
    // A field's key is already its canonical spelling; other elements are spelled as upstream writes them.
    const key = e.kind === 'field' ? k : serializePathElement(e);
    const c = childOf(node, key, e);
    let empty = true;
    for (const _ in child) {
      empty = false;
      break;
    }
    if (empty) c.node.member = true;
    else decodeInto(c.node, child, false);
  }
}
