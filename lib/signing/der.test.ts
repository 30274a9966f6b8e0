import { decodeOid, namedBits, objectIdentifier, readElement, smallInteger, subjectPublicKeyBits, time, tlv, toPem, unsignedInteger } from './der';

const hex = (b: Buffer): string => b.toString('hex');

describe('DER primitives', () => {
  test.each([
    ['2.5.29.15', '0603551d0f'],
    ['1.2.840.113549.1.1.11', '06092a864886f70d01010b'],
    ['1.3.6.1.4.1.311.10.3.3', '060a2b0601040182370a0303'],
    ['2.16.840.1.113730.4.1', '06096086480186f8420401'],
  ])('OID %s', (oid, want) => {
    expect(hex(objectIdentifier(oid))).toBe(want);
    expect(decodeOid(objectIdentifier(oid).subarray(2))).toBe(oid);
  });

  test.each([
    ['00', '020100'],
    ['7f', '02017f'],
    ['80', '02020080'],
    ['0000ff', '020200ff'],
    ['', '020100'],
  ])('unsigned INTEGER from %s', (magnitude, want) => {
    expect(hex(unsignedInteger(Buffer.from(magnitude, 'hex')))).toBe(want);
  });

  test('small INTEGER', () => {
    expect(hex(smallInteger(2))).toBe('020102');
    expect(hex(smallInteger(0))).toBe('020100');
    expect(hex(smallInteger(256))).toBe('02020100');
  });

  test.each([
    [0b1, '03020780'],
    [0b101, '030205a0'],
    // bits 1, 5 and 6 → 0100 0110, one unused bit
    [0b1100010, '03020146'],
    [1 << 8, '0303070080'],
    [0, '030100'],
  ])('KeyUsage bits %i', (flags, want) => {
    expect(hex(namedBits(flags))).toBe(want);
  });

  test('lengths: short, one byte and two bytes', () => {
    expect(hex(tlv(0x04, Buffer.alloc(127))).slice(0, 4)).toBe('047f');
    expect(hex(tlv(0x04, Buffer.alloc(128))).slice(0, 6)).toBe('048180');
    expect(hex(tlv(0x04, Buffer.alloc(300))).slice(0, 8)).toBe('0482012c');
    expect(readElement(tlv(0x04, Buffer.alloc(300)))).toEqual({ tag: 4, start: 4, end: 304 });
  });

  test('times: UTCTime until 2049, GeneralizedTime from 2050', () => {
    expect(time(new Date('2026-01-10T08:00:00Z')).toString('latin1')).toBe('\x17\x0d260110080000Z');
    expect(time(new Date('2049-12-31T23:59:59Z')).toString('latin1')).toBe('\x17\x0d491231235959Z');
    expect(time(new Date('2050-01-01T00:00:00Z')).toString('latin1')).toBe('\x18\x0f20500101000000Z');
  });

  test('truncated and bad lengths are refused', () => {
    expect(() => readElement(Buffer.from('0405aa', 'hex'))).toThrow('DER: truncated');
    expect(() => readElement(Buffer.from('0480', 'hex'))).toThrow('DER: bad length');
    expect(() => subjectPublicKeyBits(Buffer.from('3000', 'hex'))).toThrow();
  });

  test('PEM lines of 64 characters', () => {
    const pem = toPem('CERTIFICATE', Buffer.alloc(100, 1));
    const lines = pem.trimEnd().split('\n');
    expect(lines[0]).toBe('-----BEGIN CERTIFICATE-----');
    expect(lines[1]).toHaveLength(64);
    expect(lines.at(-1)).toBe('-----END CERTIFICATE-----');
    expect(pem.endsWith('\n')).toBe(true);
  });
});
