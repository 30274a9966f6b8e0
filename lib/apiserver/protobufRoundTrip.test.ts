// JSON → Protobuf → JSON for every kind, generated from the schemas: each top-level kind exported
// by lib/api (served kinds, lists, reviews, TokenRequest, Status, …) and each served resource's
// response path (object and list bodies as the server writes them). A new kind is covered
// without a new test; a field without a Protobuf number fails here.
import { apiVersionOf, embeddedFieldNames, type FieldSchema, type ObjectSchema } from '../api';
import { normalize } from '../codec/normalize';
import { decodeProtobufEnvelope, decodeProtobufObject, encodeProtobuf } from '../codec/protobuf';
import { builtinStrategies } from '../registry/builtin';
import { buildKindSchemas } from './kindSchemas';
import { protobufBody } from './respond';
import { sampleObject, topLevelKinds } from './testing/sampleObjects';

// TypeMeta is inline in Go and has no field number: the envelope carries it (lists' items have none).
const typeMetaFields = new Set(['apiVersion', 'kind']);
const isTypeMeta = (name: string, f: FieldSchema): boolean => typeMetaFields.has(name) && f.protobuf === undefined;

const pbSample = { text: 'value', any: { 'f:metadata': { 'f:labels': {} } }, skip: isTypeMeta };
const sampleOf = (schema: ObjectSchema) => sampleObject(schema, pbSample);
const kinds = topLevelKinds();

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
    const json = normalize({ apiVersion: 'x.svc.io/v1', kind: 'K', ...sampleOf(schema) }, schema);
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
    const item = normalize(sampleOf(r.schema), r.schema);
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
