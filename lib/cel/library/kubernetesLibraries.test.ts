import { CelEnvironment } from '../environment';
import { IPAddr, IPPrefix } from '../../machinery/netip';
import { Quantity } from '../../machinery/quantity';

// Tables after upstream's apiserver/pkg/cel/library quantity_test.go, ip_test.go, cidr_test.go,
// format_test.go and the urls.go examples. Library values are compared through string forms.
const env = new CelEnvironment([]);
function run(expr: string) {
  const c = env.compile(expr);
  if (c.error !== undefined) throw new Error(c.error);
  return c.program.evaluate({});
}
function show(v: unknown): unknown {
  if (v instanceof Quantity || v instanceof IPAddr || v instanceof IPPrefix) return `${v.constructor.name}(${v.toString()})`;
  if (v !== null && typeof v === 'object' && 'hasValue' in v && typeof (v as { hasValue: unknown }).hasValue === 'function') {
    const o = v as { hasValue(): boolean; value(): unknown };
    return o.hasValue() ? { some: o.value() } : 'none';
  }
  return v;
}

type Case = [string, unknown];
function table(cases: Case[]) {
  it.each(cases)('%s', (expr, want) => {
    const r = run(expr);
    if (typeof want === 'object' && want !== null && 'error' in want) {
      expect(r).toMatchObject({ ok: false, message: expect.stringContaining((want as { error: string }).error) });
      return;
    }
    expect(r.ok ? show(r.value) : r).toEqual(want);
  });
}
const err = (error: string) => ({ error });

describe('quantity (quantity_test.go)', () => {
  table([
    ['quantity("12Mi")', 'Quantity(12Mi)'],
    ['quantity("10Mo")', err('quantities must match the regular expression')],
    ['quantity("10Mm")', err("unable to parse quantity's suffix")],
    ['isQuantity("20")', true],
    ['isQuantity("20M")', true],
    ['isQuantity("20Mi")', true],
    ['isQuantity("20Mo")', false],
    ['isQuantity("10Mm")', false],
    ['quantity("200M") == quantity("200M")', true],
    ['quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")', true],
    ['quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")', true],
    ['quantity("200M") == quantity("0.3G")', false],
    ['quantity("50M").isLessThan(quantity("50Mi"))', true],
    ['quantity("50M").isLessThan(quantity("100M"))', true],
    ['quantity("100M").isLessThan(quantity("50M"))', false],
    ['quantity("50Mi").isGreaterThan(quantity("50M"))', true],
    ['quantity("150Mi").isGreaterThan(quantity("100Mi"))', true],
    ['quantity("50M").isGreaterThan(quantity("100M"))', false],
    ['quantity("200M").compareTo(quantity("0.2G"))', 0n],
    ['quantity("50M").compareTo(quantity("50Mi"))', -1n],
    ['quantity("50Mi").compareTo(quantity("50M"))', 1n],
    ['quantity("50k").add(quantity("20")) == quantity("50.02k")', true],
    ['quantity("50k").add(20).isLessThan(quantity("50020"))', false],
    ['quantity("50k").sub(quantity("20")) == quantity("49.98k")', true],
    ['quantity("50k").sub(20) == quantity("49980")', true],
    ['quantity("50k").add(20).sub(quantity("100k")).asInteger()', -49980n],
    ['quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger()', 20n],
    ['quantity("50k").asInteger()', 50000n],
    ['quantity("9999999999999999999999999999999999999G").asInteger()', err('cannot convert value to integer')],
    ['quantity("9999999999999999999999999999999999999G").isInteger()', false],
    ['quantity("50").isInteger()', true],
    ['quantity("50.703k").asApproximateFloat()', 50703],
    ['[quantity("9999999999999999999999999999999999999")].all(x, x.add(quantity("1")).compareTo(x.add(quantity("2"))) == -1)', true],
    ['sign(quantity("-5m"))', -1n],
    ['sign(quantity("0"))', 0n],
    // the member form the spec and upstream's documentation list (upstream declares only sign(q))
    ["quantity('-1').sign() == -1", true],
    ['quantity("-5m").sign()', -1n],
    ['quantity("0").sign()', 0n],
    ['quantity("-0").sign()', 0n],
    ['quantity("1.5Gi").sign()', 1n],
    ['quantity("50k").sub(quantity("100k")).sign()', -1n],
    ['[quantity("-1"), quantity("0"), quantity("2")].map(x, x.sign())', [-1n, 0n, 1n]],
  ]);
  it('has no isQuantity(list) overload', () => {
    expect(env.compile('isQuantity([1, 2, 3])').error).toMatch(/isQuantity/);
  });
});

describe('ip (ip_test.go)', () => {
  table([
    ['ip("192.168.0.1")', 'IPAddr(192.168.0.1)'],
    ['ip("192.168.0.1.0")', err('IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long')],
    ['isIP("192.168.0.1")', true],
    ['isIP("192.168.0.1.0")', false],
    ['ip.isCanonical("127.0.0.1")', true],
    ['ip.isCanonical("127.0.0.1.0")', err('IP Address "127.0.0.1.0" parse error during conversion from string: ParseAddr("127.0.0.1.0"): IPv4 address too long')],
    ['ip("192.168.0.1").family()', 4n],
    ['ip("0.0.0.0").isUnspecified()', true],
    ['ip("127.0.0.1").isUnspecified()', false],
    ['ip("127.0.0.1").isLoopback()', true],
    ['ip("1.2.3.4").isLoopback()', false],
    ['ip("224.0.0.1").isLinkLocalMulticast()', true],
    ['ip("224.0.1.1").isLinkLocalMulticast()', false],
    ['ip("169.254.169.254").isLinkLocalUnicast()', true],
    ['ip("192.168.0.1").isLinkLocalUnicast()', false],
    ['ip("192.168.0.1").isGlobalUnicast()', true],
    ['ip("255.255.255.255").isGlobalUnicast()', false],
    ['ip("2001:db8::68")', 'IPAddr(2001:db8::68)'],
    ['ip("2001:db8:::68")', err('IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")')],
    ['isIP("2001:db8::68")', true],
    ['isIP("2001:db8:::68")', false],
    ['ip.isCanonical("2001:db8::68")', true],
    ['ip.isCanonical("2001:DB8::68")', false],
    ['ip("2001:db8::68").family()', 6n],
    ['ip("::").isUnspecified()', true],
    ['ip("::1").isUnspecified()', false],
    ['ip("::1").isLoopback()', true],
    ['ip("2001:db8::abcd").isLoopback()', false],
    ['ip("ff02::1").isLinkLocalMulticast()', true],
    ['ip("fd00::1").isLinkLocalMulticast()', false],
    ['ip("fe80::1").isLinkLocalUnicast()', true],
    ['ip("fd80::1").isLinkLocalUnicast()', false],
    ['ip("2001:db8::abcd").isGlobalUnicast()', true],
    ['ip("ff00::1").isGlobalUnicast()', false],
    ['string(ip("192.168.0.1"))', '192.168.0.1'],
    ['string(ip("2001:0db8:0000:0000:0000:0000:0000:0001"))', '2001:db8::1'],
    ['ip("::ffff:1.2.3.4")', err('IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed')],
    ['ip("fe80::1%eth0")', err('IP address "fe80::1%eth0" with zone value is not allowed')],
    ['ip("1.2.3.4") == ip("1.2.3.4")', true],
    ['ip("1.2.3.4") == ip("1.2.3.5")', false],
  ]);
  it('has no isIP(cidr) overload', () => {
    expect(env.compile('isIP(cidr("192.168.0.0/24"))').error).toMatch(/isIP/);
  });
});

describe('cidr (cidr_test.go)', () => {
  table([
    ['cidr("192.168.0.0/24")', 'IPPrefix(192.168.0.0/24)'],
    ['cidr("192.168.0.0/")', err('network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""')],
    ['cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))', true],
    ['cidr("192.168.0.0/24").containsIP(ip("192.168.1.1"))', false],
    ['cidr("192.168.0.0/24").containsIP("192.168.0.1")', true],
    ['cidr("192.168.0.0/24").containsIP("192.168.1.1")', false],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25"))', true],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.1/32"))', true],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23"))', false],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.169.0.1/32"))', false],
    ['cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")', true],
    ['cidr("192.168.0.0/24").containsCIDR("192.168.0.0/23")', false],
    ['cidr("192.168.0.0/24").ip()', 'IPAddr(192.168.0.0)'],
    ['cidr("192.168.0.0/24").masked()', 'IPPrefix(192.168.0.0/24)'],
    ['cidr("192.168.0.1/24").masked()', 'IPPrefix(192.168.0.0/24)'],
    ['cidr("192.168.0.0/24").prefixLength()', 24n],
    ['cidr("2001:db8::/32")', 'IPPrefix(2001:db8::/32)'],
    ['cidr("2001:db8::/")', err('netip.ParsePrefix("2001:db8::/"): bad bits after slash: ""')],
    ['cidr("2001:db8::/32").containsIP(ip("2001:db8::1"))', true],
    ['cidr("2001:db8::/32").containsIP(ip("2001:dc8::1"))', false],
    ['cidr("2001:db8::/32").containsIP("2001:db8::1")', true],
    ['cidr("2001:db8::/32").containsIP("2001:dc8::1")', false],
    ['cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33"))', true],
    ['cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/31"))', false],
    ['cidr("2001:db8::/32").containsCIDR("2001:db8::/33")', true],
    ['cidr("2001:db8::/32").containsCIDR("2001:db8::/31")', false],
    ['cidr("2001:db8::/32").ip()', 'IPAddr(2001:db8::)'],
    ['cidr("2001:db8::/32").masked()', 'IPPrefix(2001:db8::/32)'],
    ['cidr("2001:db8:1::/32").masked()', 'IPPrefix(2001:db8::/32)'],
    ['cidr("2001:db8::/32").prefixLength()', 32n],
    ['string(cidr("192.168.0.0/24"))', '192.168.0.0/24'],
    ['isCIDR("10.0.0.0/8")', true],
    ['isCIDR("10.0.0.0/33")', false],
    ['cidr("10.0.0.0/8") == cidr("10.0.0.0/8")', true],
    ['cidr("10.0.0.1/8") == cidr("10.0.0.0/8")', false],
  ]);
});

describe('url (urls.go)', () => {
  table([
    ['isURL("https://user:pass@example.com:80/path?query=val#fragment")', true],
    ['isURL("/absolute-path")', true],
    ['isURL("https://a:b:c/")', false],
    ['isURL("../relative-path")', false],
    ['url("../relative-path")', err('URL parse error during conversion from string: parse "../relative-path": invalid URI for request')],
    ['url("https://a:b:c/")', err('URL parse error during conversion from string: parse "https://a:b:c/": invalid port ":c" after host')],
    ["url('/path').getScheme()", ''],
    ["url('https://example.com/').getScheme()", 'https'],
    ["url('https://example.com:80/').getHost()", 'example.com:80'],
    ["url('https://example.com/').getHost()", 'example.com'],
    ["url('https://[::1]:80/').getHost()", '[::1]:80'],
    ["url('https://[::1]/').getHost()", '[::1]'],
    ["url('/path').getHost()", ''],
    ["url('https://example.com:80/').getHostname()", 'example.com'],
    ["url('https://127.0.0.1:80/').getHostname()", '127.0.0.1'],
    ["url('https://[::1]:80/').getHostname()", '::1'],
    ["url('/path').getHostname()", ''],
    ["url('https://example.com:80/').getPort()", '80'],
    ["url('https://example.com/').getPort()", ''],
    ["url('/path').getPort()", ''],
    ["url('https://example.com/path').getEscapedPath()", '/path'],
    ["url('https://example.com/path with spaces/').getEscapedPath()", '/path%20with%20spaces/'],
    ["url('https://example.com').getEscapedPath()", ''],
    ["url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()", { k1: ['a'], k2: ['b', 'c'] }],
    ["url('https://example.com/path?key with spaces=value with spaces').getQuery()", { 'key with spaces': ['value with spaces'] }],
    ["url('https://example.com/path?').getQuery()", {}],
    ["url('https://example.com/path').getQuery()", {}],
    ["url('https://example.com/a#frag').getEscapedPath()", '/a'],
    ["url('https://example.com/a') == url('https://example.com/a')", true],
  ]);
});

const dns1123LabelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const dns1123SubdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const dns1035Msg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const qualifiedNameMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('format (format_test.go)', () => {
  table([
    ['format.dns1123Label().validate("my-label-name")', 'none'],
    ['format.dns1123Subdomain().validate("apiextensions.k8s.io")', 'none'],
    ['format.qualifiedName().validate("apiextensions.k8s.io/v1beta1")', 'none'],
    ['format.dns1123LabelPrefix().validate("my-label-prefix-")', 'none'],
    ['format.dns1123SubdomainPrefix().validate("mysubdomain.prefix.-")', 'none'],
    ['format.dns1035LabelPrefix().validate("my-label-prefix-")', 'none'],
    ['format.uri().validate("http://example.com")', 'none'],
    ['format.uuid().validate("123e4567-e89b-12d3-a456-426614174000")', 'none'],
    ['format.byte().validate("aGVsbG8=")', 'none'],
    ['format.date().validate("2021-01-01")', 'none'],
    ['format.datetime().validate("2021-01-01T00:00:00Z")', 'none'],
    ['format.dns1123Label().validate("contains a space")', { some: [dns1123LabelMsg] }],
    ['format.dns1123Subdomain().validate("contains a space")', { some: [dns1123SubdomainMsg] }],
    ['format.dns1035Label().validate("contains a space")', { some: [dns1035Msg] }],
    ['format.qualifiedName().validate("contains a space")', { some: [qualifiedNameMsg] }],
    ['format.dns1123LabelPrefix().validate("contains a space-")', { some: [dns1123LabelMsg] }],
    ['format.dns1123SubdomainPrefix().validate("contains a space-")', { some: [dns1123SubdomainMsg] }],
    ['format.dns1035LabelPrefix().validate("contains a space-")', { some: [dns1035Msg] }],
    ['format.dns1123Label().validate("my-label-name")', 'none'],
    ['format.dns1123Subdomain().validate("example.com")', 'none'],
    ['format.dns1035Label().validate("my-label-name")', 'none'],
    ['format.qualifiedName().validate("my.name")', 'none'],
    ['format.byte().validate("aGVsbG8")', { some: ['invalid base64'] }],
    ['format.date().validate("2020-01-01")', 'none'],
    ['format.date().validate("2020-01-32")', { some: ['invalid date'] }],
    ['format.datetime().validate("2020-01-01T00:00:00Z")', 'none'],
    ['format.datetime().validate("2020-01-32T00:00:00Z")', { some: ['invalid datetime'] }],
    ['format.named("unknown").hasValue()', false],
    ['format.labelValue().validate("my-cool-label-Value")', 'none'],
    ['format.uuid().validate("not-a-uuid")', { some: ['does not match the UUID format'] }],
    ['format.uri().validate("../x")', { some: ['parse "../x": invalid URI for request'] }],
    ['format.named("dns1123Label").value() == format.dns1123Label()', true],
    ['format.dns1123Label() == format.dns1123Subdomain()', false],
  ]);
  it.each(['dns1123Label', 'dns1123Subdomain', 'dns1035Label', 'qualifiedName', 'dns1123LabelPrefix', 'dns1123SubdomainPrefix', 'dns1035LabelPrefix', 'labelValue', 'uri', 'uuid', 'byte', 'date', 'datetime'])(
    'format.named(%j) is format.%s()',
    (name) => {
      expect(run(`format.named("${name}").hasValue() && format.named("${name}").value() == format.${name}()`)).toMatchObject({ ok: true, value: true });
    },
  );
});

describe('strings extension (cel-go ext/strings_test.go)', () => {
  table([
    ["'tacocat'.charAt(3)", 'o'],
    ["'tacocat'.charAt(7)", ''],
    ["'©αT'.charAt(1)", 'α'],
    ["'tacocat'.charAt(30)", err('index out of range: 30')],
    ["'12 days 12 hours'.replace('{0}', '2')", '12 days 12 hours'],
    ["'{0} days {0} hours'.replace('{0}', '2')", '2 days 2 hours'],
    ["'{0} days {0} hours'.replace('{0}', '2', 1).replace('{0}', '23')", '2 days 23 hours'],
    ["'1 ©αT taco'.replace('αT', 'o©α')", '1 ©o©α taco'],
    ["'abc'.replace('', 'x')", 'xaxbxcx'],
    ["'abc'.replace('b', 'x', 0)", 'abc'],
    ['strings.quote("first\\nsecond")', '"first\\nsecond"'],
    ['strings.quote("bell\\a")', '"bell\\a"'],
    ['strings.quote(\'she said "hi"\')', '"she said \\"hi\\""'],
    ["'TacoCat'.lowerAscii()", 'tacocat'],
    ["['a', 'b'].join(', ')", 'a, b'],
  ]);
});

describe('sets extension (cel-go ext/sets_test.go)', () => {
  table([
    ['sets.contains([], [])', true],
    ['sets.contains([1, 2, 3, 4], [2, 3])', true],
    ['sets.contains([1, 2, 3], [3, 2, 1])', true],
    ['sets.contains([1], [1, 1])', true],
    ['sets.contains([1, 2], [2, 3])', false],
    ['sets.contains([1, 2.0, 3u], [1.0, 2])', true],
    ['sets.equivalent([1, 2, 3], [3u, 2.0, 1])', true],
    ['sets.equivalent([1, 2], [2, 2, 2])', false],
    ['sets.intersects([1], [1, 2])', true],
    ['sets.intersects([], [1])', false],
    ["sets.intersects([[1], [2]], [[2]])", true],
  ]);
});

describe('heterogeneous numeric equality (CEL spec)', () => {
  table([
    ['1 == 1.0', true],
    ['1.0 == 1', true],
    ['1 != 1.5', true],
    ['1u == 1', true],
    ['2u == 2.0', true],
    ['9007199254740993 == 9007199254740992.0', false],
    ['-1 == 18446744073709551615u', false],
    ['dyn(3) == 3.0', true],
  ]);
});

describe('library type names (upstream tests compare type() with them)', () => {
  table([
    ['type(ip("192.168.0.1")) == net.IP', true],
    ['type(cidr("192.168.0.0/24")) == net.CIDR', true],
    ['type(ip("192.168.0.1")) == net.CIDR', false],
    ['type(quantity("1")) == kubernetes.Quantity', true],
    ['type(url("/a")) == kubernetes.URL', true],
    ['type(format.uri()) == kubernetes.NamedFormat', true],
    ['type("x") == string', true],
  ]);
});
