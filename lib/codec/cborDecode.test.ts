import { certificatesigningrequests, CertificateSigningRequestSchema } from '../api/certificates/certificateSigningRequest';
import { defineObject, s } from '../api/schema';
import { isApiError } from '../machinery/errors';
import { decodeCBOR, decodeCBORMap } from './cborDecode';
import { encodeCBOR } from './cborEncode';
import { splitCBORSequence } from './cborParse';
import { bodyMediaTypesFor, decode, DecodeOptions } from './decode';

const hex = (h: string): Buffer => Buffer.from(h.replace(/[^0-9a-f]/gi, ''), 'hex');

const Inner = defineObject({ name: 'io.svc.test.v1.Inner', fields: { n: s.int32(), tags: s.map(s.string()) } });
const Sample = defineObject({
  name: 'io.svc.test.v1.Sample',
  fields: {
    name: s.string(),
    count: s.int32(),
    big: s.int64(),
    on: s.boolean(),
    data: s.bytes(),
    list: s.array(s.string()),
    labels: s.map(s.string()),
    inner: s.object(() => Inner),
    free: s.any(),
  },
});

// Byte strings for keys: 44 6e616d65 = b"name" etc.
const K = {
  name: '446e616d65',
  count: '45636f756e74',
  big: '43626967',
  on: '426f6e',
  data: '4464617461',
  list: '446c697374',
  labels: '466c6162656c73',
  inner: '45696e6e6572',
  free: '4466726565',
  n: '416e',
  tags: '4474616773',
};

describe('CBOR strict decoder: accepted inputs', () => {
  const cases: Array<[string, string, unknown]> = [
    ['byte string keys and values', `a1 ${K.name} 4161`, { name: 'a' }],
    ['text string keys and values', `a1 646e616d65 6161`, { name: 'a' }],
    ['the self-described tag is transparent', `d9d9f7 a1 ${K.name} 4161`, { name: 'a' }],
    ['unknown tags are transparent', `a1 ${K.name} d903e8 4161`, { name: 'a' }],
    ['integers of every head width', `a2 ${K.count} 1a7fffffff ${K.big} 3b7ffffffffffffffe`, { count: 2147483647, big: -9223372036854775807 }],
    ['booleans', `a1 ${K.on} f5`, { on: true }],
    ['null leaves a field unset', `a2 ${K.name} f6 ${K.on} f4`, { on: false }],
    ['[]byte: tag 22 holds raw bytes', `a1 ${K.data} d6 43 010203`, { data: 'AQID' }],
    ['[]byte: an untagged byte string holds base64 text', `a1 ${K.data} 44 41514944`, { data: 'AQID' }],
    ['string from a tag-22 byte string is its base64', `a1 ${K.name} d6 43 010203`, { name: 'AQID' }],
    ['string from a tag-21 byte string is base64url without padding', `a1 ${K.name} d5 42 fbff`, { name: '-_8' }],
    ['string from a tag-23 byte string is hex', `a1 ${K.name} d7 42 abcd`, { name: 'abcd' }],
    ['indefinite-length strings, arrays and maps', `bf ${K.name} 5f 4161 4162 ff ${K.list} 9f 4178 ff ff`, { name: 'ab', list: ['x'] }],
    ['nested structs and maps', `a1 ${K.inner} a2 ${K.n} 05 ${K.tags} a1 416b 4176`, { inner: { n: 5, tags: { k: 'v' } } }],
    ['free-form values: int64, float, strings, null', `a1 ${K.free} a3 4161 01 4162 f93e00 4163 f6`, { free: { a: 1, b: 1.5, c: null } }],
  ];
  it.each(cases)('%s', (_n, input, want) => {
    const r = decodeCBOR(hex(input), Sample, true);
    expect(r.error).toBeUndefined();
    expect(r.strictError).toBeUndefined();
    expect(r.value).toEqual(want);
  });
});

describe('CBOR strict decoder: rejected inputs with fxamacker/cbor v2.7.0 messages', () => {
  const cases: Array<[string, string, string]> = [
    ['empty input', '', 'EOF'],
    ['truncated item', 'a1 446e616d', 'unexpected EOF'],
    ['bytes after the item', 'a0 00', 'cbor: 1 bytes of extraneous data starting at index 1'],
    ['reserved additional information', '1c', 'cbor: invalid additional information 28 for type positive integer'],
    ['indefinite-length integer', '1f', 'cbor: invalid additional information 31 for type positive integer'],
    ['stray break', 'ff', 'cbor: unexpected "break" code'],
    ['odd indefinite map', `bf ${K.name} ff`, 'cbor: unexpected "break" code'],
    ['indefinite string with a text chunk', `a1 ${K.name} 5f 6161 ff`, 'cbor: wrong element type UTF-8 text string for indefinite-length byte string'],
    ['nested indefinite chunk', `a1 ${K.name} 5f 5f ff ff`, 'cbor: indefinite-length byte string chunk is not definite-length'],
    ['two-byte simple value below 32', 'f818', 'cbor: invalid simple value 24 for type primitives'],
    ['NaN', `a1 ${K.free} f97e00`, 'cbor: data item of cbor type primitives is not accepted by protocol: floating-point NaN'],
    ['infinity', `a1 ${K.free} fa7f800000`, 'cbor: data item of cbor type primitives is not accepted by protocol: floating-point infinity'],
    ['bignum tag', `a1 ${K.free} c2 4101`, 'cbor: data item of cbor type tag is not accepted by protocol: bignum'],
    ['undefined', `a1 ${K.on} f7`, 'cbor: data item of cbor type primitives is not accepted by protocol: simple value 23 is not recognized'],
    ['unassigned simple value', `a1 ${K.on} f0`, 'cbor: data item of cbor type primitives is not accepted by protocol: simple value 16 is not recognized'],
    ['nesting deeper than 64', `${'81'.repeat(65)} 00`, 'cbor: exceeded max nested level 64'],
    ['array longer than 1024', '9a00000401', 'cbor: exceeded max number of elements 1024 for CBOR array'],
    ['map larger than 1024 pairs', 'ba00000401', 'cbor: exceeded max number of key-value pairs 1024 for CBOR map'],
    ['duplicate field', `a2 ${K.name} 4161 646e616d65 4162`, 'cbor: found duplicate map key "name" at map element index 1'],
    ['duplicate key in a map field', `a1 ${K.labels} a2 416b 4161 416b 4162`, 'cbor: found duplicate map key "k" at map element index 1'],
    ['invalid UTF-8 in a text string', `a1 ${K.name} 62c328`, 'cbor: invalid UTF-8 string'],
    ['a map key that cannot name a field', `a1 80 00`, 'cbor: cannot unmarshal array into Go value of type string (map key is of type array and cannot be used to match struct field name)'],
    ['integer map key in a map[string]string', `a1 ${K.labels} a1 01 4161`, 'cbor: cannot unmarshal positive integer into Go struct field v1.Sample.labels of type string'],
    ['type mismatch names the outermost struct field', `a1 ${K.inner} a1 ${K.n} 4161`, 'cbor: cannot unmarshal byte string into Go struct field v1.Sample.inner of type int32'],
    ['int32 overflow', `a1 ${K.count} 1a80000000`, 'cbor: cannot unmarshal positive integer into Go struct field v1.Sample.count of type int32 (2147483648 overflows int32)'],
    ['text string into []byte', `a1 ${K.data} 6141`, 'cbor: cannot unmarshal UTF-8 text string into Go struct field v1.Sample.data of type []uint8'],
    ['bad base64 in an untagged []byte', `a1 ${K.data} 42 2121`, 'cbor: failed to decode base64 from byte string: illegal base64 data at input byte 0'],
    ['tag 0 around a non-text item', `a1 ${K.name} c0 01`, 'cbor: tag number 0 must be followed by text string, got positive integer'],
    ['top level not a map', '80', 'cbor: cannot unmarshal array into Go value of type v1.Sample'],
    // FieldsV1-like content is read after the decode: its errors come last, under the transcoding's words.
    ['a duplicate key inside free-form content', `a1 ${K.free} a2 4161 a0 4161 a0`, 'failed to transcode FieldsV1 to JSON: metav1.FieldsV1 cbor invalid: cbor: found duplicate map key "a" at map element index 1'],
    ['free-form content that is not a map', `a1 ${K.free} 01`, 'failed to transcode FieldsV1 to JSON: metav1.FieldsV1 cbor invalid: cbor: cannot unmarshal positive integer into Go value of type map[string]interface {}'],
    ['an error elsewhere wins over one in free-form content', `a2 ${K.free} a2 4161 a0 4161 a0 ${K.count} 4161`, 'cbor: cannot unmarshal byte string into Go struct field v1.Sample.count of type int32'],
  ];
  it.each(cases)('%s', (_n, input, want) => {
    expect(decodeCBOR(hex(input), Sample, true).error).toBe(want);
  });

  it('reports the first unknown field as a strict error and still decodes leniently', () => {
    const r = decodeCBOR(hex(`a3 ${K.name} 4161 43 78797a 01 ${K.on} f5`), Sample, true);
    expect(r.error).toBeUndefined();
    expect(r.strictError).toBe('cbor: found unknown field at map element index 1');
    expect(r.value).toEqual({ name: 'a', on: true });
  });

  it('ignores unknown fields without strictness, but not a repeated unknown key', () => {
    expect(decodeCBOR(hex(`a2 ${K.name} 4161 43 78797a 01`), Sample, false)).toEqual({ value: { name: 'a' } });
    expect(decodeCBOR(hex(`a2 43 78797a 01 63 78797a 02`), Sample, false).error).toBe('cbor: found duplicate map key "xyz" at map element index 1');
  });

  it('round-trips what the encoder writes', () => {
    const v = { name: 'n', count: -3, on: true, data: 'AQID', list: ['a'], labels: { x: 'y' }, inner: { n: 1 }, free: { a: [1, 'b'] } };
    expect(decodeCBOR(encodeCBOR(v, Sample), Sample, true)).toEqual({ value: v });
  });

  it('decodes apply configurations as free-form maps', () => {
    expect(decodeCBORMap(hex('d9d9f7 a1 4161 01'))).toEqual({ value: { a: 1 } });
    expect(decodeCBORMap(hex('80')).error).toBe('cbor: cannot unmarshal array into Go value of type map[string]interface {}');
    expect(decodeCBORMap(hex('a2 4161 01 6161 02')).error).toBe('cbor: found duplicate map key "a" at map element index 1');
  });

  it('splits a CBOR sequence into items, keeping an incomplete tail', () => {
    const { items, rest } = splitCBORSequence(hex('d9d9f7a0 01 a1'));
    expect(items.map((i) => Buffer.from(i).toString('hex'))).toEqual(['d9d9f7a0', '01']);
    expect(Buffer.from(rest).toString('hex')).toBe('a1');
  });
});

describe('CBOR request bodies through decode()', () => {
  const csr = (): Buffer =>
    hex(
      `d9d9f7 a4 446b696e64 58 19 ${Buffer.from('CertificateSigningRequest').toString('hex')}` +
        ` 4a61706956657273696f6e 56 ${Buffer.from('certificates.svc.io/v1').toString('hex')}` +
        ` 486d65746164617461 a1 446e616d65 4161` +
        ` 4473706563 a2 47 72657175657374 d6 43 0102034a7369676e65724e616d65 41 78`,
    );
  const opts = (o: Partial<DecodeOptions> = {}): DecodeOptions => ({
    contentType: 'application/cbor',
    schema: CertificateSigningRequestSchema,
    gvk: { group: certificatesigningrequests.group, version: certificatesigningrequests.version, kind: certificatesigningrequests.kind },
    cbor: true,
    ...o,
  });
  const fail = (body: Buffer, o: Partial<DecodeOptions> = {}): { code: number; message: string } => {
    try {
      decode(body, opts(o));
    } catch (e) {
      if (isApiError(e)) return { code: e.code, message: e.status.message ?? '' };
      throw e;
    }
    throw new Error('decoded');
  };

  it('decodes a CSR with apiVersion, kind and tag-22 bytes', () => {
    const r = decode(csr(), opts());
    expect(r.warnings).toEqual([]);
    expect(r.object).toMatchObject({ apiVersion: 'certificates.svc.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'a' }, spec: { request: 'AQID', signerName: 'x' } });
  });

  it('is a 415 listing the three types while the gate is off, four when on', () => {
    expect(fail(csr(), { cbor: false })).toEqual({ code: 415, message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.svc.protobuf' });
    expect(bodyMediaTypesFor(true)).toEqual(['application/json', 'application/yaml', 'application/vnd.svc.protobuf', 'application/cbor']);
  });

  it('reports malformed CBOR as unrecognized, with a hex summary', () => {
    expect(fail(hex('d9d9f7a1'))).toEqual({
      code: 400,
      message: 'the object provided is unrecognized (must be of type CertificateSigningRequest): unable to determine group/version/kind: unexpected EOF (d9d9f7a1)',
    });
  });

  it('reports a duplicate top-level key while reading the kind', () => {
    expect(fail(hex('a2 446b696e64 4161 646b696e64 4161')).message).toBe(
      'the object provided is unrecognized (must be of type CertificateSigningRequest): unable to determine group/version/kind: cbor: found duplicate map key "kind" at map element index 1 (a2446b696e644161646b696e644161)',
    );
  });

  it('turns an unknown field into a warning (Warn) or a 400 (Strict)', () => {
    const body = hex(`a2 486d65746164617461 a1 446e616d65 4161 43 78797a 01`);
    expect(decode(body, opts()).warnings).toEqual(['cbor: found unknown field at map element index 1']);
    expect(decode(body, opts({ fieldValidation: 'Ignore' })).warnings).toEqual([]);
    expect(fail(body, { fieldValidation: 'Strict' }).message).toBe(
      'CertificateSigningRequest in version "v1" cannot be handled as a CertificateSigningRequest: strict decoding error: cbor: found unknown field at map element index 1',
    );
  });

  it('rejects a nested duplicate key under every fieldValidation', () => {
    const body = hex(`a1 486d65746164617461 a2 446e616d65 4161 446e616d65 4162`);
    for (const fieldValidation of ['Ignore', 'Warn', 'Strict'] as const) {
      expect(fail(body, { fieldValidation }).message).toBe(
        'CertificateSigningRequest in version "v1" cannot be handled as a CertificateSigningRequest: cbor: found duplicate map key "name" at map element index 1',
      );
    }
  });
});
