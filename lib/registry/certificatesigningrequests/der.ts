// A minimal DER reader: just enough to find the raw pieces of a PKCS#10 request (the signed
// bytes, the algorithm OIDs, the signature) and to split concatenated certificates, with the
// asn1 error texts Go's parser would give.

export class DerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DerError';
  }
}

export const derTags = {
  integer: 0x02,
  bitString: 0x03,
  null: 0x05,
  oid: 0x06,
  sequence: 0x30,
} as const;

/** One tag-length-value element located inside a buffer. */
export interface DerElement {
  tag: number;
  /** Offset of the tag byte. */
  start: number;
  /** Offset of the first content byte. */
  contentStart: number;
  /** Offset just past the element. */
  end: number;
}

const truncated = 'asn1: syntax error: data truncated';

/** Reads the element starting at `offset`; throws DerError when it does not fit the buffer. */
export function readElement(buf: Uint8Array, offset: number): DerElement {
  let p = offset;
  if (p >= buf.length) throw new DerError(truncated);
  const tag = buf[p++];
  if ((tag & 0x1f) === 0x1f) {
    // High tag number form: base-128 continuation bytes.
    while (p < buf.length && buf[p] & 0x80) p++;
    p++;
  }
  if (p >= buf.length) throw new DerError(truncated);
  const first = buf[p++];
  let length: number;
  if (first < 0x80) {
    length = first;
  } else if (first === 0x80) {
    throw new DerError('asn1: syntax error: indefinite length found (not DER)');
  } else {
    const n = first & 0x7f;
    if (n > 4) throw new DerError('asn1: structure error: length too large');
    if (p + n > buf.length) throw new DerError(truncated);
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + buf[p++];
  }
  if (p + length > buf.length) throw new DerError(truncated);
  return { tag, start: offset, contentStart: p, end: p + length };
}

/** The direct children of a constructed element. */
export function children(buf: Uint8Array, el: DerElement): DerElement[] {
  const out: DerElement[] = [];
  let p = el.contentStart;
  while (p < el.end) {
    const c = readElement(buf.subarray(0, el.end), p);
    out.push(c);
    p = c.end;
  }
  return out;
}

export function contentOf(buf: Uint8Array, el: DerElement): Uint8Array {
  return buf.subarray(el.contentStart, el.end);
}

export function rawOf(buf: Uint8Array, el: DerElement): Uint8Array {
  return buf.subarray(el.start, el.end);
}

/** Dotted text of an OBJECT IDENTIFIER element's content. */
export function decodeOid(content: Uint8Array): string {
  if (content.length === 0) throw new DerError('asn1: syntax error: zero length OBJECT IDENTIFIER');
  const arcs: number[] = [];
  let value = 0;
  for (const b of content) {
    value = value * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      arcs.push(value);
      value = 0;
    }
  }
  const first = arcs.shift() ?? 0;
  const head = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80];
  return [...head, ...arcs].join('.');
}

/** Non-negative INTEGER content as a number (small values only: salt lengths, versions). */
export function decodeSmallInteger(content: Uint8Array): number {
  let v = 0;
  for (const b of content) v = v * 256 + b;
  return v;
}
