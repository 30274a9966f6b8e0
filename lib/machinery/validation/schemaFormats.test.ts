import { checkStringFormat, knownStringFormat } from './schemaFormats';

describe('schema string formats', () => {
  it.each<[string, string, boolean]>([
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', true],
    ['uuid', '123E4567E89B12D3A456426614174000', true],
    ['uuid', '123e4567-e89b-12d3-a456', false],
    ['uuid4', '123e4567-e89b-42d3-a456-426614174000', true],
    ['uuid4', '123e4567-e89b-12d3-a456-426614174000', false],
    ['hostname', 'example.com', true],
    ['hostname', 'a', true],
    ['hostname', 'exa mple.com', false],
    ['hostname', `${'a'.repeat(64)}.com`, false],
    ['ipv4', '10.0.0.1', true],
    ['ipv4', '010.000.000.001', true],
    ['ipv4', '256.0.0.1', false],
    ['ipv4', '::ffff:1.2.3.4', true],
    ['ipv6', '::1', true],
    ['ipv6', '2001:db8::8a2e:370:7334', true],
    ['ipv6', '1.2.3.4', false],
    ['ipv6', '1::2::3', false],
    ['cidr', '10.0.0.0/8', true],
    ['cidr', '10.0.0.0/33', false],
    ['cidr', 'fd00::/64', true],
    ['mac', '00:1a:2b:3c:4d:5e', true],
    ['mac', '001a.2b3c.4d5e', true],
    ['mac', '00:1a:2b:3c:4d', false],
    ['date', '2024-02-29', true],
    ['date', '2023-02-29', false],
    ['date-time', '2024-02-29T23:59:59Z', true],
    ['datetime', '2024-02-29t10:00:00.123-07:00', true],
    ['date-time', '2024-02-29T24:00:00Z', false],
    ['date-time', '2024-02-29T10:00:00', false],
    ['duration', '1h30m', true],
    ['duration', '3 days', true],
    ['duration', 'soon', false],
    ['byte', 'aGVsbG8=', true],
    ['byte', 'aGVsbG8', false],
    ['bsonobjectid', '507f1f77bcf86cd799439011', true],
    ['bsonobjectid', '507f1f77bcf86cd79943901', false],
    ['hexcolor', '#fff', true],
    ['hexcolor', '#ffff', false],
    ['rgbcolor', 'rgb(255, 0, 10)', true],
    ['rgbcolor', 'rgb(256,0,0)', false],
    ['ssn', '123-45-6789', true],
    ['ssn', '123456789', false],
    ['isbn10', '0321751043', true],
    ['isbn13', '978-0321751041', true],
    ['isbn', '0321751044', false],
    ['creditcard', '4111 1111 1111 1111', true],
    ['creditcard', '4111 1111 1111 1112', false],
    ['uri', 'https://example.com/a?b', true],
    ['uri', 'relative/path', false],
    ['email', 'a@example.com', true],
    ['email', 'Someone <a@example.com>', true],
    ['email', 'not an address', false],
    ['password', '', true],
  ])('%s %j → %s', (format, value, ok) => {
    expect(knownStringFormat(format)).toBe(true);
    expect(checkStringFormat(format, value)).toBe(ok);
  });

  it('does not know other names', () => {
    expect(knownStringFormat('int32')).toBe(false);
    expect(knownStringFormat('k8s-short-name')).toBe(false);
    expect(checkStringFormat('whatever', 'x')).toBe(true);
  });
});
