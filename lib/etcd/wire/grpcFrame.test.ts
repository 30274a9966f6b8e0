import { Deframer, frameMessage } from './grpcFrame';
import { writeCompactionRequest } from './kvMessages';

const frame = (payload: string): Buffer => Buffer.concat([Buffer.from([0, 0, 0, 0, payload.length]), Buffer.from(payload)]);

describe('Deframer', () => {
  const all = Buffer.concat([frame('one'), frame(''), frame('three'), frame('x'.repeat(200))]);
  test.each([
    ['one chunk holding every message', [all.length]],
    ['byte by byte', Array.from({ length: all.length }, () => 1)],
    ['split inside a prefix and inside a payload', [3, 6, 2, 9, all.length - 20]],
  ])('%s', (_name, sizes) => {
    const d = new Deframer();
    const got: string[] = [];
    let p = 0;
    for (const n of sizes) {
      d.push(all.subarray(p, p + n), (m) => got.push(m.toString()));
      p += n;
    }
    expect(got).toEqual(['one', '', 'three', 'x'.repeat(200)]);
    expect(d.pending).toBe(0);
  });

  test('a compressed message is refused', () => {
    expect(() => new Deframer().push(Buffer.from([1, 0, 0, 0, 0]), () => undefined)).toThrow(/compressed/);
  });
});

test('frameMessage writes the 5-byte prefix: uncompressed, big-endian length', () => {
  expect(frameMessage(writeCompactionRequest, { revision: 99, physical: true }).toString('hex')).toBe('000000000408631001');
});
