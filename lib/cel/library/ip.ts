// upstream's IP and CIDR libraries (apiserver/pkg/cel/library/ip.go, cidr.go) over Go-netip
// parsing in lib/machinery: zones and IPv4-mapped IPv6 addresses are refused, as upstream.
// Parsing costs a traversal of the string; accessors cost 1; containment about two prefix
// traversals (library/cost.go).
import { IPAddr, IPPrefix, parseAddr, parsePrefix } from '../../machinery/netip';
import { traversalCost, unitCost } from '../cost';
import type { CelFunction, CelLibrary } from './types';

export class IPNamespace {}

function parseIPAddr(raw: string): IPAddr {
  let addr: IPAddr;
  try {
    addr = parseAddr(raw);
  } catch (e) {
    throw new Error(`IP Address ${JSON.stringify(raw)} parse error during conversion from string: ${(e as Error).message}`);
  }
  if (addr.zone !== '') throw new Error(`IP address ${JSON.stringify(raw)} with zone value is not allowed`);
  if (addr.isV4InV6()) throw new Error(`IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`);
  return addr;
}

function parseCIDR(raw: string): IPPrefix {
  let p: IPPrefix;
  try {
    p = parsePrefix(raw);
  } catch (e) {
    throw new Error(`network address parse error during conversion from string: ${(e as Error).message}`);
  }
  if (p.addr.isV4InV6()) throw new Error(`IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`);
  return p;
}

function stringToCIDR(raw: string): IPPrefix {
  try {
    return parseCIDR(raw);
  } catch (e) {
    // upstream wraps parseCIDR's error once more
    throw new Error(`network address parse error during conversion from string: ${(e as Error).message}`);
  }
}

const valid = (f: () => unknown): boolean => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};

const one = (): number => 1;
const ip = (v: unknown): IPAddr => v as IPAddr;
const cidr = (v: unknown): IPPrefix => v as IPPrefix;
const parseCost = (s: unknown): number => traversalCost(s);
/** upstream: the CIDR's size twice (prefix compare), plus parsing a string argument. */
const prefixCompareCost = (c: unknown): number => Math.ceil(2 * cidr(c).toString().length * unitCost.stringTraversalFactor);

const ipFunctions: CelFunction[] = [
  { signature: 'ip(string): net.IP', cost: parseCost, handler: (s) => parseIPAddr(s as string) },
  { signature: 'isIP(string): bool', cost: parseCost, handler: (s) => valid(() => parseIPAddr(s as string)) },
  { signature: 'string(net.IP): string', cost: one, handler: (a) => ip(a).toString() },
  { signature: 'net.IP.family(): int', cost: one, handler: (a) => (ip(a).is4 ? 4n : 6n) },
  { signature: 'net.IP.isUnspecified(): bool', cost: one, handler: (a) => ip(a).isUnspecified() },
  { signature: 'net.IP.isLoopback(): bool', cost: one, handler: (a) => ip(a).isLoopback() },
  { signature: 'net.IP.isLinkLocalMulticast(): bool', cost: one, handler: (a) => ip(a).isLinkLocalMulticast() },
  { signature: 'net.IP.isLinkLocalUnicast(): bool', cost: one, handler: (a) => ip(a).isLinkLocalUnicast() },
  { signature: 'net.IP.isGlobalUnicast(): bool', cost: one, handler: (a) => ip(a).isGlobalUnicast() },
  {
    // ip.isCanonical(s): the canonical form is what Addr.String() prints
    signature: 'kubernetes.IPFunctions.isCanonical(string): bool',
    cost: (_ns, s) => Math.ceil(2 * (s as string).length * unitCost.stringTraversalFactor),
    handler: (_ns, s) => parseIPAddr(s as string).toString() === s,
  },
];

const cidrFunctions: CelFunction[] = [
  { signature: 'cidr(string): net.CIDR', cost: parseCost, handler: (s) => stringToCIDR(s as string) },
  { signature: 'isCIDR(string): bool', cost: parseCost, handler: (s) => valid(() => parseCIDR(s as string)) },
  { signature: 'string(net.CIDR): string', cost: one, handler: (c) => cidr(c).toString() },
  {
    signature: 'net.CIDR.containsIP(string): bool',
    cost: (c, s) => prefixCompareCost(c) + traversalCost(s),
    handler: (c, s) => cidr(c).contains(parseIPAddr(s as string)),
  },
  { signature: 'net.CIDR.containsIP(net.IP): bool', cost: (c) => prefixCompareCost(c), handler: (c, a) => cidr(c).contains(ip(a)) },
  {
    signature: 'net.CIDR.containsCIDR(string): bool',
    cost: (c, s) => prefixCompareCost(c) + Math.ceil(cidr(c).toString().length * unitCost.stringTraversalFactor) + 1 + traversalCost(s),
    handler: (c, s) => containsCIDR(cidr(c), stringToCIDR(s as string)),
  },
  {
    signature: 'net.CIDR.containsCIDR(net.CIDR): bool',
    cost: (c) => prefixCompareCost(c) + Math.ceil(cidr(c).toString().length * unitCost.stringTraversalFactor) + 1,
    handler: (c, o) => containsCIDR(cidr(c), cidr(o)),
  },
  { signature: 'net.CIDR.ip(): net.IP', cost: one, handler: (c) => cidr(c).addr },
  { signature: 'net.CIDR.prefixLength(): int', cost: one, handler: (c) => BigInt(cidr(c).bits) },
  { signature: 'net.CIDR.masked(): net.CIDR', cost: one, handler: (c) => cidr(c).masked() },
];

function containsCIDR(a: IPPrefix, b: IPPrefix): boolean {
  return a.overlaps(b) && a.bits <= b.bits;
}

export const ipLibrary: CelLibrary = {
  types: [
    { name: 'net.IP', ctor: IPAddr },
    { name: 'kubernetes.IPFunctions', ctor: IPNamespace },
  ],
  functions: ipFunctions,
  operators: [{ signature: 'net.IP == net.IP', handler: (a, b) => ip(a).equals(ip(b)) }],
  constants: [{ name: 'ip', type: 'kubernetes.IPFunctions', value: new IPNamespace() }],
};

export const cidrLibrary: CelLibrary = {
  types: [{ name: 'net.CIDR', ctor: IPPrefix }],
  functions: cidrFunctions,
  operators: [{ signature: 'net.CIDR == net.CIDR', handler: (a, b) => cidr(a).equals(cidr(b)) }],
};
