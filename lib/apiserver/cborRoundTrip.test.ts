// JSON → CBOR → JSON for every kind, generated from the schemas like the Protobuf round trip:
// each top-level kind exported by lib/api, in both encoder modes, decoded by the strict decoder
// (no unknown field, no error), and each served resource's object and list bodies as the server
// writes them (respond.cborBody). A new kind is covered without a new test.
import { apiVersionOf, type ObjectSchema } from '../api';
import { decodeCBOR } from '../codec/cborDecode';
import { cborSelfDescribed, encodeCBOR } from '../codec/cborEncode';
import { normalize } from '../codec/normalize';
import { builtinStrategies } from '../registry/builtin';
import { buildKindSchemas } from './kindSchemas';
import { cborBody } from './respond';
import { sampleObject, topLevelKinds } from './testing/sampleObjects';

const cborSample = { text: 'välue', any: { 'f:metadata': { '.': {}, 'f:labels': {} } } }; // sorted: FieldsV1 is always re-encoded so
const sampleOf = (schema: ObjectSchema) => sampleObject(schema, cborSample);
const kinds = topLevelKinds();

describe('every kind round-trips JSON → CBOR → JSON', () => {
  test('there are kinds to test', () => {
    expect(kinds.length).toBeGreaterThan(15);
  });

  test.each(kinds)('%s', (_name, schema) => {
    const json = normalize({ ...sampleOf(schema), apiVersion: 'x.svc.io/v1', kind: 'K' }, schema);
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
    const item = normalize(sampleOf(r.schema), r.schema);
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
