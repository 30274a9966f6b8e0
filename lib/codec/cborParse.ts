// CBOR well-formedness pass (fxamacker/cbor v2.7.0's `wellformed`, with apimachinery's Decode
// options: indefinite lengths allowed, nesting ≤ 64, arrays and maps ≤ 1024 entries, NaN,
// infinities and bignum tags rejected, no bytes after the item). It checks the whole input before
// anything is decoded, as upstream does, and yields the item as a tree for the typed decoder
// (cborDecode.ts). Messages are fxamacker's.

export class CborError extends Error {}

export const enum Major {
  uint = 0,
  nint = 1,
  bytes = 2,
  text = 3,
  array = 4,
  map = 5,
  tag = 6,
  simple = 7,
}

export type CborNode =
  | { major: Major.uint | Major.nint; value: bigint }
  | { major: Major.bytes | Major.text; value: Uint8Array }
  | { major: Major.array; items: CborNode[] }
  /** Keys and values alternate. */
  | { major: Major.map; entries: CborNode[] }
  | { major: Major.tag; tag: bigint; content: CborNode }
  /** `simple` for 0…255, `float` for floating-point numbers. */
  | { major: Major.simple; simple?: number; float?: number };

/** fxamacker's cborType.String(). */
export function majorName(m: Major): string {
  return ['positive integer', 'negative integer', 'byte string', 'UTF-8 text string', 'array', 'map', 'tag', 'primitives'][m];
}

export const maxNestedLevels = 64;
export const maxArrayElements = 1024;
export const maxMapPairs = 1024;

const unexpectedEOF = (): CborError => new CborError('unexpected EOF');

function float16(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const mant = bits & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

function acceptableFloat(f: number): void {
  if (Number.isNaN(f)) throw new CborError('cbor: data item of cbor type primitives is not accepted by protocol: floating-point NaN');
  if (!Number.isFinite(f)) throw new CborError('cbor: data item of cbor type primitives is not accepted by protocol: floating-point infinity');
}

class Parser {
  off = 0;
  constructor(private readonly data: Uint8Array) {}

  private view(): DataView {
    return new DataView(this.data.buffer, this.data.byteOffset, this.data.byteLength);
  }

  /** Reads a head: major type, additional information and argument (float value for floats). */
  head(): { major: Major; ai: number; val: bigint; float?: number } {
    if (this.off >= this.data.length) throw unexpectedEOF();
    const ib = this.data[this.off++];
    const major = (ib >> 5) as Major;
    const ai = ib & 0x1f;
    const left = this.data.length - this.off;
    if (ai <= 23) return { major, ai, val: BigInt(ai) };
    if (ai === 24) {
      if (left < 1) throw unexpectedEOF();
      const v = this.data[this.off++];
      if (major === Major.simple && v < 32) throw new CborError(`cbor: invalid simple value ${v} for type primitives`);
      return { major, ai, val: BigInt(v) };
    }
    if (ai === 25) {
      if (left < 2) throw unexpectedEOF();
      const v = this.view().getUint16(this.off);
      this.off += 2;
      if (major === Major.simple) {
        const f = float16(v);
        acceptableFloat(f);
        return { major, ai, val: BigInt(v), float: f };
      }
      return { major, ai, val: BigInt(v) };
    }
    if (ai === 26) {
      if (left < 4) throw unexpectedEOF();
      const dv = this.view();
      const v = dv.getUint32(this.off);
      const f = major === Major.simple ? dv.getFloat32(this.off) : undefined;
      this.off += 4;
      if (f !== undefined) acceptableFloat(f);
      return { major, ai, val: BigInt(v), float: f };
    }
    if (ai === 27) {
      if (left < 8) throw unexpectedEOF();
      const dv = this.view();
      const v = dv.getBigUint64(this.off);
      const f = major === Major.simple ? dv.getFloat64(this.off) : undefined;
      this.off += 8;
      if (f !== undefined) acceptableFloat(f);
      return { major, ai, val: v, float: f };
    }
    if (ai === 31) {
      if (major === Major.uint || major === Major.nint || major === Major.tag) {
        throw new CborError(`cbor: invalid additional information 31 for type ${majorName(major)}`);
      }
      if (major === Major.simple) throw new CborError('cbor: unexpected "break" code');
      return { major, ai, val: 0n };
    }
    throw new CborError(`cbor: invalid additional information ${ai} for type ${majorName(major)}`);
  }

  private isBreak(): boolean {
    if (this.off >= this.data.length) throw unexpectedEOF();
    return this.data[this.off] === 0xff;
  }

  private length(major: Major, val: bigint, verb: string): number {
    if (val > 0x7fffffffffffffffn) throw new CborError(`cbor: ${majorName(major)} length ${val} is too large, ${verb} integer overflow`);
    return Number(val);
  }

  item(depth: number): CborNode {
    const h = this.head();
    switch (h.major) {
      case Major.uint:
      case Major.nint:
        return { major: h.major, value: h.val };
      case Major.bytes:
      case Major.text: {
        if (h.ai === 31) {
          const chunks: Uint8Array[] = [];
          for (;;) {
            if (this.isBreak()) {
              this.off++;
              break;
            }
            const nb = this.data[this.off];
            const nt = (nb >> 5) as Major;
            if (nt !== h.major) throw new CborError(`cbor: wrong element type ${majorName(nt)} for indefinite-length ${majorName(h.major)}`);
            if ((nb & 0x1f) === 31) throw new CborError(`cbor: indefinite-length ${majorName(h.major)} chunk is not definite-length`);
            chunks.push((this.item(depth) as { value: Uint8Array }).value);
          }
          return { major: h.major, value: Buffer.concat(chunks) };
        }
        const n = this.length(h.major, h.val, 'causing');
        if (this.data.length - this.off < n) throw unexpectedEOF();
        const value = this.data.subarray(this.off, this.off + n);
        this.off += n;
        return { major: h.major, value };
      }
      case Major.array:
      case Major.map: {
        depth++;
        if (depth > maxNestedLevels) throw new CborError(`cbor: exceeded max nested level ${maxNestedLevels}`);
        const out: CborNode[] = [];
        if (h.ai === 31) {
          for (let i = 0; ; ) {
            if (this.isBreak()) {
              this.off++;
              break;
            }
            out.push(this.item(depth));
            i++;
            if (h.major === Major.array) {
              if (i > maxArrayElements) throw new CborError(`cbor: exceeded max number of elements ${maxArrayElements} for CBOR array`);
            } else if (i % 2 === 0 && i / 2 > maxMapPairs) {
              throw new CborError(`cbor: exceeded max number of key-value pairs ${maxMapPairs} for CBOR map`);
            }
          }
          if (h.major === Major.map && out.length % 2 === 1) throw new CborError('cbor: unexpected "break" code');
        } else {
          const n = this.length(h.major, h.val, 'it would cause');
          if (h.major === Major.array && n > maxArrayElements) throw new CborError(`cbor: exceeded max number of elements ${maxArrayElements} for CBOR array`);
          if (h.major === Major.map && n > maxMapPairs) throw new CborError(`cbor: exceeded max number of key-value pairs ${maxMapPairs} for CBOR map`);
          const count = h.major === Major.map ? 2 * n : n;
          for (let i = 0; i < count; i++) out.push(this.item(depth));
        }
        return h.major === Major.array ? { major: Major.array, items: out } : { major: Major.map, entries: out };
      }
      case Major.tag: {
        if (this.off >= this.data.length) throw unexpectedEOF();
        if (h.val === 2n || h.val === 3n) throw new CborError('cbor: data item of cbor type tag is not accepted by protocol: bignum');
        // Nested tag numbers count towards the nesting limit, the first does not.
        let d = depth;
        if ((this.data[this.off] >> 5) === Major.tag) d++;
        if (d > maxNestedLevels) throw new CborError(`cbor: exceeded max nested level ${maxNestedLevels}`);
        return { major: Major.tag, tag: h.val, content: this.item(d) };
      }
      case Major.simple:
        if (h.float !== undefined) return { major: Major.simple, float: h.float };
        return { major: Major.simple, simple: Number(h.val) };
    }
  }
}

/** Checks that `data` is exactly one well-formed, acceptable CBOR item and returns it. */
export function parseCBOR(data: Uint8Array): CborNode {
  if (data.length === 0) throw new CborError('EOF');
  const p = new Parser(data);
  const node = p.item(0);
  if (p.off !== data.length) throw new CborError(`cbor: ${data.length - p.off} bytes of extraneous data starting at index ${p.off}`);
  return node;
}

/**
 * Splits a CBOR sequence (RFC 8742, `application/cbor-seq`) into its items' bytes; a trailing
 * incomplete item stays in `rest`.
 */
export function splitCBORSequence(data: Uint8Array): { items: Uint8Array[]; rest: Uint8Array } {
  const items: Uint8Array[] = [];
  let start = 0;
  while (start < data.length) {
    const p = new Parser(data.subarray(start));
    try {
      p.item(0);
    } catch (e) {
      if (e instanceof CborError && e.message === 'unexpected EOF') break;
      throw e;
    }
    items.push(data.subarray(start, start + p.off));
    start += p.off;
  }
  return { items, rest: data.subarray(start) };
}
