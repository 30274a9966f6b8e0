import { certificatesigningrequests } from '../../api/certificates/certificateSigningRequest';
import { namespaces } from '../../api/core/namespace';
import { serviceaccounts } from '../../api/core/serviceaccount';
import { ProtoReader, WireType } from '../../protowire/reader';
import { OpenAPIService } from './serve';
import { encodeMessage, swaggerToProto } from './swaggerProto';

/** A decoded message: field number → its values (bytes for length-delimited, bigint for varints, number for doubles). */
type Fields = Map<number, Array<Uint8Array | bigint | number>>;

function decode(b: Uint8Array): Fields {
  const r = new ProtoReader(b);
  const out: Fields = new Map();
  while (!r.done) {
    const { field, wireType } = r.key('test');
    let v: Uint8Array | bigint | number;
    if (wireType === WireType.varint) v = r.uvarint();
    else if (wireType === WireType.bytes) v = r.bytes();
    else if (wireType === WireType.fixed64) {
      v = new DataView(b.buffer, b.byteOffset + r.pos, 8).getFloat64(0, true);
      r.pos += 8;
    } else throw new Error(`wire type ${wireType}`);
    out.set(field, [...(out.get(field) ?? []), v]);
  }
  return out;
}

const text = (v: unknown): string => new TextDecoder().decode(v as Uint8Array);
const sub = (m: Fields, n: number, i = 0): Fields => decode(m.get(n)?.[i] as Uint8Array);
/** The value message of the Named* entry called `name` in repeated field n. */
function named(m: Fields, n: number, name: string): Fields {
  for (const e of m.get(n) ?? []) {
    const pair = decode(e as Uint8Array);
    if (text(pair.get(1)?.[0]) === name) return sub(pair, 2);
  }
  throw new Error(`no entry ${name}`);
}
const names = (m: Fields, n: number): string[] => (m.get(n) ?? []).map((e) => text(decode(e as Uint8Array).get(1)?.[0]));

describe('swaggerToProto', () => {
  const service = new OpenAPIService([namespaces, serviceaccounts, certificatesigningrequests]);
  const doc = decode(swaggerToProto(JSON.parse(service.swaggerV2().body.toString()) as Record<string, unknown>));

  it('carries swagger, info and the security definition', () => {
    expect(text(doc.get(1)?.[0])).toBe('2.0');
    expect(text(sub(doc, 2).get(1)?.[0])).toBe('svc-apiserver');
    expect(names(sub(doc, 13), 1)).toEqual(['BearerToken']);
    const apiKey = sub(named(sub(doc, 13), 1, 'BearerToken'), 2);
    expect(text(apiKey.get(1)?.[0])).toBe('apiKey');
    expect(text(apiKey.get(3)?.[0])).toBe('header');
  });

  it('keeps the patch strategy vendor extensions kubectl ≤ 1.28 reads for strategic merge', () => {
    const sa = named(sub(doc, 9), 1, 'io.svc.api.core.v1.ServiceAccount');
    const secrets = named(sub(sa, 25), 1, 'secrets');
    const ext = new Map((secrets.get(31) ?? []).map((e) => {
      const pair = decode(e as Uint8Array);
      return [text(pair.get(1)?.[0]), text(sub(pair, 2).get(2)?.[0])];
    }));
    expect(ext.get('x-kubernetes-patch-strategy')).toBe('"merge"');
    expect(ext.get('x-kubernetes-patch-merge-key')).toBe('"name"');
    expect(text(sub(secrets, 22).get(1)?.[0])).toBe('array');
    expect(text(sub(sub(secrets, 23), 1).get(1)?.[0])).toBe('#/definitions/io.svc.api.core.v1.ObjectReference');
  });

  it('lists the PATCH query parameters kubectl checks for fieldValidation support', () => {
    const paths = sub(doc, 8);
    expect(names(paths, 2)).toContain('/api/v1/namespaces/{namespace}/serviceaccounts/{name}');
    const patch = sub(named(paths, 2, '/api/v1/namespaces/{namespace}/serviceaccounts/{name}'), 8);
    const query = (patch.get(8) ?? [])
      .map((p) => decode(decode(p as Uint8Array).get(1)?.[0] as Uint8Array))
      .filter((param) => param.has(2))
      .map((param) => sub(param, 2))
      .filter((nonBody) => nonBody.has(3))
      .map((nonBody) => text(sub(nonBody, 3).get(4)?.[0]));
    expect(query).toEqual(expect.arrayContaining(['dryRun', 'fieldManager', 'fieldValidation', 'force']));
    const gvk = (patch.get(13) ?? []).map((e) => text(decode(e as Uint8Array).get(1)?.[0]));
    expect(gvk).toEqual(expect.arrayContaining(['x-kubernetes-action', 'x-kubernetes-group-version-kind']));
  });

  it.each([
    ['body parameter', 'Parameter', { in: 'body', name: 'body', schema: { $ref: '#/x' } }, 1],
    ['query parameter', 'Parameter', { in: 'query', name: 'q', type: 'string' }, 2],
    ['reference', 'ParametersItem', { $ref: '#/parameters/p' }, 2],
    ['additionalProperties: false', 'AdditionalPropertiesItem', false, 2],
    ['additionalProperties schema', 'AdditionalPropertiesItem', { type: 'string' }, 1],
    ['file response', 'SchemaItem', { type: 'file' }, 2],
  ])('oneof: %s', (_name, message, value, field) => {
    expect([...decode(encodeMessage(message, value)).keys()]).toEqual([field]);
  });

  it('encodes numbers as upstream types them: doubles fixed64, lengths varint', () => {
    const s = decode(encodeMessage('Schema', { maximum: 1.5, maxLength: 3, uniqueItems: true }));
    expect(s.get(7)).toEqual([1.5]);
    expect(s.get(11)).toEqual([3n]);
    expect(s.get(16)).toEqual([1n]);
  });
});
