// The ConfigMap schema on the protobuf wire: upstream's field numbers (metadata 1, data 2,
// binaryData 3 as map<string, bytes>, immutable 4) and a lossless round trip of binary values.
import { ConfigMapSchema } from '../../api';
import { decodeProtobufObject, encodeProtobufObject } from '../../codec/protobuf';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('ConfigMap protobuf', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['immutable is field 4 (varint)', { immutable: true }, '2001'],
    ['data is field 2, entries {1: key, 2: value}', { data: { k: 'v' } }, '1206' + '0a016b' + '120176'],
    ['binaryData is field 3 with raw bytes', { binaryData: { k: Buffer.from([0xff, 0x00]).toString('base64') } }, '1a07' + '0a016b' + '1202ff00'],
  ];
  it.each(cases)('%s', (_name, obj, wire) => {
    const bytes = encodeProtobufObject({ metadata: {}, ...obj }, ConfigMapSchema);
    // metadata (field 1, empty) comes first: 0a00.
    expect(hex(bytes)).toBe(`0a00${wire}`);
  });

  it('round-trips data and binaryData', () => {
    const obj = { metadata: { name: 'c', namespace: 'ns' }, immutable: true, data: { a: 'é', b: '' }, binaryData: { bin: Buffer.from([0, 1, 254, 255]).toString('base64') } };
    expect(decodeProtobufObject(encodeProtobufObject(obj, ConfigMapSchema), ConfigMapSchema)).toMatchObject(obj);
  });
});
