// The one-pass typed decoder must give exactly what parseGoJsonTree + decodeTree give whenever
// it answers, and give up on everything those report (errors, warnings) or merge.
import { ConfigMapSchema, ServiceAccountSchema, type ObjectSchema } from '../api';
import { parseGoJsonTree } from '../machinery/goJson';
import { isShareableJson, type JsonValue } from '../machinery/jsonValue';
import { normalize } from './normalize';
import { sampleObject, topLevelKinds } from '../apiserver/testing/sampleObjects';
import { decodeTree } from './decodeTree';
import { decodeTyped } from './decodeTyped';

/** What the exact path decodes, when it has nothing to report. */
function exact(body: string, schema: ObjectSchema): Record<string, unknown> | undefined {
  const r = decodeTree(parseGoJsonTree(Buffer.from(body)), schema, { strict: true });
  return r.error === undefined && r.strictErrors.length === 0 ? r.value : undefined;
}

/** Same values, same member order, -0 and 0 told apart. */
function same(body: string, schema: ObjectSchema): void {
  const want = exact(body, schema);
  expect(want).toBeDefined();
  const got = decodeTyped(Buffer.from(body), schema);
  expect(got).toBeDefined();
  expect(JSON.stringify(got)).toBe(JSON.stringify(want));
  expect(got).toStrictEqual(want);
}

describe('decodeTyped', () => {
  test.each(topLevelKinds())('%s: a value in every field decodes as decodeTree does', (_name, schema) => {
    for (const text of ['ascii', 'ü 😀 \u2028']) {
      const sample = sampleObject(schema, { text, any: { a: [1, 2.5, { b: null, c: 'x' }], d: true } });
      same(JSON.stringify(sample), schema);
      same(JSON.stringify(sample, null, 2), schema);
    }
  });

  const sa = (rest: string): string => `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"a"${rest}}}`;

  test.each([
    ['null in a struct field of each type', sa(',"labels":null,"creationTimestamp":null,"generation":null,"uid":null')],
    ['null list items and map values', `{"metadata":{"name":"a","finalizers":[null,"x"],"labels":{"a":null}},"secrets":[null]}`],
    ['escapes, surrogate pairs and a lone surrogate', sa(',"labels":{"a":"\\u00fc\\ud83d\\ude00\\n\\"\\/","b":"\\ud800x"}')],
    ['non-ASCII bytes', sa(',"annotations":{"ä":"日本"}')],
    ['white space everywhere', ' { "metadata" : { "name" : "a" , "labels" : { } } , "secrets" : [ ] } \n'],
    ['a time with an offset and a fraction', sa(',"creationTimestamp":"2026-01-10T08:00:00.5+02:00"')],
    ['int64 beyond 2^53 and "-0"', sa(',"generation":1152921504606846976')],
    ['"-0"', sa(',"generation":-0')],
    ['__proto__ as a map key and inside free-form values', `{"metadata":{"name":"a","labels":{"__proto__":"x"},"managedFields":[{"fieldsV1":{"__proto__":{"a":1},"f:x":{}}}]}}`],
    ['a later duplicate inside a free-form value wins', `{"metadata":{"name":"a","managedFields":[{"fieldsV1":{"a":1,"b":2,"a":3}}]}}`],
    ['empty containers', `{"metadata":{"name":"a","labels":{},"finalizers":[]},"secrets":[]}`],
  ])('%s', (_name, body) => {
    same(body, ServiceAccountSchema);
  });

  test('"-0" is 0, as through BigInt', () => {
    const got = decodeTyped(Buffer.from(sa(',"generation":-0')), ServiceAccountSchema) as { metadata: { generation: number } };
    expect(Object.is(got.metadata.generation, 0)).toBe(true);
  });

  test.each([
    ['an unknown field', sa(',"nope":1')],
    ['a duplicate field', sa(',"name":"b"')],
    ['a duplicate map key', sa(',"labels":{"a":"1","a":"2"}')],
    ['another spelling of kind', '{"Kind":"ServiceAccount","metadata":{"name":"a"}}'],
    ['a syntax error', sa(',"labels":{"a":}')],
    ['text after the document', `${sa('')} x`],
    ['a truncated document', sa('').slice(0, -3)],
    ['a string for an integer', sa(',"generation":"1"')],
    ['a fraction for an integer', sa(',"generation":1.5')],
    ['an exponent for an integer', sa(',"generation":1e3')],
    ['int64 overflow', sa(',"generation":9223372036854775808')],
    ['a number for a string', sa(',"uid":1')],
    ['an object for a list', sa(',"finalizers":{}')],
    ['an unparsable time', sa(',"creationTimestamp":"yesterday"')],
    ['a number for a time', sa(',"creationTimestamp":1')],
    ['a top-level array', '[]'],
    ['a top-level null', 'null'],
    ['deep free-form nesting', `{"metadata":{"name":"a","managedFields":[{"fieldsV1":${'['.repeat(100)}${']'.repeat(100)}}]}}`],
  ])('gives up on %s', (_name, body) => {
    expect(decodeTyped(Buffer.from(body), ServiceAccountSchema)).toBeUndefined();
  });

  test('free-form values are marked shareable, so normalize does not copy them', () => {
    const got = decodeTyped(Buffer.from(`{"metadata":{"name":"a","managedFields":[{"fieldsV1":{"f:x":{}}}]}}`), ServiceAccountSchema) as {
      metadata: { managedFields: { fieldsV1: JsonValue }[] };
    };
    const fields = got.metadata.managedFields[0].fieldsV1;
    expect(isShareableJson(fields)).toBe(true);
    const normalized = normalize(got, ServiceAccountSchema) as typeof got;
    expect(normalized.metadata.managedFields[0].fieldsV1).toBe(fields);
  });

  test('an invalid base64 value gives up; a valid one is re-encoded as decodeTree does', () => {
    const bin = (v: string): string => `{"metadata":{"name":"a"},"binaryData":{"k":${JSON.stringify(v)}}}`;
    expect(decodeTyped(Buffer.from(bin('!!')), ConfigMapSchema)).toBeUndefined();
    same(bin('AAEC'), ConfigMapSchema);
  });
});
