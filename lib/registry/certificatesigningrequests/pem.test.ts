import { decodePem } from './pem';

describe('decodePem (Go encoding/pem semantics)', () => {
  const cases: [string, string, { type: string; headers: Record<string, string>; bytes: string; rest: string } | null][] = [
    ['a block at the start', '-----BEGIN X-----\nAQID\n-----END X-----\nrest', { type: 'X', headers: {}, bytes: '010203', rest: 'rest' }],
    ['text before the block', 'hello\n-----BEGIN X-----\nAQID\n-----END X-----\n', { type: 'X', headers: {}, bytes: '010203', rest: '' }],
    ['BEGIN not at a line start is ignored', 'x-----BEGIN X-----\nAQID\n-----END X-----\n', null],
    ['headers', '-----BEGIN X-----\nA: b\nC:d \n\nAQID\n-----END X-----\n', { type: 'X', headers: { A: 'b', C: 'd' }, bytes: '010203', rest: '' }],
    ['spaces and tabs in the body', '-----BEGIN X-----\nAQ I\tD\n-----END X-----\n', { type: 'X', headers: {}, bytes: '010203', rest: '' }],
    ['an empty block', '-----BEGIN X-----\n-----END X-----\n', { type: 'X', headers: {}, bytes: '', rest: '' }],
    ['mismatched END type', '-----BEGIN X-----\nAQID\n-----END Y-----\n', null],
    ['missing padding', '-----BEGIN X-----\nAQI\n-----END X-----\n', null],
    ['a bad block then a good one', '-----BEGIN X-----\n!!\n-----END X-----\n-----BEGIN Y-----\nAQID\n-----END Y-----\n', { type: 'Y', headers: {}, bytes: '010203', rest: '' }],
    ['text after END on the same line', '-----BEGIN X-----\nAQID\n-----END X----- junk\n', null],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    const got = decodePem(Buffer.from(input));
    expect(got && { ...got.block, bytes: got.block.bytes.toString('hex'), rest: got.rest.toString() }).toEqual(expected);
  });
});
