import { ipToBytes, sameIP } from './ip';

describe('ipToBytes / sameIP', () => {
  test.each([
    ['127.0.0.1', '7f000001'],
    ['::1', '00000000000000000000000000000001'],
    ['0:0:0:0:0:0:0:1', '00000000000000000000000000000001'],
    ['fe80::1:2', 'fe800000000000000000000000010002'],
    ['1::', '00010000000000000000000000000000'],
    ['::ffff:10.1.2.3', '00000000000000000000ffff0a010203'],
  ])('%s', (ip, hex) => {
    expect(ipToBytes(ip)?.toString('hex')).toBe(hex);
  });
  test.each([
    ['::1', '0:0:0:0:0:0:0:1', true],
    ['10.0.0.1', '10.0.0.1', true],
    ['10.0.0.1', '10.0.0.2', false],
    ['localhost', 'localhost', false],
  ])('sameIP(%s, %s) = %s', (a, b, want) => {
    expect(sameIP(a, b)).toBe(want);
  });
});
