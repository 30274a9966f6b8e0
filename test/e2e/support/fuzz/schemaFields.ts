// Every field of a kind, found by walking its ObjectSchema (never a hand-written list): the
// path to reach it in a JSON body (arrays entered at index 0, maps at one key) and its schema.
import type { FieldSchema, ObjectSchema } from '../../../../lib/api';

export type JsonPathStep = string | number;

export interface SchemaField {
  /** e.g. ['metadata', 'ownerReferences', 0, 'uid']. */
  path: JsonPathStep[];
  field: FieldSchema;
}

/** The key used to step into map-typed fields. */
export const mapKeyStep = 'fuzz.example/key';

export function schemaFields(root: ObjectSchema): SchemaField[] {
  const out: SchemaField[] = [];
  const visit = (schema: ObjectSchema, prefix: JsonPathStep[], chain: readonly string[]): void => {
    // A schema that contains itself (none do yet) is entered once per chain.
    if (chain.includes(schema.name)) return;
    for (const [name, field] of Object.entries(schema.fields)) {
      walkField(field, [...prefix, name], [...chain, schema.name]);
    }
  };
  const walkField = (field: FieldSchema, path: JsonPathStep[], chain: readonly string[]): void => {
    out.push({ path, field });
    if (field.type === 'object') visit(field.ref(), path, chain);
    else if (field.type === 'array') walkField(field.items, [...path, 0], chain);
    else if (field.type === 'map') walkField(field.values, [...path, mapKeyStep], chain);
  };
  visit(root, [], []);
  return out;
}

export function pathString(path: readonly JsonPathStep[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '');
}

/**
 * Sets value at path inside a JSON-like object, creating objects, one-element arrays and
 * one-key maps on the way (the containers are the right type; only the leaf is wrong).
 */
export function setAtPath(target: Record<string, unknown>, path: readonly JsonPathStep[], value: unknown): void {
  let cur: Record<string | number, unknown> | unknown[] = target;
  for (let i = 0; i < path.length - 1; i++) {
    const step = path[i];
    const nextIsIndex = typeof path[i + 1] === 'number';
    const holder = cur as Record<string | number, unknown>;
    let next = holder[step];
    if (typeof next !== 'object' || next === null) {
      next = nextIsIndex ? [] : {};
      holder[step] = next;
    }
    cur = next as Record<string | number, unknown>;
  }
  (cur as Record<string | number, unknown>)[path[path.length - 1]] = value;
}
