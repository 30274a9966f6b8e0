// Generated sample objects for the per-kind codec round-trip tests (Protobuf, CBOR): a value for
// every field of a schema, so every field (and field number) is exercised; maps get unsorted
// keys, bytes include non-UTF-8 octets.
import type { FieldSchema, ObjectSchema } from '../../api';
import { allSchemas } from '../../codec/schemas';

export interface SampleOptions {
  /** Appended to string values (a non-ASCII one exercises UTF-8 handling). */
  text: string;
  /** The value of free-form (`any`) fields. */
  any: unknown;
  /** Fields left out at every depth (e.g. TypeMeta where the codec's envelope carries it). */
  skip?: (name: string, f: FieldSchema) => boolean;
}

function sampleValue(f: FieldSchema, name: string, depth: number, o: SampleOptions, within: ReadonlySet<ObjectSchema>): unknown {
  switch (f.type) {
    case 'string':
      if (f.enum?.length) return f.enum[f.enum.length - 1];
      if (f.format === 'date-time') return f.micro ? '2026-01-10T08:00:00.123456Z' : '2026-01-10T08:00:00Z';
      if (f.format === 'byte') return Buffer.from([0, 1, 0xfe, 0xff, name.length]).toString('base64');
      return `${name}-${o.text}`;
    case 'integer':
      return f.format === 'int32' ? -7 : 2 ** 40 + 3;
    case 'boolean':
      return true;
    case 'object':
      // A recursive schema (JSONSchemaProps) is filled once per path: its nested self is empty.
      return within.has(f.ref()) ? {} : sampleObject(f.ref(), o, depth + 1, within);
    case 'array':
      return [sampleValue(f.items, name, depth, o, within), sampleValue(f.items, `${name}2`, depth, o, within)];
    case 'map':
      return { zeta: sampleValue(f.values, 'z', depth, o, within), alpha: sampleValue(f.values, 'a', depth, o, within) };
    case 'any':
      return structuredClone(o.any);
  }
}

export function sampleObject(schema: ObjectSchema, o: SampleOptions, depth = 0, within: ReadonlySet<ObjectSchema> = new Set()): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (depth > 8) return out;
  const path = new Set(within).add(schema);
  for (const [name, f] of Object.entries(schema.fields)) {
    if (o.skip?.(name, f)) continue;
    out[name] = sampleValue(f, name, depth, o, path);
  }
  return out;
}

/** Every top-level kind lib/api exports: schemas with apiVersion and kind, as [name, schema]. */
export function topLevelKinds(): (readonly [string, ObjectSchema])[] {
  return allSchemas()
    .filter((s) => 'apiVersion' in s.fields && 'kind' in s.fields)
    .map((s) => [s.name, s] as const);
}
