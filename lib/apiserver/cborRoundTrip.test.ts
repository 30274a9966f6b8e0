// JSON → CBOR → JSON for every kind, generated from the schemas like the Protobuf round trip:
// each top-level kind exported by lib/api, in both encoder modes, decoded by the strict decoder
// (no unknown field, no error), and each served resource's object and list bodies as the server
// writes them (respond.cborBody). A new kind is covered without a new test.
import { apiVersionOf, type FieldSchema, type ObjectSchema } from '../api';
import { decodeCBOR } from '../codec/cborDecode';
import { cborSelfDescribed, encodeCBOR } from '../codec/cborEncode';
import { normalize } from '../codec/normalize';
import { allSchemas } from '../codec/schemas';
import { builtinStrategies } from '../registry/builtin';
import { buildKindSchemas } from './kindSchemas';
import { cborBody } from './respond';

/** A value for every field; maps get unsorted keys, bytes include non-UTF-8 octets. */
function sampleValue(f: FieldSchema, name: string, depth: number): unknown {
  switch (f.type) {
    case 'string':
      if (f.enum?.length) return f.enum[f.enum.length - 1];
      if (f.format === 'date-time') return f.micro ? '2026-01-10T08:00:00.123456Z' : '2026-01-10T08:00:00Z';
      if (f.format === 'byte') return Buffer.from([0, 1, 0xfe, 0xff, name.length]).toString('base64');
      return `${name}-välue`;
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
      return { 'f:metadata': { '.': {}, 'f:labels': {} } }; // sorted: FieldsV1 is always re-encoded so
  }
}

function sampleObject(schema: ObjectSchema, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (depth > 8) return out;
  for (const [name, f] of Object.entries(schema.fields)) out[name] = sampleValue(f, name, depth);
  return out;
}

const kinds = allSchemas()
  .filter((s) => 'apiVersion' in s.fields && 'kind' in s.fields)
  .map((s) => [s.name, s] as const);

describe('every kind round-trips JSON → CBOR → JSON', () => {
  test('there are kinds to test', () => {
    expect(kinds.length).toBeGreaterThan(15);
  });

  test.each(kinds)('%s', (_name, schema) => {
    const json = normalize({ ...sampleObject(schema), apiVersion: 'x.svc.io/v1', kind: 'K' }, schema);
    for (const sorted of [false, true]) {
      const body = encodeCBOR(json, schema, { sorted });
      expect(body.subarray(0, 3)).toEqual(Buffer.from(cborSelfDescribed));
      const back = decodeCBOR(body, schema, true);
      expect(back.error).toBeUndefined();
      expect(back.strictError).toBeUndefined();
      expect(JSON.stringify(normalize(back.value as object, schema))).toBe(JSON.stringify(json));
    }
  });
});

describe('every served kind is written in CBOR as its object and its list', () => {
  const schemas = buildKindSchemas(
    builtinStrategies.map((s) => s.resource),
    [],
  );
  test.each(builtinStrategies.map((s) => [s.resource.kind, s.resource] as const))('%s', (_kind, r) => {
    const apiVersion = apiVersionOf(r);
    const item = normalize(sampleObject(r.schema), r.schema);
    const obj = { ...item, apiVersion, kind: r.kind };
    const frozen = Object.freeze({ ...item, apiVersion, kind: r.kind });
    const list = { apiVersion, kind: r.listKind, metadata: { resourceVersion: '42', continue: 'c' }, items: [obj, frozen, frozen] };
    for (const value of [obj, list]) {
      const schema = schemas(apiVersion, value.kind) as ObjectSchema;
      const back = decodeCBOR(cborBody(value, schemas), schema, true);
      expect(back.error).toBeUndefined();
      expect(back.strictError).toBeUndefined();
      expect(JSON.stringify(normalize(back.value as object, schema))).toBe(JSON.stringify(normalize(value, schema)));
    }
  });
});
