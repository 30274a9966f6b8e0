import { parseAddr, parsePrefix } from './netip';

// Cases after Go's net/netip netip_test.go (TestParseAddr, TestParsePrefix, String).
describe('parseAddr', () => {
  it.each<[string, string]>([
    ['0.0.0.0', '0.0.0.0'],
    ['192.168.140.255', '192.168.140.255'],
    ['::', '::'],
    ['::1', '::1'],
    ['fd7a:115c::626b:430b', 'fd7a:115c::626b:430b'],
    ['fd7a:115c:a1e0:ab12:4843:cd96:626b:430b', 'fd7a:115c:a1e0:ab12:4843:cd96:626b:430b'],
    ['FD9E:1A04:F01D::1', 'fd9e:1a04:f01d::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'],
    ['1:0:0:0:0:0:0:0', '1::'],
    ['::ffff:192.168.140.255', '::ffff:192.168.140.255'],
    ['fe80::1%eth0', 'fe80::1%eth0'],
    ['::1.2.3.4', '::102:304'],
  ])('%s prints %s', (input, want) => {
    expect(parseAddr(input).toString()).toBe(want);
  });

  it.each<[string, string]>([
    ['', 'ParseAddr(""): unable to parse IP'],
    ['localhost', 'ParseAddr("localhost"): unable to parse IP'],
    ['1.2.3', 'ParseAddr("1.2.3"): IPv4 address too short'],
    ['1.2.3.4.5', 'ParseAddr("1.2.3.4.5"): IPv4 address too long'],
    ['256.0.0.1', 'ParseAddr("256.0.0.1"): IPv4 field has value >255'],
    ['1..2.3', 'ParseAddr("1..2.3"): IPv4 field must have at least one digit (at ".2.3")'],
    ['01.2.3.4', 'ParseAddr("01.2.3.4"): IPv4 field has octet with leading zero'],
    ['1.2.3.4x', 'ParseAddr("1.2.3.4x"): unexpected character (at "x")'],
    ['fe80::1%', 'ParseAddr("fe80::1%"): zone must be a non-empty string'],
    ['%eth0', 'ParseAddr("%eth0"): missing IPv6 address'],
    ['1:2:3:4:5:6:7:8:9', 'ParseAddr("1:2:3:4:5:6:7:8:9"): trailing garbage after address (at "9")'],
    ['1:2:3', 'ParseAddr("1:2:3"): address string too short'],
    ['12345::', 'ParseAddr("12345::"): each group must have 4 or less digits (at "12345::")'],
    ['1::2::3', 'ParseAddr("1::2::3"): multiple :: in address (at ":3")'],
    ['1:2:3:4:5:6:7::8', 'ParseAddr("1:2:3:4:5:6:7::8"): the :: must expand to at least one field of zeros'],
  ])('refuses %j', (input, message) => {
    expect(() => parseAddr(input)).toThrow(message);
  });
});

describe('parsePrefix', () => {
  it('parses, masks and compares', () => {
    const p = parsePrefix('10.1.2.3/8');
    expect(p.toString()).toBe('10.1.2.3/8');
    expect(p.masked().toString()).toBe('10.0.0.0/8');
    expect(p.contains(parseAddr('10.200.0.1'))).toBe(true);
    expect(p.contains(parseAddr('11.0.0.1'))).toBe(false);
    expect(p.contains(parseAddr('::1'))).toBe(false);
    expect(parsePrefix('2001:db8::/32').overlaps(parsePrefix('2001:db8:1::/48'))).toBe(true);
  });
  it.each<[string, string]>([
    ['1.2.3.4', `netip.ParsePrefix("1.2.3.4"): no '/'`],
    ['1.2.3.4/33', 'netip.ParsePrefix("1.2.3.4/33"): prefix length out of range'],
    ['1.2.3.4/-1', 'netip.ParsePrefix("1.2.3.4/-1"): bad bits after slash: "-1"'],
    ['1.2.3.4/08', 'netip.ParsePrefix("1.2.3.4/08"): bad bits after slash: "08"'],
    ['fe80::1%eth0/64', 'netip.ParsePrefix("fe80::1%eth0/64"): IPv6 zones cannot be present in a prefix'],
    ['1.2.3/8', 'netip.ParsePrefix("1.2.3/8"): ParseAddr("1.2.3"): IPv4 address too short'],
  ])('refuses %j', (input, message) => {
    expect(() => parsePrefix(input)).toThrow(message);
  });
});
