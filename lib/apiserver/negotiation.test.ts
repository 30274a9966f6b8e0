import { isApiError } from '../machinery/errors';
import { chooseOutput } from './negotiation';

describe('chooseOutput', () => {
  test.each([
    [undefined, 'application/json'],
    ['', 'application/json'],
    ['application/json', 'application/json'],
    ['application/yaml', 'application/yaml'],
    ['*/*', 'application/json'],
    ['application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json', 'application/json'],
    ['application/yaml;q=0.5, application/json;q=0.9', 'application/json'],
    ['text/html, application/yaml', 'application/yaml'],
    ['application/vnd.svc.protobuf', 'application/vnd.svc.protobuf'],
    // Stock clients' spelling is answered under that spelling (client-go decodes by Content-Type).
    ['application/vnd.kubernetes.protobuf, */*', 'application/vnd.kubernetes.protobuf'],
    ['application/vnd.svc.protobuf;q=0.5, application/json', 'application/json'],
    ['application/*', 'application/json'],
    ['text/html;q=0, application/yaml;q=0', 'application/yaml'], // q=0 only sorts last upstream
  ])('Accept %p → %s', (accept, want) => {
    expect(chooseOutput(accept, false).mediaType).toBe(want);
  });

  const kubectlGet = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
  test.each<[string, boolean, unknown]>([
    [kubectlGet, true, { group: 'meta.k8s.io', version: 'v1' }],
    [kubectlGet, false, undefined],
    ['application/json;as=Table;v=v1beta1;g=meta.svc.io', true, { group: 'meta.svc.io', version: 'v1beta1' }],
    ['application/yaml;as=Table;v=v1;g=meta.svc.io', true, { group: 'meta.svc.io', version: 'v1' }],
    ['application/json;as=Table;v=v2;g=meta.svc.io, application/json', true, undefined],
    ['application/json;as=Table;v=v1;g=meta.example.io, application/yaml', true, undefined],
    ['application/json;as=PartialObjectMetadata;v=v1;g=meta.svc.io, application/json', true, undefined], // not a Table
    ['application/json;q=0.5, application/json;as=Table;v=v1;g=meta.svc.io', true, { group: 'meta.svc.io', version: 'v1' }],
  ])('Accept %p (tables %p) → table %p', (accept, tables, want) => {
    expect(chooseOutput(accept, false, { tables }).table).toEqual(want);
  });

  test.each<[string, boolean, unknown]>([
    ['application/json;as=PartialObjectMetadata;v=v1;g=meta.svc.io, application/json', true, { kind: 'PartialObjectMetadata', group: 'meta.svc.io', version: 'v1' }],
    // client-go's metadata client: Protobuf first, under the upstream group.
    [
      'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json',
      true,
      { kind: 'PartialObjectMetadataList', group: 'meta.k8s.io', version: 'v1' },
    ],
    ['application/yaml;as=PartialObjectMetadata;v=v1beta1;g=meta.k8s.io', true, { kind: 'PartialObjectMetadata', group: 'meta.k8s.io', version: 'v1beta1' }],
    ['application/json;as=PartialObjectMetadata;v=v2;g=meta.svc.io, application/json', true, undefined],
    ['application/json;as=PartialObjectMetadata;v=v1;g=meta.svc.io, application/json', false, undefined],
  ])('Accept %p (conversions %p) → partial %p', (accept, tables, want) => {
    expect(chooseOutput(accept, false, { tables }).partial).toEqual(want);
  });

  test('PartialObjectMetadata in CBOR and Protobuf keeps the binary media type', () => {
    expect(chooseOutput('application/cbor;as=PartialObjectMetadata;v=v1;g=meta.k8s.io', false, { tables: true, cbor: true })).toMatchObject({ format: 'cbor', partial: { kind: 'PartialObjectMetadata' } });
    expect(chooseOutput('application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;v=v1;g=meta.k8s.io', false, { tables: true })).toMatchObject({
      format: 'protobuf',
      mediaType: 'application/vnd.kubernetes.protobuf',
      partial: { kind: 'PartialObjectMetadata' },
    });
  });

  // Custom resources (upstream's unstructured serializer): a plain Protobuf clause is skipped,
  // PartialObjectMetadata may still be Protobuf, and Protobuf alone is a 406 that lists it.
  test.each<[string, Parameters<typeof chooseOutput>[2], string]>([
    ['application/vnd.svc.protobuf, application/json', { tables: true, protobufObjects: false }, 'application/json'],
    ['application/vnd.svc.protobuf;as=PartialObjectMetadata;v=v1;g=meta.svc.io', { tables: true, protobufObjects: false }, 'application/vnd.svc.protobuf'],
    ['application/vnd.svc.protobuf;stream=watch, application/json;stream=watch', { watch: true, protobufObjects: false }, 'application/json'],
    ['application/vnd.svc.protobuf, application/json', { tables: true }, 'application/vnd.svc.protobuf'],
  ])('objects without a Protobuf form: Accept %p (%p) → %s', (accept, opts, want) => {
    expect(chooseOutput(accept, false, opts)).toMatchObject({ mediaType: want });
  });

  test('objects without a Protobuf form: a Protobuf-only Accept → 406 listing Protobuf', () => {
    expect(() => chooseOutput('application/vnd.svc.protobuf', false, { tables: true, protobufObjects: false })).toThrow(
      'only the following media types are accepted: application/json, application/yaml, application/vnd.svc.protobuf',
    );
  });

  test('a Table-only Accept on an endpoint without tables → 406', () => {
    expect(() => chooseOutput('application/json;as=Table;v=v1;g=meta.k8s.io', false, { tables: false })).toThrow(/only the following media types/);
  });

  test.each<[string, string]>([
    ['application/vnd.svc.protobuf;stream=watch', 'application/vnd.svc.protobuf'],
    ['application/vnd.kubernetes.protobuf;stream=watch', 'application/vnd.kubernetes.protobuf'],
    ['application/vnd.svc.protobuf', 'application/vnd.svc.protobuf'],
    ['application/yaml, application/json', 'application/json'],
  ])('watch: Accept %p → %s', (accept, want) => {
    expect(chooseOutput(accept, false, { watch: true })).toMatchObject({ mediaType: want });
  });

  test.each<[string, boolean, string]>([
    ['application/cbor', false, 'application/cbor'],
    ['application/cbor', true, 'application/cbor'],
    ['application/*;q=0.5, application/cbor', false, 'application/cbor'],
    ['*/*', false, 'application/json'],
  ])('CBOR on: Accept %p (watch %p) → %s', (accept, watch, want) => {
    expect(chooseOutput(accept, false, { cbor: true, watch })).toMatchObject({ format: want === 'application/cbor' ? 'cbor' : 'json', mediaType: want });
  });

  test.each<[string, Parameters<typeof chooseOutput>[2], string]>([
    ['text/html', {}, 'application/json, application/yaml, application/vnd.svc.protobuf'],
    ['application/yaml', { watch: true }, 'application/json;stream=watch, application/vnd.svc.protobuf;stream=watch'],
    ['application/vnd.svc.protobuf', { protobuf: false }, 'application/json, application/yaml'],
    // A Table is never encoded as Protobuf (AllowsMediaTypeTransform: JSON or YAML only).
    ['application/vnd.svc.protobuf;as=Table;v=v1;g=meta.svc.io', { tables: true }, 'application/json, application/yaml, application/vnd.svc.protobuf'],
    // CBORServingAndStorage off: CBOR is not offered at all.
    ['application/cbor', {}, 'application/json, application/yaml, application/vnd.svc.protobuf'],
    // On: listed last; its stream form is its own type; cbor-seq is not an Accept value upstream.
    ['text/html', { cbor: true }, 'application/json, application/yaml, application/vnd.svc.protobuf, application/cbor'],
    ['application/cbor-seq', { cbor: true, watch: true }, 'application/json;stream=watch, application/vnd.svc.protobuf;stream=watch, application/cbor-seq'],
    ['application/cbor;as=Table;v=v1;g=meta.svc.io', { cbor: true, tables: true }, 'application/json, application/yaml, application/vnd.svc.protobuf, application/cbor'],
  ])('406 for %p (%p) lists %s', (accept, opts, list) => {
    expect(() => chooseOutput(accept, false, opts)).toThrow(`only the following media types are accepted: ${list}`);
  });

  test('unsupported types → 406 NotAcceptable', () => {
    try {
      chooseOutput('text/html', false);
      throw new Error('expected 406');
    } catch (e) {
      expect(isApiError(e) && e.code).toBe(406);
      expect(isApiError(e) && e.status.reason).toBe('NotAcceptable');
    }
  });
});

// Each (Accept, options) pair is negotiated once and remembered: the answers stay the same, each
// caller gets its own copy, options are part of the key, and a 406 is never remembered as a type.
describe('chooseOutput: remembered per header', () => {
  it('repeats the same answer as a fresh copy', () => {
    const a = chooseOutput('application/json;as=Table;v=v1;g=meta.svc.io', false, { tables: true });
    const b = chooseOutput('application/json;as=Table;v=v1;g=meta.svc.io', false, { tables: true });
    expect(b).toEqual(a);
    expect(b).not.toBe(a);
    (a as { schemas?: unknown }).schemas = () => undefined;
    expect(chooseOutput('application/json;as=Table;v=v1;g=meta.svc.io', false, { tables: true })).not.toHaveProperty('schemas');
  });
  it('keys on the options and pretty too', () => {
    const accept = 'application/json;as=Table;v=v1;g=meta.svc.io, application/json';
    expect(chooseOutput(accept, false, { tables: true }).table).toBeDefined();
    expect(chooseOutput(accept, false, { tables: false }).table).toBeUndefined();
    expect(chooseOutput('application/json', true).pretty).toBe(true);
    expect(chooseOutput('application/json', false).pretty).toBe(false);
    expect(chooseOutput('application/cbor', false, { cbor: true }).format).toBe('cbor');
    expect(() => chooseOutput('application/cbor', false)).toThrow();
  });
  it('an unacceptable header is refused every time', () => {
    for (let i = 0; i < 3; i++) {
      let caught: unknown;
      try {
        chooseOutput('text/html', false);
      } catch (e) {
        caught = e;
      }
      expect(isApiError(caught) && caught.code).toBe(406);
    }
  });
  it('stays bounded under many distinct headers', () => {
    for (let i = 0; i < 1000; i++) expect(chooseOutput(`application/json;q=0.${i % 10}, text/x-${i}`, false).format).toBe('json');
  });
});
