import { hostAddresses, parseCidr } from './addresses';

test.each([
  ['10.213.0.0/25', 10, '10.213.0.1', ['10.213.0.10', '10.213.0.19']],
  ['10.213.0.128/25', 10, '10.213.0.129', ['10.213.0.138', '10.213.0.147']],
  ['127.0.0.0/24', 3, '127.0.0.1', ['127.0.0.10', '127.0.0.12']],
])('%s with %i members: gateway %s, members %j (first, last)', (cidr, n, gateway, [first, last]) => {
  const r = hostAddresses(parseCidr(cidr), n);
  expect(r.gateway).toBe(gateway);
  expect(r.addresses).toHaveLength(n);
  expect([r.addresses[0], r.addresses[n - 1]]).toEqual([first, last]);
  expect(new Set(r.addresses).size).toBe(n);
});

test.each([
  ['10.213.0.1/25', /not the network address/],
  ['10.213.0.0', /invalid subnet/],
  ['10.213.0.0/31', /invalid subnet/],
  ['10.213.300.0/24', /invalid IPv4/],
])('%s is rejected', (cidr, message) => {
  expect(() => parseCidr(cidr)).toThrow(message);
});

test('a subnet too small for the members is rejected (nothing outside it, no broadcast address)', () => {
  expect(() => hostAddresses(parseCidr('10.213.0.0/28'), 10)).toThrow(/no room/);
  expect(hostAddresses(parseCidr('10.213.0.0/27'), 10).addresses.at(-1)).toBe('10.213.0.19');
});
