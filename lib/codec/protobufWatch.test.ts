import { encodeProtobufEnvelope } from './protobuf';
import { decodeProtobufWatchEvent, protobufWatchFrame, splitProtobufWatchFrames } from './protobufWatch';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('protobuf watch frames', () => {
  // The embedded object keeps its full body (magic + Unknown); the WatchEvent itself is raw.
  const object = encodeProtobufEnvelope('v1', 'Status', Uint8Array.of(0x10, 0x01));

  it('writes a 4-byte big-endian length, then WatchEvent{1: type, 2: RawExtension{1: raw}}', () => {
    const frame = protobufWatchFrame('ERROR', object);
    const rawExt = `0a${object.length.toString(16).padStart(2, '0')}${hex(object)}`;
    const event = `0a05${Buffer.from('ERROR').toString('hex')}12${(rawExt.length / 2).toString(16).padStart(2, '0')}${rawExt}`;
    expect(hex(frame)).toBe(`${(event.length / 2).toString(16).padStart(8, '0')}${event}`);
    expect(hex(frame.subarray(4 + 2 + 5 + 2 + 2, 4 + 2 + 5 + 2 + 2 + 4))).toBe('6b387300');
  });

  it('splits frames across arbitrary chunk boundaries and reads them back', () => {
    const stream = Buffer.concat([protobufWatchFrame('ADDED', object), protobufWatchFrame('BOOKMARK', object)]);
    for (let cut = 0; cut <= stream.length; cut++) {
      const first = splitProtobufWatchFrames(stream.subarray(0, cut));
      const second = splitProtobufWatchFrames(Buffer.concat([first.rest, stream.subarray(cut)]));
      const events = [...first.frames, ...second.frames].map(decodeProtobufWatchEvent);
      expect(events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
      expect(events.every((e) => hex(e.raw) === hex(object))).toBe(true);
      expect(second.rest.length).toBe(0);
    }
  });

  it('skips unknown fields and refuses a wrong wire type', () => {
    expect(decodeProtobufWatchEvent(Uint8Array.of(0x18, 0x01, 0x0a, 0x01, 0x41))).toEqual({ type: 'A', raw: new Uint8Array(0) });
    expect(() => decodeProtobufWatchEvent(Uint8Array.of(0x08, 0x01))).toThrow('proto: wrong wireType = 0 for field Type');
  });
});
