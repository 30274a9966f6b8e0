// One FieldSchema per object schema, so values converted with it are cached per kind
// (CelProgram caches conversions by schema identity).
import type { FieldSchema, ObjectSchema } from '../api/schema';

const fields = new WeakMap<ObjectSchema, FieldSchema>();

export function objectField(schema: ObjectSchema): FieldSchema {
  let f = fields.get(schema);
  if (!f) fields.set(schema, (f = { type: 'object', ref: () => schema }));
  return f;
}
