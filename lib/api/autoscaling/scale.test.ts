// Scale on the Protobuf wire with upstream's field numbers (metadata 1, spec 2 {replicas 1},
// status 3 {replicas 1, selector 2}) and Go's JSON shape (spec replicas omitempty, status replicas
// always written).
import { normalize } from '../../codec/normalize';
import { decodeProtobufObject, encodeProtobufObject } from '../../codec/protobuf';
import { ScaleSchema } from './scale';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('Scale', () => {
  test.each([
    ['spec.replicas is field 2.1 (varint)', { spec: { replicas: 3 } }, '12020803'],
    ['status.replicas is field 3.1, selector 3.2', { status: { replicas: 2, selector: 'a=b' } }, '1a070802120361' + '3d62'],
  ])('%s', (_n, obj, wire) => {
    // metadata (field 1, empty) first: 0a00.
    expect(hex(encodeProtobufObject({ metadata: {}, ...obj }, ScaleSchema))).toBe(`0a00${wire}`);
  });

  test('round trip', () => {
    const obj = { metadata: { name: 'w', namespace: 'ns', resourceVersion: '4' }, spec: { replicas: 7 }, status: { replicas: 6, selector: 'app=w' } };
    expect(decodeProtobufObject(encodeProtobufObject(obj, ScaleSchema), ScaleSchema)).toMatchObject(obj);
  });

  test.each([
    ['zero spec replicas dropped, zero status replicas kept', { spec: { replicas: 0 }, status: { replicas: 0, selector: '' } }, { spec: {}, status: { replicas: 0 } }],
    ['spec and status always present', {}, { spec: {}, status: { replicas: 0 } }],
  ])('JSON: %s', (_n, obj, shape) => {
    expect(normalize({ metadata: { name: 'w' }, ...obj }, ScaleSchema)).toMatchObject(shape);
    expect(normalize({ metadata: { name: 'w' }, ...obj }, ScaleSchema)).toEqual({ metadata: expect.anything(), ...shape });
  });
});
