// The Go zero value of a schema field's type, as encoding/json writes it: the one rule every
// codec starts from. The two places that deliberately write something else say so here, by name,
// rather than keep their own copies.
import type { FieldSchema } from '../api/schema';

/**
 * A declared, unset Go value of the field's type: "" / 0 / false, an empty struct, and null for
 * what Go leaves nil (slices, maps, []byte) or marshals as null (a zero metav1.Time).
 */
export function goZero(f: FieldSchema): unknown {
  switch (f.type) {
    case 'string':
      return f.format ? null : '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'object':
      return {};
    case 'array':
    case 'map':
    case 'any':
    case 'intOrString':
      return null;
  }
}

/**
 * What an absent field without omitempty is written as by normalize: lists and maps empty rather
 * than null, so an empty list reads "items": [] (the caller fills a struct's own fields).
 */
export function emittedZero(f: FieldSchema): unknown {
  if (f.type === 'array') return [];
  if (f.type === 'map') return {};
  return goZero(f);
}

/**
 * The value of a Protobuf map entry that leaves its value out: gogo's generated Unmarshal starts
 * from a made value (`[]byte{}`, `&ExtraValue{}`), so bytes and lists are empty rather than nil.
 */
export function protobufMapValueZero(f: FieldSchema): unknown {
  if (f.type === 'array') return [];
  if (f.type === 'string' && f.format === 'byte') return '';
  return goZero(f);
}
