// JSON → Protobuf → JSON for every kind, generated from the schemas: each top-level kind exported
// by lib/api (served kinds, lists, reviews, TokenRequest, Status, …) and each served resource's
// response path (object and list bodies as the server writes them). A new kind is covered
// without a new test; a field without a Protobuf number fails here.
import { apiVersionOf, embeddedFieldNames, type FieldSchema, type ObjectSchema } from '../api';
import { normalize } from '../codec/normalize';
import { decodeProtobufEnvelope, decodeProtobufObject, encodeProtobuf } from '../codec/protobuf';
import { allSchemas } from '../codec/schemas';
import { builtinStrategies } from '../registry/builtin';
import { buildKindSchemas } from './kindSchemas';
import { protobufBody } from './respond';

// TypeMeta is inline in Go and has no field number: the envelope carries it (lists' items have none).
const typeMetaFields = new Set(['apiVersion', 'kind']);
const isTypeMeta = (name: string, f: FieldSchema): boolean => typeMetaFields.has(name) && f.protobuf === undefined;

/** A value for every field, so each field number is exercised; maps get unsorted keys. */
function sampleValue(f: FieldSchema, name: string, depth: number): unknown {
  switch (f.type) {
    case 'string':
      if (f.enum?.length) return f.enum[f.enum.length - 1];
      if (f.format === 'date-time') return f.micro ? '2026-01-10T08:00:00.123456Z' : '2026-01-10T08:00:00Z';
      if (f.format === 'byte') return Buffer.from([0, 1, 0xfe, 0xff, name.length]).toString('base64');
      return `${name}-value`;
    case 'integer':
      return f.format === 'int32' ? -7 : 2 ** 40 + 3;
    case 'boolean':
      return true;
    case 'object':
      return sampleObject(f.ref(), depth + 1);
    case 'array':
      return [sampleValue(f.items, name, depth), sampleValue(f.items, `${name}2`, depth)];
    case 'map':
      return { zeta: sampleValue(f.values, 'z', depth), alpha: sampleValue(f.values, 'a', depth) };
    case 'any':
      return { 'f:metadata': { 'f:labels': {} } };
  }
}

function sampleObject(schema: ObjectSchema, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (depth > 8) return out;
  for (const [name, f] of Object.entries(schema.fields)) {
    if (isTypeMeta(name, f)) continue;
    out[name] = sampleValue(f, name, depth);
  }
  return out;
}

/** Top-level kinds: schemas with apiVersion and kind. */
const kinds = allSchemas()
  .filter((s) => 'apiVersion' in s.fields && 'kind' in s.fields)
  .map((s) => [s.name, s] as const);

function fieldsWithoutNumbers(schema: ObjectSchema, seen = new Set<ObjectSchema>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const out: string[] = [];
  // Fields of inline-embedded structs are numbered in the embedded message's schema.
  const embedded = embeddedFieldNames(schema);
  for (const e of schema.protobufEmbedded ?? []) out.push(...fieldsWithoutNumbers(e.schema(), seen));
  for (const [name, f] of Object.entries(schema.fields)) {
    if (isTypeMeta(name, f)) continue;
    if (f.protobuf === undefined && !embedded.has(name)) out.push(`${schema.name}.${name}`);
    let inner: FieldSchema = f;
    while (inner.type === 'array' || inner.type === 'map') inner = inner.type === 'array' ? inner.items : inner.values;
    if (inner.type === 'object') out.push(...fieldsWithoutNumbers(inner.ref(), seen));
  }
  return out;
}

describe('every kind round-trips JSON → Protobuf → JSON', () => {
  test('there are kinds to test', () => {
    expect(kinds.length).toBeGreaterThan(15);
  });

  test.each(kinds)('%s: every field has a Protobuf number', (_name, schema) => {
    expect(fieldsWithoutNumbers(schema)).toEqual([]);
  });

  test.each(kinds)('%s', (_name, schema) => {
    const json = normalize({ apiVersion: 'x.svc.io/v1', kind: 'K', ...sampleObject(schema) }, schema);
    const body = encodeProtobuf(json, schema, 'x.svc.io/v1', 'K');
    const env = decodeProtobufEnvelope(body);
    expect(env).toMatchObject({ apiVersion: 'x.svc.io/v1', kind: 'K', contentType: '' });
    const back = normalize({ apiVersion: env.apiVersion, kind: env.kind, ...decodeProtobufObject(env.raw, schema) }, schema);
    expect(JSON.stringify(back)).toBe(JSON.stringify(json));
  });
});

describe('every served kind is written in Protobuf as its object and its list', () => {
  const schemas = buildKindSchemas(
    builtinStrategies.map((s) => s.resource),
    [],
  );
  test.each(builtinStrategies.map((s) => [s.resource.kind, s.resource] as const))('%s', (_kind, r) => {
    const apiVersion = apiVersionOf(r);
    const item = normalize(sampleObject(r.schema), r.schema);
    const obj = { apiVersion, kind: r.kind, ...item };
    const list = { apiVersion, kind: r.listKind, metadata: { resourceVersion: '42', continue: 'c' }, items: [item, item] };
    for (const value of [obj, list]) {
      const env = decodeProtobufEnvelope(protobufBody(value, schemas));
      expect(env).toMatchObject({ apiVersion, kind: value.kind });
      const schema = schemas(apiVersion, value.kind) as ObjectSchema;
      const back = normalize({ apiVersion, kind: value.kind, ...decodeProtobufObject(env.raw, schema) }, schema);
      expect(JSON.stringify(back)).toBe(JSON.stringify(normalize(value, schema)));
    }
  });

  test('a kind without a schema is an internal error, not a crash', () => {
    expect(() => protobufBody({ apiVersion: 'v1', kind: 'Nope' }, schemas)).toThrow('no protobuf encoding is known for v1, Kind=Nope');
  });
});
