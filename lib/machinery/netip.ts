// IP addresses and prefixes as Go's net/netip parses and prints them (ParseAddr, ParsePrefix,
// Addr.String, RFC 5952), with Go's error texts: upstream's CEL ip/cidr library shows them.

export class IPAddr {
  constructor(
    /** 4 or 16 bytes. */
    readonly bytes: Uint8Array,
    readonly zone = '',
  ) {}
  get is4(): boolean {
    return this.bytes.length === 4;
  }
  get bitLen(): number {
    return this.bytes.length * 8;
  }
  /** ::ffff:a.b.c.d */
  isV4InV6(): boolean {
    const b = this.bytes;
    return b.length === 16 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
  }
  equals(o: IPAddr): boolean {
    return this.bytes.length === o.bytes.length && this.bytes.every((x, i) => x === o.bytes[i]) && this.zone === o.zone;
  }
  isUnspecified(): boolean {
    return this.bytes.every((x) => x === 0);
  }
  isLoopback(): boolean {
    const b = this.bytes;
    return this.is4 ? b[0] === 127 : b.slice(0, 15).every((x) => x === 0) && b[15] === 1;
  }
  isMulticast(): boolean {
    return this.is4 ? (this.bytes[0]! & 0xf0) === 0xe0 : this.bytes[0] === 0xff;
  }
  isLinkLocalMulticast(): boolean {
    const b = this.bytes;
    return this.is4 ? b[0] === 224 && b[1] === 0 && b[2] === 0 : b[0] === 0xff && (b[1]! & 0x0f) === 0x02;
  }
  isLinkLocalUnicast(): boolean {
    const b = this.bytes;
    return this.is4 ? b[0] === 169 && b[1] === 254 : b[0] === 0xfe && (b[1]! & 0xc0) === 0x80;
  }
  /** Go's rule: private IPv4 and ULA IPv6 still count as global unicast. */
  isGlobalUnicast(): boolean {
    if (this.is4 && (this.isUnspecified() || this.bytes.every((x) => x === 255))) return false;
    return !this.isUnspecified() && !this.isLoopback() && !this.isMulticast() && !this.isLinkLocalUnicast();
  }
  toString(): string {
    if (this.is4) return this.bytes.join('.');
    const b = this.bytes;
    if (this.isV4InV6()) return `::ffff:${[...b.slice(12)].join('.')}${this.zone ? `%${this.zone}` : ''}`;
    const groups = Array.from({ length: 8 }, (_, i) => (b[2 * i]! << 8) | b[2 * i + 1]!);
    // The longest run of two or more zero groups becomes "::" (the first on a tie).
    let best = -1;
    let bestLen = 1;
    for (let i = 0; i < 8; ) {
      if (groups[i] !== 0) {
        i++;
        continue;
      }
      let j = i;
      while (j < 8 && groups[j] === 0) j++;
      if (j - i > bestLen) {
        best = i;
        bestLen = j - i;
      }
      i = j;
    }
    const hex = (g: number[]) => g.map((x) => x.toString(16)).join(':');
    const s = best < 0 ? hex(groups) : `${hex(groups.slice(0, best))}::${hex(groups.slice(best + bestLen))}`;
    return this.zone ? `${s}%${this.zone}` : s;
  }
}

export class IPPrefix {
  constructor(
    readonly addr: IPAddr,
    readonly bits: number,
  ) {}
  masked(): IPPrefix {
    return new IPPrefix(new IPAddr(maskBytes(this.addr.bytes, this.bits)), this.bits);
  }
  contains(ip: IPAddr): boolean {
    if (ip.zone !== '' || ip.bytes.length !== this.addr.bytes.length) return false;
    return equalBytes(maskBytes(ip.bytes, this.bits), maskBytes(this.addr.bytes, this.bits));
  }
  overlaps(o: IPPrefix): boolean {
    if (o.addr.bytes.length !== this.addr.bytes.length) return false;
    const bits = Math.min(this.bits, o.bits);
    return equalBytes(maskBytes(this.addr.bytes, bits), maskBytes(o.addr.bytes, bits));
  }
  equals(o: IPPrefix): boolean {
    return this.bits === o.bits && this.addr.equals(o.addr);
  }
  toString(): string {
    return `${this.addr.toString()}/${this.bits}`;
  }
}

export class NetipError extends Error {}

function maskBytes(b: Uint8Array, bits: number): Uint8Array {
  const out = new Uint8Array(b);
  for (let i = 0; i < out.length; i++) {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    out[i] = out[i]! & ((0xff << (8 - keep)) & 0xff);
  }
  return out;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Go's strconv.Quote for the ASCII text addresses are made of. */
const quote = (s: string): string => JSON.stringify(s);

function addrError(input: string, msg: string, at = ''): NetipError {
  return new NetipError(`ParseAddr(${quote(input)}): ${msg}${at ? ` (at ${quote(at)})` : ''}`);
}

/** netip.ParseAddr. */
export function parseAddr(s: string): IPAddr {
  for (const c of s) {
    if (c === '.') return new IPAddr(parseIPv4Fields(s, 0, s.length));
    if (c === ':') return parseIPv6(s);
    if (c === '%') throw addrError(s, 'missing IPv6 address');
  }
  throw addrError(s, 'unable to parse IP');
}

function parseIPv4Fields(input: string, off: number, end: number): Uint8Array {
  const s = input.slice(off, end);
  const fields = new Uint8Array(4);
  let val = 0;
  let pos = 0;
  let digLen = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c >= '0' && c <= '9') {
      if (digLen === 1 && val === 0) throw addrError(input, 'IPv4 field has octet with leading zero');
      val = val * 10 + (c.charCodeAt(0) - 48);
      digLen++;
      if (val > 255) throw addrError(input, 'IPv4 field has value >255');
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') throw addrError(input, 'IPv4 field must have at least one digit', s.slice(i));
      if (pos === 3) throw addrError(input, 'IPv4 address too long');
      fields[pos++] = val;
      val = 0;
      digLen = 0;
    } else throw addrError(input, 'unexpected character', s.slice(i));
  }
  if (pos < 3) throw addrError(input, 'IPv4 address too short');
  fields[3] = val;
  return fields;
}

function parseIPv6(input: string): IPAddr {
  let s = input;
  let zone = '';
  const z = s.indexOf('%');
  if (z !== -1) {
    zone = s.slice(z + 1);
    s = s.slice(0, z);
    if (zone === '') throw addrError(input, 'zone must be a non-empty string');
  }
  const ip = new Uint8Array(16);
  let ellipsis = -1;
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === '') return new IPAddr(ip, zone);
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const d = parseInt(s[off]!, 16);
      if (Number.isNaN(d)) break;
      acc = acc * 16 + d;
      if (off > 3) throw addrError(input, 'each group must have 4 or less digits', s);
      if (acc > 0xffff) throw addrError(input, 'IPv6 field has value >=2^16', s);
    }
    if (off === 0) throw addrError(input, 'each colon-separated field must have at least one digit', s);
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) throw addrError(input, 'embedded IPv4 address must replace the final 2 fields of the address', s);
      if (i + 4 > 16) throw addrError(input, 'too many hex fields to fit an embedded IPv4 at the end of the address', s);
      const end = input.length - (zone ? zone.length + 1 : 0);
      ip.set(parseIPv4Fields(input, end - s.length, end), i);
      s = '';
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s === '') break;
    if (s[0] !== ':') throw addrError(input, 'unexpected character, want colon', s);
    if (s.length === 1) throw addrError(input, 'colon must be followed by more characters', s);
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) throw addrError(input, 'multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s === '') break;
    }
  }
  if (s !== '') throw addrError(input, 'trailing garbage after address', s);
  if (i < 16) {
    if (ellipsis < 0) throw addrError(input, 'address string too short');
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!;
    ip.fill(0, ellipsis, ellipsis + n);
  } else if (ellipsis >= 0) throw addrError(input, 'the :: must expand to at least one field of zeros', s);
  return new IPAddr(ip, zone);
}

/** netip.ParsePrefix. */
export function parsePrefix(s: string): IPPrefix {
  const fail = (msg: string) => new NetipError(`netip.ParsePrefix(${quote(s)}): ${msg}`);
  const i = s.lastIndexOf('/');
  if (i < 0) throw fail("no '/'");
  let ip: IPAddr;
  try {
    ip = parseAddr(s.slice(0, i));
  } catch (e) {
    throw fail((e as Error).message);
  }
  if (!ip.is4 && ip.zone !== '') throw fail('IPv6 zones cannot be present in a prefix');
  const bitsStr = s.slice(i + 1);
  if ((bitsStr.length > 1 && (bitsStr[0]! < '1' || bitsStr[0]! > '9')) || !/^[+-]?[0-9]+$/.test(bitsStr)) {
    throw fail(`bad bits after slash: ${quote(bitsStr)}`);
  }
  const bits = Number(bitsStr);
  if (bits < 0 || bits > ip.bitLen) throw fail('prefix length out of range');
  return new IPPrefix(ip, bits);
}
