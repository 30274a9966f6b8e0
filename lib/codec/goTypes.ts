// Go type names of schema fields, as reflect prints them in json.UnmarshalTypeError
// ("v1.ObjectMeta", "map[string]string", "[]uint8"). Named string types (types.UID,
// v1.KeyUsage) are not in the schema language, so they print as their base "string".
import type { FieldSchema, ObjectSchema } from '../api/schema';

/** "io.svc.api.core.v1.Namespace" → "Namespace" (reflect.Type.Name()). */
export function goStructName(schema: ObjectSchema): string {
  let name = structNames.get(schema);
  if (name === undefined) {
    const parts = schema.name.split('.');
    name = parts[parts.length - 1];
    structNames.set(schema, name);
  }
  return name;
}
// Asked for every struct of every decoded body.
const structNames = new WeakMap<ObjectSchema, string>();

/** "io.svc.api.core.v1.Namespace" → "v1.Namespace" (reflect.Type.String()). */
export function goStructType(schema: ObjectSchema): string {
  const parts = schema.name.split('.');
  return parts.length >= 2 ? `${parts[parts.length - 2]}.${parts[parts.length - 1]}` : schema.name;
}

export function goTypeOf(f: FieldSchema): string {
  switch (f.type) {
    case 'string':
      if (f.format === 'byte') return '[]uint8';
      if (f.format === 'date-time') return f.micro ? 'v1.MicroTime' : 'v1.Time';
      return 'string';
    case 'integer':
      return f.format;
    case 'number':
      return 'float64';
    case 'intOrString':
      return 'intstr.IntOrString';
    case 'boolean':
      return 'bool';
    case 'object':
      return goStructType(f.ref());
    case 'array':
      return `[]${goTypeOf(f.items)}`;
    case 'map':
      return `map[string]${goTypeOf(f.values)}`;
    case 'any':
      return 'interface {}';
  }
}
