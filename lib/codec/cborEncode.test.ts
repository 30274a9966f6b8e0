import { ManagedFieldsEntrySchema } from '../api/meta';
import { defineObject, s } from '../api/schema';
import { CborEncodeError, encodeCBOR, encodeCBORItem, encodeCBORList } from './cborEncode';
import { cborWatchEvent } from './cborWatch';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

const Sample = defineObject({
  name: 'io.svc.test.v1.Sample',
  fields: {
    name: s.string(),
    count: s.int64(),
    data: s.bytes(),
    blobs: s.map(s.bytes()),
    free: s.any(),
  },
});

describe('CBOR encoder: byte-exact items (upstream modes.Encode choices)', () => {
  const cases: Array<[string, unknown, string]> = [
    ['null', null, 'f6'],
    ['true', true, 'f5'],
    ['false', false, 'f4'],
    ['0', 0, '00'],
    ['23 fits the initial byte', 23, '17'],
    ['24 takes one byte', 24, '1818'],
    ['255', 255, '18ff'],
    ['256 takes two', 256, '190100'],
    ['65536 takes four', 65536, '1a00010000'],
    ['2^32 takes eight', 2 ** 32, '1b0000000100000000'],
    ['-1', -1, '20'],
    ['-25', -25, '3818'],
    ['-2^53+1', -(2 ** 53) + 1, '3b001ffffffffffffe'],
    ['1.5 as float16', 1.5, 'f93e00'],
    ['-0.5 as float16', -0.5, 'f9b800'],
    ['smallest float16 subnormal', 2 ** -24, 'f90001'],
    ['65504.5 needs float32', 65504.5, 'fa477fe080'],
    ['100000.5 as float32', 100000.5, 'fa47c35040'],
    ['0.1 needs float64', 0.1, 'fb3fb999999999999a'],
    ['strings are byte strings', 'a', '4161'],
    ['empty string', '', '40'],
    ['UTF-8 bytes', 'é', '42c3a9'],
    ['24-byte string gets a length byte', 'x'.repeat(24), `5818${'78'.repeat(24)}`],
    ['empty array', [], '80'],
    ['empty map', {}, 'a0'],
    ['map keys are byte strings, in the value order', { b: 1, a: [true] }, 'a2416201416181f5'],
  ];
  it.each(cases)('%s', (_name, value, want) => {
    expect(hex(encodeCBORItem(value, undefined))).toBe(want);
  });

  it.each([
    ['NaN', NaN, 'cbor: unsupported value: NaN'],
    ['Infinity', Infinity, 'cbor: unsupported value: Inf'],
    ['-Infinity', -Infinity, 'cbor: unsupported value: Inf'],
  ])('rejects %s as upstream (NaNConvertReject, InfConvertReject)', (_n, v, msg) => {
    expect(() => encodeCBORItem(v, undefined)).toThrow(new CborEncodeError(msg));
  });

  it('sorts keys bytewise on their encoding in the deterministic mode (shorter first)', () => {
    expect(hex(encodeCBORItem({ bb: 1, c: 2, a: 3 }, undefined, { sorted: true }))).toBe('a3416103416302426262' + '01');
  });

  it('compares encoded bytes, not code units, for non-ASCII keys in the deterministic mode', () => {
    // b"z" (1 byte) < b"aa" < b"\xc3\xa9" ("é", 2 bytes).
    expect(hex(encodeCBORItem({ é: 1, aa: 2, z: 3 }, undefined, { sorted: true }))).toBe('a3417a034261610242c3a901');
  });

  it('writes []byte fields as tag 22 around the raw bytes, in maps too', () => {
    expect(hex(encodeCBORItem({ data: 'AQID', blobs: { k: '' } }, Sample))).toBe('a24464617461d64301020345626c6f6273a1416bd640');
  });

  it('writes FieldsV1 content sorted whatever the mode (its MarshalCBOR uses the deterministic mode)', () => {
    const entry = { manager: 'm', fieldsV1: { 'f:spec': {}, 'f:a': {}, '.': {} } };
    expect(hex(encodeCBORItem(entry, ManagedFieldsEntrySchema))).toBe(
      'a2' + '476d616e61676572' + '416d' + '486669656c64735631' + 'a3' + '412e' + 'a0' + '43663a61' + 'a0' + '46663a73706563' + 'a0',
    );
  });

  it('starts every body with the self-described tag 55799', () => {
    expect(hex(encodeCBOR({ kind: 'Status' }, undefined))).toBe('d9d9f7a1446b696e64465374617475' + '73');
  });

  it('splices pre-encoded list items under "items", keeping the list fields', () => {
    const item = encodeCBORItem({ a: 1 }, undefined);
    expect(hex(encodeCBORList({ kind: 'L', metadata: {}, items: [] }, undefined, [item, item]))).toBe(
      'd9d9f7a3446b696e64414c486d65746164617461a0456974656d7382a1416101a1416101',
    );
  });

  it.each([
    ['value order: the list fields, then items', false, { kind: 'SampleList', apiVersion: 'v1', metadata: { resourceVersion: '7', continue: 'x' } }],
    ['deterministic order: items between the list fields', true, { kind: 'SampleList', apiVersion: 'v1', metadata: { resourceVersion: '7' } }],
  ])('writes a list as encodeCBOR writes the whole value (%s)', (_n, sorted, head) => {
    const objs = [{ name: 'a', count: 1, data: 'AQID' }, { name: 'é'.repeat(30), count: -300 }, {}];
    const items = objs.map((o) => encodeCBORItem(o, Sample, { sorted }));
    const SampleList = defineObject({ name: 'io.svc.test.v1.SampleList', fields: { kind: s.string(), apiVersion: s.string(), metadata: s.any(), items: s.array(s.object(() => Sample)) } });
    const body = encodeCBORList({ ...head, items: [] }, SampleList, items, { sorted });
    expect(hex(body)).toBe(hex(encodeCBOR({ ...head, items: objs }, SampleList, { sorted })));
  });

  it('allocates a large list body once, at its exact size (no doubled buffer behind it)', () => {
    const item = encodeCBORItem({ name: 'x'.repeat(1000) }, Sample);
    const body = encodeCBORList({ kind: 'SampleList', apiVersion: 'v1', metadata: { resourceVersion: '123456' }, items: [] }, undefined, Array(100).fill(item));
    expect(body.buffer.byteLength).toBe(body.length);
    expect(body.subarray(body.length - item.length).equals(item)).toBe(true);
  });

  it('frames a watch event as one self-described item embedding the object body with its tag', () => {
    const obj = encodeCBOR({ a: 1 }, undefined);
    expect(hex(cborWatchEvent('ADDED', obj))).toBe('d9d9f7a2447479706545414444454446' + '6f626a656374' + 'd9d9f7a1416101');
  });
});
