// DER encoding of the few ASN.1 types a certificate is made of. Issuance writes bytes directly:
// a generic schema-driven encoder spent most of a signature's time building and re-parsing trees.

/** Universal tags used here. */
const tag = {
  boolean: 0x01,
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  null: 0x05,
  oid: 0x06,
  utcTime: 0x17,
  generalizedTime: 0x18,
  sequence: 0x30,
  set: 0x31,
} as const;

function lengthBytes(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** Tag, length and the concatenated contents. */
export function tlv(tagByte: number, ...contents: readonly Uint8Array[]): Buffer {
  const body = Buffer.concat(contents);
  return Buffer.concat([Buffer.from([tagByte]), lengthBytes(body.length), body]);
}

export const sequence = (...items: readonly Uint8Array[]): Buffer => tlv(tag.sequence, ...items);
export const set = (...items: readonly Uint8Array[]): Buffer => tlv(tag.set, ...items);
export const octetString = (bytes: Uint8Array): Buffer => tlv(tag.octetString, bytes);
export const nullValue = (): Buffer => Buffer.from([tag.null, 0]);
export const booleanTrue = (): Buffer => Buffer.from([tag.boolean, 1, 0xff]);

/** [n] EXPLICIT: a constructed context tag around one encoded value. */
export const explicit = (n: number, value: Uint8Array): Buffer => tlv(0xa0 | n, value);

/** [n] IMPLICIT on a primitive value (e.g. GeneralName's dNSName [2] IA5String). */
export const implicitPrimitive = (n: number, bytes: Uint8Array): Buffer => tlv(0x80 | n, bytes);

export function objectIdentifier(dotted: string): Buffer {
  const arcs = dotted.split('.').map((a) => {
    if (!/^\d+$/.test(a)) throw new Error(`invalid object identifier ${dotted}`);
    return BigInt(a);
  });
  if (arcs.length < 2) throw new Error(`invalid object identifier ${dotted}`);
  const out: number[] = [];
  for (const arc of [arcs[0] * 40n + arcs[1], ...arcs.slice(2)]) {
    const groups = [Number(arc & 0x7fn)];
    for (let v = arc >> 7n; v > 0n; v >>= 7n) groups.unshift(Number(v & 0x7fn) | 0x80);
    out.push(...groups);
  }
  return tlv(tag.oid, Buffer.from(out));
}

/** A non-negative INTEGER from big-endian magnitude bytes: minimal, with a 0x00 when the top bit is set. */
export function unsignedInteger(magnitude: Uint8Array): Buffer {
  let i = 0;
  while (i < magnitude.length - 1 && magnitude[i] === 0) i++;
  const trimmed = magnitude.length ? Buffer.from(magnitude.subarray(i)) : Buffer.from([0]);
  return tlv(tag.integer, trimmed[0] & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

export function smallInteger(n: number): Buffer {
  if (!Number.isInteger(n) || n < 0 || n > 0x7fffffff) throw new Error(`smallInteger: ${n}`);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return unsignedInteger(Buffer.from(bytes.length ? bytes : [0]));
}

export function bitString(bytes: Uint8Array, unusedBits = 0): Buffer {
  return tlv(tag.bitString, Buffer.from([unusedBits]), bytes);
}

/**
 * A NamedBitList BIT STRING (KeyUsage) from flags where bit i is the i-th named bit: bit 0 is the
 * most significant bit of the first byte, and trailing zero bits are dropped, as DER requires.
 */
export function namedBits(flags: number): Buffer {
  if (flags === 0) return bitString(Buffer.alloc(0));
  let highest = 0;
  for (let i = 0; i < 32; i++) if (flags & (1 << i)) highest = i;
  const bytes = Buffer.alloc((highest >> 3) + 1);
  for (let i = 0; i <= highest; i++) if (flags & (1 << i)) bytes[i >> 3] |= 0x80 >> (i & 7);
  return bitString(bytes, 7 - (highest & 7));
}

/** RFC 5280 §4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050; whole seconds, Z. */
export function time(d: Date): Buffer {
  const iso = d.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const year = d.getUTCFullYear();
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '');
  if (year >= 1950 && year < 2050) return tlv(tag.utcTime, Buffer.from(`${digits.slice(2)}Z`, 'latin1'));
  return tlv(tag.generalizedTime, Buffer.from(`${digits}Z`, 'latin1'));
}

/** Header of the element at `offset`: where its contents start and end. */
export function readElement(der: Uint8Array, offset = 0): { tag: number; start: number; end: number } {
  if (offset + 2 > der.length) throw new Error('DER: truncated');
  const t = der[offset];
  let len = der[offset + 1];
  let start = offset + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || start + n > der.length) throw new Error('DER: bad length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + der[start + i];
    start += n;
  }
  if (start + len > der.length) throw new Error('DER: truncated');
  return { tag: t, start, end: start + len };
}

/** Dotted text of an OBJECT IDENTIFIER's content bytes. */
export function decodeOid(content: Uint8Array): string {
  const arcs: number[] = [];
  let v = 0;
  for (const b of content) {
    v = v * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      arcs.push(v);
      v = 0;
    }
  }
  const first = arcs.shift() ?? 0;
  const head = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80];
  return [...head, ...arcs].join('.');
}

/** The subjectPublicKey BIT STRING's bits (without the unused-bits byte) of a SubjectPublicKeyInfo. */
export function subjectPublicKeyBits(spki: Uint8Array): Buffer {
  const outer = readElement(spki);
  const algorithm = readElement(spki, outer.start);
  const bits = readElement(spki, algorithm.end);
  if (outer.tag !== tag.sequence || algorithm.tag !== tag.sequence || bits.tag !== tag.bitString) throw new Error('not a SubjectPublicKeyInfo');
  return Buffer.from(spki.subarray(bits.start + 1, bits.end));
}

/** PEM with 64-character lines and a trailing newline. */
export function toPem(label: string, der: Uint8Array): string {
  const b64 = Buffer.from(der).toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 64) lines.push(b64.slice(i, i + 64));
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
