import { certificatesigningrequests, CertificateSigningRequestSchema } from '../api/certificates/certificateSigningRequest';
import { namespaces, NamespaceSchema } from '../api/core/namespace';
import { serviceaccounts, ServiceAccountSchema } from '../api/core/serviceaccount';
import type { ResourceInfo } from '../api/resource';
import { isApiError } from '../machinery/errors';
import { decode, DecodeOptions, FieldValidation } from './decode';

const pem = Buffer.from('-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----\n').toString('base64');
const gvkOf = (r: ResourceInfo): DecodeOptions['gvk'] => ({ group: r.group, version: r.version, kind: r.kind });
const csr = { schema: CertificateSigningRequestSchema, gvk: gvkOf(certificatesigningrequests) };
const sa = { schema: ServiceAccountSchema, gvk: gvkOf(serviceaccounts) };
const ns = { schema: NamespaceSchema, gvk: gvkOf(namespaces) };

function run(body: string, opts: Omit<DecodeOptions, 'fieldValidation'>, fv?: FieldValidation): { ok: true; object: unknown; warnings: string[] } | { ok: false; code: number; message: string } {
  try {
    const r = decode(Buffer.from(body), { ...opts, fieldValidation: fv });
    return { ok: true, object: r.object, warnings: r.warnings };
  } catch (e) {
    if (!isApiError(e)) throw e;
    return { ok: false, code: e.code, message: e.status.message ?? '' };
  }
}

const csrBody = (extra = ''): string =>
  `{"apiVersion":"certificates.svc.io/v1","kind":"CertificateSigningRequest","metadata":{"name":"a"},"spec":{"request":"${pem}","signerName":"svc.io/x"${extra}}}`;
const cannot = (why: string): string => `CertificateSigningRequest in version "v1" cannot be handled as a CertificateSigningRequest: ${why}`;

describe('decode: success', () => {
  it('decodes a JSON body', () => {
    const r = run(csrBody(',"usages":["client auth"],"expirationSeconds":600'), csr);
    expect(r).toEqual({
      ok: true,
      warnings: [],
      object: {
        apiVersion: 'certificates.svc.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name: 'a' },
        spec: { request: pem, signerName: 'svc.io/x', usages: ['client auth'], expirationSeconds: 600 },
      },
    });
  });

  it('defaults a missing apiVersion and kind from the endpoint', () => {
    const r = run('{"metadata":{"name":"x"}}', ns);
    expect(r).toMatchObject({ ok: true, object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } } });
  });

  it('decodes YAML with core-schema scalars', () => {
    const yaml = 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa\n  labels:\n    on: yes\n    n: "1"\nautomountServiceAccountToken: false\n';
    const r = run(yaml, { ...sa, contentType: 'application/yaml; charset=utf-8' });
    expect(r).toMatchObject({ ok: true, object: { metadata: { name: 'sa', labels: { on: 'yes', n: '1' } }, automountServiceAccountToken: false } });
  });

  it('accepts an integral YAML float for an integer, as Go re-encodes it', () => {
    const r = run(`apiVersion: certificates.svc.io/v1\nkind: CertificateSigningRequest\nspec:\n  request: ${pem}\n  signerName: a/b\n  expirationSeconds: 600.0\n`, {
      ...csr,
      contentType: 'application/yaml',
    });
    expect(r).toMatchObject({ ok: true, object: { spec: { expirationSeconds: 600 } } });
  });

  it('treats an empty YAML document as an empty object and null JSON fields as absent', () => {
    expect(run('', { ...ns, contentType: 'application/yaml' })).toMatchObject({ ok: true, object: { apiVersion: 'v1', kind: 'Namespace' } });
    expect(run('{"metadata":{"labels":null,"name":"a"},"spec":null}', ns)).toEqual({
      ok: true,
      warnings: [],
      object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } },
    });
  });

  it('normalizes timestamps and base64 like Go does on the way through', () => {
    const r = run('{"metadata":{"name":"a","creationTimestamp":"2024-01-01T01:00:00.5+01:00"}}', ns);
    expect(r).toMatchObject({ ok: true, object: { metadata: { creationTimestamp: '2024-01-01T00:00:00Z' } } });
    const wrapped = pem.slice(0, 8) + '\r\n' + pem.slice(8);
    expect(run(csrBody().replace(pem, wrapped.replace(/\r\n/, '\\r\\n')), csr)).toMatchObject({ ok: true, object: { spec: { request: pem } } });
  });

  it('merges a repeated object field, as Go decodes into the existing struct', () => {
    const r = run('{"metadata":{"name":"a"},"metadata":{"labels":{"x":"y"}}}', ns, 'Ignore');
    expect(r).toMatchObject({ ok: true, object: { metadata: { name: 'a', labels: { x: 'y' } } } });
  });
});

describe('decode: unknown and duplicate fields', () => {
  const body = '{"metadata":{"name":"a","name":"b","foo":1},"spec":{"bar":{"x":1}},"secrets":[{"name":"s","zz":1}],"secrets":[]}';
  const cases: Array<[FieldValidation, string[] | string]> = [
    ['Ignore', []],
    ['Warn', ['duplicate field "metadata.name"', 'unknown field "metadata.foo"', 'unknown field "spec"', 'unknown field "secrets[0].zz"', 'duplicate field "secrets"']],
    [
      'Strict',
      'ServiceAccount in version "v1" cannot be handled as a ServiceAccount: strict decoding error: duplicate field "metadata.name", unknown field "metadata.foo", unknown field "spec", unknown field "secrets[0].zz", duplicate field "secrets"',
    ],
  ];
  it.each(cases)('%s', (fv, expected) => {
    const r = run(body, sa, fv);
    if (typeof expected === 'string') expect(r).toEqual({ ok: false, code: 400, message: expected });
    else expect(r).toMatchObject({ ok: true, warnings: expected, object: { metadata: { name: 'b' }, secrets: [] } });
  });

  // Up to 16 members a struct finds repeats by scanning, past that with a set: both report alike.
  it.each([3, 16, 17, 40])('reports a repeated field among %i members once', (n) => {
    const unknown = Array.from({ length: n - 3 }, (_, i) => `"u${i}":1`);
    const members = ['"name":"a"', ...unknown, '"name":"b"', '"name":"c"'].join(',');
    const r = run(`{"metadata":{${members}}}`, ns, 'Warn');
    const warnings = ['duplicate field "metadata.name"', ...unknown.map((_, i) => `unknown field "metadata.u${i}"`)];
    expect(r).toMatchObject({ ok: true, object: { metadata: { name: 'c' } } });
    expect(r.ok && [...r.warnings].sort()).toEqual(warnings.sort());
  });

  it('defaults to Warn', () => {
    expect(run('{"spec":{"foo":1}}', ns)).toMatchObject({ ok: true, warnings: ['unknown field "spec.foo"'] });
  });

  it('reports duplicate map keys with the key in the path', () => {
    expect(run('{"metadata":{"labels":{"a":"1","a":"2"}}}', ns)).toMatchObject({ ok: true, warnings: ['duplicate field "metadata.labels.a"'], object: { metadata: { labels: { a: '2' } } } });
  });

  it('reports YAML duplicate keys by line, one warning per line', () => {
    const yaml = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n  name: b\nspec:\n  foo: 1\nkind: Namespace\n';
    expect(run(yaml, { ...ns, contentType: 'application/yaml' })).toMatchObject({
      ok: true,
      warnings: ['line 5: key "name" already set in map', 'line 8: key "kind" already set in map', 'unknown field "spec.foo"'],
      object: { metadata: { name: 'b' } },
    });
    expect(run(yaml, { ...ns, contentType: 'application/yaml' }, 'Strict')).toEqual({
      ok: false,
      code: 400,
      message:
        'Namespace in version "v1" cannot be handled as a Namespace: strict decoding error: yaml: unmarshal errors:\n  line 5: key "name" already set in map\n  line 8: key "kind" already set in map, unknown field "spec.foo"',
    });
  });
});

describe('decode: type errors', () => {
  const cases: Array<[string, string, string]> = [
    ['string for a map', '{"metadata":{"labels":"x"}}', 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string'],
    ['number in a map', '{"metadata":{"labels":{"a":1}}}', 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string'],
    ['string for a struct', '{"metadata":"x"}', 'json: cannot unmarshal string into Go struct field CertificateSigningRequest.metadata of type v1.ObjectMeta'],
    ['fraction for int32', csrBody(',"expirationSeconds":1.5'), 'json: cannot unmarshal number 1.5 into Go struct field CertificateSigningRequestSpec.spec.expirationSeconds of type int32'],
    ['int32 overflow', csrBody(',"expirationSeconds":2147483648'), 'json: cannot unmarshal number 2147483648 into Go struct field CertificateSigningRequestSpec.spec.expirationSeconds of type int32'],
    ['exponent for int32', csrBody(',"expirationSeconds":6e2'), 'json: cannot unmarshal number 6e2 into Go struct field CertificateSigningRequestSpec.spec.expirationSeconds of type int32'],
    ['string for int32', csrBody(',"expirationSeconds":"600"'), 'json: cannot unmarshal string into Go struct field CertificateSigningRequestSpec.spec.expirationSeconds of type int32'],
    ['number in a list', csrBody(',"usages":[1]'), 'json: cannot unmarshal number into Go struct field CertificateSigningRequestSpec.spec.usages of type string'],
    ['object for a list', csrBody(',"usages":{}'), 'json: cannot unmarshal object into Go struct field CertificateSigningRequestSpec.spec.usages of type []string'],
    ['number for bytes', csrBody().replace(`"${pem}"`, '5'), 'json: cannot unmarshal number into Go struct field CertificateSigningRequestSpec.spec.request of type []uint8'],
    ['bad base64', csrBody().replace(pem, 'abc'), 'illegal base64 data at input byte 0'],
    ['bad base64 char', csrBody().replace(pem, 'ab!d'), 'illegal base64 data at input byte 2'],
    ['bad time', '{"metadata":{"creationTimestamp":"yesterday"}}', 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'],
    ['number for time', '{"metadata":{"creationTimestamp":5}}', 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string'],
    ['first error wins', '{"metadata":{"labels":"x","annotations":"y"}}', 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string'],
    ['time error wins', '{"metadata":{"labels":"x","creationTimestamp":"2024-13-01T00:00:00Z"}}', 'parsing time "2024-13-01T00:00:00Z": month out of range'],
    ['bool in owner refs', '{"metadata":{"ownerReferences":[{"controller":"yes"}]}}', 'json: cannot unmarshal string into Go struct field OwnerReference.metadata.ownerReferences.controller of type bool'],
  ];
  it.each(cases)('%s', (_n, body, why) => {
    expect(run(body, csr, 'Strict')).toEqual({ ok: false, code: 400, message: cannot(why) });
  });

  it('hides unknown fields behind a type error, even in Strict', () => {
    expect(run('{"foo":1,"metadata":{"labels":"x"}}', csr, 'Strict')).toEqual({
      ok: false,
      code: 400,
      message: cannot('json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string'),
    });
  });
});

describe('decode: free-form values', () => {
  const withFields = (depth: number): string =>
    `{"metadata":{"name":"a","managedFields":[{"manager":"m","fieldsV1":${'{"f:a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}}]}}`;
  it('keeps a value 1000 levels deep', () => {
    const r = run(withFields(1000), sa);
    expect(r.ok).toBe(true);
  });
  it('refuses one nested deeper (the store could not copy it)', () => {
    expect(run(withFields(1001), sa)).toEqual({
      ok: false,
      code: 400,
      message: 'ServiceAccount in version "v1" cannot be handled as a ServiceAccount: metadata.managedFields[0].fieldsV1: nested more than 1000 levels deep',
    });
  });
});

describe('decode: unreadable bodies and kinds', () => {
  const cases: Array<[string, string, Partial<DecodeOptions>, string]> = [
    ['empty JSON', '', {}, "the object provided is unrecognized (must be of type CertificateSigningRequest): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)"],
    ['broken JSON', '{"metadata":{"name":"a",}}', {}, `the object provided is unrecognized (must be of type CertificateSigningRequest): couldn't get version/kind; json parse error: invalid character '}' looking for beginning of object key string ({"metadata":{"name":"a",}})`],
    ['long broken JSON', '{"apiVersion":"certificates.svc.io/v1" x', {}, `the object provided is unrecognized (must be of type CertificateSigningRequest): couldn't get version/kind; json parse error: invalid character 'x' after object key:value pair ({"apiVersion":"certificates.sv ...)`],
    ['top-level array', '[]', {}, 'the object provided is unrecognized (must be of type CertificateSigningRequest): couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (5b5d)'],
    ['kind not a string', '{"kind":1}', {}, `the object provided is unrecognized (must be of type CertificateSigningRequest): couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string ({"kind":1})`],
    ['bad group version', '{"apiVersion":"a/b/c"}', {}, 'the object provided is unrecognized (must be of type CertificateSigningRequest): unexpected GroupVersion string: a/b/c ({"apiVersion":"a/b/c"})'],
    ['broken YAML', 'a: b: c\n', { contentType: 'application/yaml' }, 'the object provided is unrecognized (must be of type CertificateSigningRequest): yaml: line 1: bad indentation of a mapping entry (613a20623a20630a)'],
    ['wrong apiVersion', '{"apiVersion":"v1","kind":"CertificateSigningRequest"}', {}, 'the API version in the data (v1) does not match the expected API version (certificates.svc.io/v1)'],
    ['wrong kind', '{"apiVersion":"certificates.svc.io/v1","kind":"Pod"}', {}, 'Pod in version "v1" cannot be handled as a CertificateSigningRequest: no kind "Pod" is registered for version "certificates.svc.io/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"'],
    ['lower-case kind', '{"kind":"certificatesigningrequest"}', {}, 'certificatesigningrequest in version "v1" cannot be handled as a CertificateSigningRequest: no kind "certificatesigningrequest" is registered for version "certificates.svc.io/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"'],
  ];
  it.each(cases)('%s', (_n, body, extra, message) => {
    expect(run(body, { ...csr, ...extra })).toEqual({ ok: false, code: 400, message });
  });

  it.each(['text/plain', 'application/x-protobuf'])('refuses %s with 415', (ct) => {
    expect(run('{}', { ...csr, contentType: ct })).toEqual({
      ok: false,
      code: 415,
      message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.svc.protobuf',
    });
  });

  it('reads application/vnd.svc.protobuf as Protobuf (a JSON body lacks the magic)', () => {
    expect(run('{}', { ...csr, contentType: 'application/vnd.svc.protobuf' })).toEqual({
      ok: false,
      code: 400,
      message:
        'the object provided is unrecognized (must be of type CertificateSigningRequest): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({})',
    });
  });
});
