// FieldsV1, the JSON form of a field set in managedFields: every key a serialised path element,
// every leaf `{}`, and `".": {}` first when a member also has members below it. Keys are written
// in upstream's element order so the bytes match what upstream servers write.
import type { JsonObject, JsonValue } from '../jsonValue';
import { isJsonObject, shareableJson } from '../jsonValue';
import { FieldSet } from './fieldSet';
import type { FieldSetNode } from './fieldSet';
import type { PathElement } from './pathElement';
import { deserializePathElement } from './pathElement';

/** Shareable (never changed after): copies of the object holding it share it instead of cloning it. */
export function encodeFieldsV1(set: FieldSet): JsonObject {
  return shareableJson(encodeNode(set.tree as FieldSetNode, false));
}

function encodeNode(n: FieldSetNode, includeSelf: boolean): JsonObject {
  const out: JsonObject = {};
  if (includeSelf && n.children.size) out['.'] = {};
  // The tree is keyed by each element's FieldsV1 spelling already.
  for (const [key, c] of FieldSet.sortedChildEntries(n)) out[key] = encodeNode(c.node, c.node.member);
  return out;
}

/** Decodes FieldsV1; throws an Error with upstream's text for malformed input. */
export function decodeFieldsV1(v: JsonValue | undefined): FieldSet {
  const set = new FieldSet();
  if (v === undefined || v === null) return set;
  if (!isJsonObject(v)) throw new Error('expected an object');
  decodeInto(set, [], v);
  return set;
}

function decodeInto(set: FieldSet, prefix: PathElement[], obj: JsonObject): void {
  for (const [k, child] of Object.entries(obj)) {
    if (k === '.') {
      if (prefix.length) set.insert(prefix);
      continue;
    }
    const path = [...prefix, deserializePathElement(k)];
    if (!isJsonObject(child)) throw new Error('expected an object');
    if (Object.keys(child).length === 0) set.insert(path);
    else decodeInto(set, path, child);
  }
}
