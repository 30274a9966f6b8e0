import { certificatesigningrequests, CertificateSigningRequestSchema } from '../api/certificates/certificateSigningRequest';
import { namespaces, NamespaceSchema } from '../api/core/namespace';
import { serviceaccounts, ServiceAccountSchema } from '../api/core/serviceaccount';
import { DeleteOptionsSchema, ManagedFieldsEntrySchema } from '../api/meta';
import type { ResourceInfo } from '../api/resource';
import { defineObject, s } from '../api/schema';
import { isApiError } from '../machinery/errors';
import { decode, DecodeOptions } from './decode';
import {
  decodeProtobufEnvelope,
  decodeProtobufObject,
  encodeProtobuf,
  encodeProtobufEnvelope,
  encodeProtobufObject,
  ProtobufError,
} from './protobuf';
import { ProtoReader } from '../protowire/reader';
import { ProtoWriter } from '../protowire/writer';

const hex = (h: string): Buffer => Buffer.from(h.replace(/[^0-9a-f]/gi, ''), 'hex');
const gvkOf = (r: ResourceInfo): DecodeOptions['gvk'] => ({ group: r.group, version: r.version, kind: r.kind });
const nsOpts = { schema: NamespaceSchema, gvk: gvkOf(namespaces) };
const saOpts = { schema: ServiceAccountSchema, gvk: gvkOf(serviceaccounts) };
const csrOpts = { schema: CertificateSigningRequestSchema, gvk: gvkOf(certificatesigningrequests) };

function run(body: Uint8Array, opts: DecodeOptions): { ok: true; object: unknown; warnings: string[] } | { ok: false; code: number; message: string } {
  try {
    const r = decode(body, opts);
    return { ok: true, object: r.object, warnings: r.warnings };
  } catch (e) {
    if (!isApiError(e)) throw e;
    return { ok: false, code: e.code, message: e.status.message ?? '' };
  }
}

// What client-go's protobuf serializer writes for `kubectl create ns demo`: the generated
// marshallers write every non-pointer field (empty strings, generation 0, the zero
// creationTimestamp as an empty message, an empty spec, status.phase ""), ascending.
const kubectlNamespaceRaw = hex(`
  0a 14  0a 04 64656d6f  12 00  1a 00  22 00  2a 00  32 00  38 00  42 00
  12 00
  1a 02  0a 00`);
const kubectlCreateNs = hex(`
  6b 38 73 00
  0a 0f  0a 02 7631  12 09 4e616d657370616365
  12 1c  ${kubectlNamespaceRaw.toString('hex')}
  1a 00
  22 00`);

// `kubectl create sa bot -n demo`: the namespace is set because -n enforces it.
const kubectlSaRaw = hex(`0a 17  0a 03 626f74  12 00  1a 04 64656d6f  22 00  2a 00  32 00  38 00  42 00`);
const kubectlCreateSa = hex(`
  6b 38 73 00
  0a 14  0a 02 7631  12 0e 53657276696365416363 6f756e74
  12 19  ${kubectlSaRaw.toString('hex')}
  1a 00  22 00`);

const goZeroMeta = { generateName: '', namespace: '', selfLink: '', uid: '', resourceVersion: '', generation: 0, creationTimestamp: null };

describe('protobuf: real-client vectors', () => {
  it('reads the envelope kubectl sends for `create ns demo`', () => {
    const env = decodeProtobufEnvelope(kubectlCreateNs);
    expect(env.apiVersion).toBe('v1');
    expect(env.kind).toBe('Namespace');
    expect(Buffer.from(env.raw)).toEqual(kubectlNamespaceRaw);
    expect(decodeProtobufObject(env.raw, NamespaceSchema)).toEqual({
      metadata: { name: 'demo', ...goZeroMeta },
      spec: {},
      status: { phase: '' },
    });
  });

  it('re-encodes the decoded Go-shaped object to the same bytes', () => {
    const obj = decodeProtobufObject(kubectlNamespaceRaw, NamespaceSchema);
    expect(Buffer.from(encodeProtobuf(obj, NamespaceSchema, 'v1', 'Namespace'))).toEqual(kubectlCreateNs);
    const sa = decodeProtobufObject(decodeProtobufEnvelope(kubectlCreateSa).raw, ServiceAccountSchema);
    expect(Buffer.from(encodeProtobuf(sa, ServiceAccountSchema, 'v1', 'ServiceAccount'))).toEqual(kubectlCreateSa);
  });

  it('decode() gives the same object as the equivalent JSON body', () => {
    const json = Buffer.from('{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"demo","creationTimestamp":null},"spec":{},"status":{}}');
    const fromJson = run(json, { ...nsOpts, contentType: 'application/json' });
    for (const contentType of ['application/vnd.kubernetes.protobuf', 'application/vnd.svc.protobuf', 'Application/Vnd.Kubernetes.Protobuf; charset=x']) {
      const r = run(kubectlCreateNs, { ...nsOpts, contentType, fieldValidation: 'Strict' });
      expect(r).toEqual({ ok: true, warnings: [], object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo' }, spec: {}, status: {} } });
      expect(r).toEqual(fromJson);
    }
  });

  it('decodes `create sa bot -n demo`', () => {
    const r = run(kubectlCreateSa, { ...saOpts, contentType: 'application/vnd.kubernetes.protobuf' });
    expect(r).toEqual({ ok: true, warnings: [], object: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'bot', namespace: 'demo' } } });
  });
});

const serviceAccount = {
  metadata: {
    name: 'bot',
    namespace: 'demo',
    uid: '0d6f7d7e-1111-2222-3333-444455556666',
    resourceVersion: '42',
    generation: 3,
    creationTimestamp: '2026-01-10T08:00:00Z',
    deletionTimestamp: '2026-01-10T09:00:00Z',
    deletionGracePeriodSeconds: 0,
    labels: { app: 'x', 'b.svc.io/y': '', __proto__: 'p' } as Record<string, string>,
    annotations: { z: 'last', a: 'first', 'ü': 'non-ascii ✓' },
    ownerReferences: [
      { apiVersion: 'v1', kind: 'Namespace', name: 'demo', uid: 'u1', controller: true, blockOwnerDeletion: false },
      { apiVersion: 'certificates.svc.io/v1', kind: 'CertificateSigningRequest', name: 'c', uid: 'u2' },
    ],
    finalizers: ['svc.io/a', 'svc.io/b'],
    managedFields: [
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-01-10T08:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:secrets': {} },
      },
      { manager: 'm', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {}, subresource: 'status' },
    ],
  },
  secrets: [{ name: 's1' }, { kind: 'Secret', namespace: 'demo', name: 's2', uid: 'u', apiVersion: 'v1', resourceVersion: '1', fieldPath: 'data' }],
  imagePullSecrets: [{ name: 'pull' }, {}],
  automountServiceAccountToken: false,
};

const pem = Buffer.from('-----BEGIN CERTIFICATE REQUEST-----\nMIIB\u0000\u00ff\n-----END CERTIFICATE REQUEST-----\n', 'latin1').toString('base64');
const csr = {
  metadata: { name: 'csr-1', labels: { a: 'b' } },
  spec: {
    request: pem,
    signerName: 'svc.io/svc-apiserver-client',
    expirationSeconds: 600,
    usages: ['digital signature', 'client auth'],
    username: 'alice',
    uid: 'uid-1',
    groups: ['system:authenticated', 'team'],
    extra: { 'scopes.svc.io': ['a', 'b'], empty: [], 'a-key': ['x'] },
  },
  status: {
    conditions: [
      { type: 'Approved', status: 'True', reason: 'AutoApproved', message: 'ok', lastUpdateTime: '2026-01-10T08:00:00Z', lastTransitionTime: '1969-12-31T23:59:59Z' },
      { type: 'Failed', status: 'False', lastUpdateTime: '1970-01-01T00:00:00Z' },
    ],
    certificate: Buffer.from('cert bytes').toString('base64'),
  },
};

describe('protobuf: round trips (JSON → protobuf → JSON)', () => {
  it.each([
    ['Namespace', NamespaceSchema, { metadata: { name: 'demo', labels: { a: '1' } }, spec: { finalizers: ['svc'] }, status: { phase: 'Active', conditions: [{ type: 'T', status: 'True', lastTransitionTime: '2026-01-10T08:00:00Z', reason: 'r', message: 'm' }] } }],
    ['ServiceAccount', ServiceAccountSchema, serviceAccount],
    ['CertificateSigningRequest', CertificateSigningRequestSchema, csr],
  ] as const)('%s', (kind, schema, obj) => {
    const bytes = encodeProtobuf(obj as Record<string, unknown>, schema, 'v1', kind);
    const env = decodeProtobufEnvelope(bytes);
    expect(env).toMatchObject({ apiVersion: 'v1', kind });
    expect(decodeProtobufObject(env.raw, schema)).toEqual(obj);
  });

  it('writes fields in field-number order and map entries sorted by key', () => {
    const bytes = encodeProtobufObject({ metadata: { annotations: { z: '1', a: '2' }, name: 'n' }, spec: {} }, NamespaceSchema);
    // metadata{ name(1), annotations(12){a}, annotations(12){z} }, spec
    expect(Buffer.from(bytes).toString('hex')).toBe(hex(`0a 13 0a 01 6e  62 06 0a 01 61 12 01 32  62 06 0a 01 7a 12 01 31  12 00`).toString('hex'));
  });

  it('encodes a CSR through decode() with the same result as its JSON form', () => {
    const body = encodeProtobuf(csr, CertificateSigningRequestSchema, 'certificates.svc.io/v1', 'CertificateSigningRequest');
    const viaProto = run(body, { ...csrOpts, contentType: 'application/vnd.svc.protobuf' });
    const viaJson = run(Buffer.from(JSON.stringify({ apiVersion: 'certificates.svc.io/v1', kind: 'CertificateSigningRequest', ...csr })), csrOpts);
    expect(viaProto).toEqual(viaJson);
    expect(viaProto).toMatchObject({ ok: true, object: { spec: { request: pem, extra: { empty: [] } } } });
  });

  it('writes a Time as {seconds, nanos: 0}, a null time as an empty message, sub-seconds dropped', () => {
    const bytes = encodeProtobufObject({ lastTransitionTime: '2026-01-10T08:00:00.987Z', type: 'T', status: 'S' }, defineObject({
      name: 'x.Cond',
      fields: { type: s.string({ protobuf: 1 }), status: s.string({ protobuf: 2 }), lastTransitionTime: s.time({ protobuf: 4 }) },
    }));
    const secs = Math.floor(Date.parse('2026-01-10T08:00:00Z') / 1000);
    const w = new ProtoWriter();
    w.varint(1, secs);
    w.varint(2, 0);
    expect(Buffer.from(bytes).toString('hex')).toBe(`0a0154120153${'22'}${w.length.toString(16).padStart(2, '0')}${Buffer.from(w.finish()).toString('hex')}`);
    const meta = encodeProtobufObject({ metadata: { name: 'a', creationTimestamp: null } }, NamespaceSchema);
    expect(Buffer.from(meta).toString('hex')).toBe('0a050a0161' + '4200');
  });
});

// A schema exercising what the API types do not use yet: numbers, packed lists, maps of messages.
const Inner = defineObject({ name: 'x.test.Inner', fields: { a: s.string({ protobuf: 1 }), b: s.int32({ protobuf: 2 }) } });
const Probe = defineObject({
  name: 'x.test.Probe',
  fields: {
    i32: s.int32({ protobuf: 1 }),
    i64: s.int64({ protobuf: 2 }),
    flag: s.boolean({ protobuf: 3 }),
    nums: s.array(s.int32(), { protobuf: 4 }),
    inner: s.object(() => Inner, { protobuf: 5 }),
    byName: s.map(s.object(() => Inner), { protobuf: 6 }),
    text: s.string({ protobuf: 7 }),
    flags: s.array(s.boolean(), { protobuf: 8 }),
  },
});

describe('protobuf: wire details', () => {
  it('round-trips negative and large integers', () => {
    const obj = { i32: -5, i64: -(2 ** 40), nums: [0, 1, -1, 2147483647, -2147483648], flag: true, text: '' };
    const bytes = encodeProtobufObject(obj, Probe);
    // int32 -5 is sign-extended to a 10-byte varint, as Go writes it.
    expect(Buffer.from(bytes.subarray(0, 11)).toString('hex')).toBe('08fbffffffffffffffff01');
    expect(decodeProtobufObject(bytes, Probe)).toEqual(obj);
    expect(decodeProtobufObject(encodeProtobufObject({ i64: 2 ** 53 + 2 }, Probe), Probe)).toEqual({ i64: 2 ** 53 + 2 });
  });

  it('truncates int32 like Go and reads int64 beyond 2^53 as the nearest number', () => {
    const w = new ProtoWriter();
    w.varint(1, 2n ** 32n + 7n);
    w.varint(2, 2n ** 62n + 1n);
    expect(decodeProtobufObject(w.finish(), Probe)).toEqual({ i32: 7, i64: 2 ** 62 });
  });

  it('reads packed and unpacked repeated varints, mixed', () => {
    const w = new ProtoWriter();
    w.varint(4, 1);
    w.bytes(4, Uint8Array.of(0x02, 0xac, 0x02)); // packed 2, 300
    w.varint(4, 3);
    w.bytes(8, Uint8Array.of(1, 0, 5));
    expect(decodeProtobufObject(w.finish(), Probe)).toEqual({ nums: [1, 2, 300, 3], flags: [true, false, true] });
  });

  it('skips unknown fields of every wire type, groups included', () => {
    const w = new ProtoWriter();
    w.varint(99, 12345);
    w.tag(98, 1);
    const fixed64 = [1, 2, 3, 4, 5, 6, 7, 8];
    const w2 = new ProtoWriter();
    w2.string(7, 'kept');
    const tail = w2.finish();
    const bytes = Uint8Array.from([
      ...w.finish(),
      ...fixed64,
      ...[(97 << 3) | 5].flatMap((t) => [(t & 0x7f) | 0x80, t >> 7]),
      1, 2, 3, 4,
      // group 96 containing a varint field, then end group 96
      ...[(96 << 3) | 3].flatMap((t) => [(t & 0x7f) | 0x80, t >> 7]),
      0x08, 0x01,
      ...[(96 << 3) | 4].flatMap((t) => [(t & 0x7f) | 0x80, t >> 7]),
      ...tail,
    ]);
    expect(decodeProtobufObject(bytes, Probe)).toEqual({ text: 'kept' });
  });

  it('merges a message field seen twice; the last scalar wins', () => {
    const w = new ProtoWriter();
    w.bytes(5, encodeProtobufObject({ a: 'x' }, Inner));
    w.bytes(5, encodeProtobufObject({ b: 2 }, Inner));
    w.string(7, 'one');
    w.string(7, 'two');
    expect(decodeProtobufObject(w.finish(), Probe)).toEqual({ inner: { a: 'x', b: 2 }, text: 'two' });
  });

  it('maps: message values, missing keys and values, duplicate keys', () => {
    const obj = { byName: { k: { a: 'v', b: 1 }, e: {} } };
    expect(decodeProtobufObject(encodeProtobufObject(obj, Probe), Probe)).toEqual(obj);
    const w = new ProtoWriter();
    w.bytes(6, Uint8Array.of()); // entry without key or value
    const e = new ProtoWriter();
    e.string(1, 'd');
    w.bytes(6, e.finish());
    w.bytes(6, e.finish());
    expect(decodeProtobufObject(w.finish(), Probe)).toEqual({ byName: { '': {}, d: {} } });
    // map<string, ExtraValue>: an entry without value is an empty list
    const spec = new ProtoWriter();
    spec.bytes(6, e.finish());
    expect(decodeProtobufObject(spec.finish(), CertificateSigningRequestSchema.fields.spec.ref())).toEqual({ extra: { d: [] } });
  });

  it('reads an empty bytes field as "" and FieldsV1 without Raw as null', () => {
    const w = new ProtoWriter();
    w.bytes(1, new Uint8Array(0));
    expect(decodeProtobufObject(w.finish(), CertificateSigningRequestSchema.fields.spec.ref())).toEqual({ request: '' });
    const mf = new ProtoWriter();
    mf.bytes(7, new Uint8Array(0));
    expect(decodeProtobufObject(mf.finish(), ManagedFieldsEntrySchema)).toEqual({ fieldsV1: null });
  });

  it('refuses FieldsV1 nested deeper than the store can copy', () => {
    const fieldsV1 = (depth: number): Uint8Array => {
      const raw = new ProtoWriter();
      raw.bytes(1, Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`));
      const mf = new ProtoWriter();
      mf.bytes(7, raw.finish());
      return mf.finish();
    };
    expect(decodeProtobufObject(fieldsV1(1000), ManagedFieldsEntrySchema)).toEqual({ fieldsV1: expect.any(Array) });
    expect(() => decodeProtobufObject(fieldsV1(1001), ManagedFieldsEntrySchema)).toThrow('FieldsV1 nested more than 1000 levels deep');
    expect(() => decodeProtobufObject(fieldsV1(20_000), ManagedFieldsEntrySchema)).toThrow('invalid JSON in FieldsV1');
  });

  it('ProtoReader reads what ProtoWriter writes', () => {
    const w = new ProtoWriter();
    w.varint(1, -1);
    w.string(2, 'hé');
    const r = new ProtoReader(w.finish());
    expect(r.key('M')).toEqual({ field: 1, wireType: 0 });
    expect(r.uvarint()).toBe(2n ** 64n - 1n);
    expect(r.key('M')).toEqual({ field: 2, wireType: 2 });
    expect(Buffer.from(r.bytes()).toString('utf8')).toBe('hé');
    expect(r.done).toBe(true);
  });
});


describe('protobuf: malformed input', () => {
  const err = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      if (e instanceof ProtobufError) return e.message;
      throw e;
    }
    return '<no error>';
  };

  it('reports gogo-generated error texts', () => {
    expect(err(() => decodeProtobufObject(hex('0a 05 0a 03 61'), NamespaceSchema))).toBe('unexpected EOF');
    expect(err(() => decodeProtobufObject(hex('08 01'), NamespaceSchema))).toBe('proto: wrong wireType = 0 for field Metadata');
    expect(err(() => decodeProtobufObject(hex('0a 02 08 01'), NamespaceSchema))).toBe('proto: wrong wireType = 0 for field Name');
    expect(err(() => decodeProtobufObject(hex('0a 02 2a 00 0a 02 28 01'), NamespaceSchema))).toBe('proto: wrong wireType = 0 for field UID');
    expect(err(() => decodeProtobufObject(hex('00'), NamespaceSchema))).toBe('proto: Namespace: illegal tag 0 (wire type 0)');
    expect(err(() => decodeProtobufObject(hex('0c'), NamespaceSchema))).toBe('proto: Namespace: wiretype end group for non-group');
    expect(err(() => decodeProtobufObject(hex('0a 02 07 00'), NamespaceSchema))).toBe('proto: ObjectMeta: illegal tag 0 (wire type 7)');
    expect(err(() => decodeProtobufObject(hex('fe 07 00'), NamespaceSchema))).toBe('proto: illegal wireType 6');
    expect(err(() => decodeProtobufObject(hex('0a ff ff ff ff ff ff ff ff ff 01'), NamespaceSchema))).toBe('proto: negative length found during unmarshaling');
    expect(err(() => decodeProtobufObject(hex('0a ff ff ff ff ff ff ff ff ff ff 01'), NamespaceSchema))).toBe('proto: integer overflow');
    expect(err(() => decodeProtobufObject(hex('f8 07 80'), NamespaceSchema))).toBe('unexpected EOF');
    expect(err(() => decodeProtobufObject(hex('0a 04 42 02 08 01 ff'), NamespaceSchema))).toBe('unexpected EOF');
  });

  it('rejects bad envelopes', () => {
    expect(err(() => decodeProtobufEnvelope(new Uint8Array(0)))).toBe('empty data');
    expect(err(() => decodeProtobufEnvelope(Buffer.from('{"kind":"Namespace"}')))).toBe('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
    expect(err(() => decodeProtobufEnvelope(hex('6b 38 73')))).toBe('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
    expect(err(() => decodeProtobufEnvelope(hex('6b 38 73 00')))).toBe('empty body');
    expect(err(() => decodeProtobufEnvelope(hex('6b 38 73 00 12 05 00')))).toBe('unexpected EOF');
    expect(err(() => decodeProtobufEnvelope(hex('6b 38 73 00 10 01')))).toBe('proto: wrong wireType = 0 for field Raw');
    expect(err(() => decodeProtobufEnvelope(hex('6b 38 73 00 1a 04 677a6970')))).toBe('unsupported content encoding "gzip"');
  });

  it('encodeProtobufEnvelope writes all four fields', () => {
    expect(Buffer.from(encodeProtobufEnvelope('v1', 'X', Uint8Array.of(1))).toString('hex')).toBe('6b387300' + '0a07' + '0a027631' + '120158' + '120101' + '1a00' + '2200');
  });
});

describe('decode(): protobuf bodies', () => {
  const proto = (contentType = 'application/vnd.kubernetes.protobuf'): DecodeOptions => ({ ...nsOpts, contentType });

  it('wraps envelope errors as "the object provided is unrecognized"', () => {
    expect(run(Buffer.from('{"kind":"Namespace"}'), proto())).toEqual({
      ok: false,
      code: 400,
      message:
        'the object provided is unrecognized (must be of type Namespace): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"kind":"Namespace"})',
    });
    expect(run(new Uint8Array(0), proto())).toMatchObject({ code: 400, message: 'the object provided is unrecognized (must be of type Namespace): empty data (<empty>)' });
    expect(run(hex('6b 38 73 00'), proto())).toMatchObject({ code: 400, message: 'the object provided is unrecognized (must be of type Namespace): empty body (6b387300)' });
  });

  it('wraps errors in raw as "cannot be handled as"', () => {
    const body = encodeProtobufEnvelope('v1', 'Namespace', hex('0a 05 0a 03 61'));
    expect(run(body, proto())).toEqual({ ok: false, code: 400, message: 'Namespace in version "v1" cannot be handled as a Namespace: unexpected EOF' });
  });

  it('checks apiVersion and kind like JSON bodies', () => {
    const raw = encodeProtobufObject({ metadata: { name: 'a' } }, NamespaceSchema);
    expect(run(encodeProtobufEnvelope('v2', 'Namespace', raw), proto())).toEqual({
      ok: false,
      code: 400,
      message: 'the API version in the data (v2) does not match the expected API version (v1)',
    });
    expect(run(encodeProtobufEnvelope('v1', 'ServiceAccount', raw), proto())).toEqual({
      ok: false,
      code: 400,
      message: 'ServiceAccount in version "v1" cannot be handled as a Namespace: no kind "ServiceAccount" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    });
    // empty apiVersion and kind take the endpoint's (copyKindDefaults); Go's non-pointer
    // spec and status exist even when the message left them out
    expect(run(encodeProtobufEnvelope('', '', raw), proto('application/vnd.svc.protobuf'))).toEqual({
      ok: true,
      warnings: [],
      object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' }, spec: {}, status: {} },
    });
    const csrRaw = encodeProtobufObject({ spec: { signerName: 'a/b' } }, CertificateSigningRequestSchema);
    expect(run(encodeProtobufEnvelope('certificates.svc.io/', '', csrRaw), { ...csrOpts, contentType: 'application/vnd.svc.protobuf' })).toMatchObject({
      ok: true,
      object: { apiVersion: 'certificates.svc.io/v1', kind: 'CertificateSigningRequest', spec: { signerName: 'a/b' } },
    });
  });

  it('decodes DeleteOptions from any group version', () => {
    const raw = encodeProtobufObject({ gracePeriodSeconds: 0, propagationPolicy: 'Foreground', dryRun: ['All'] }, DeleteOptionsSchema);
    const r = run(encodeProtobufEnvelope('v1', 'DeleteOptions', raw), {
      schema: DeleteOptionsSchema,
      gvk: { group: 'meta.svc.io', version: 'v1', kind: 'DeleteOptions' },
      contentType: 'application/vnd.kubernetes.protobuf',
      acceptsGroupVersion: () => true,
    });
    expect(r).toEqual({ ok: true, warnings: [], object: { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, propagationPolicy: 'Foreground', dryRun: ['All'] } });
  });

  it('other content types are still 415', () => {
    expect(run(kubectlCreateNs, { ...nsOpts, contentType: 'application/x-protobuf' })).toEqual({
      ok: false,
      code: 415,
      message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.svc.protobuf',
    });
  });
});
