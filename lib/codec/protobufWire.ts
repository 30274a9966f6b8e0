// Protobuf wire format (proto2): a reader and a writer for varints, fixed-width and
// length-delimited fields. Reader errors carry the texts of the gogo-generated Go
// unmarshallers upstream uses (generated.pb.go: ErrIntOverflowGenerated,
// ErrInvalidLengthGenerated, io.ErrUnexpectedEOF, skipGenerated), because the apiserver
// puts them verbatim into its 400 messages.

/** A malformed Protobuf message; `message` is upstream's error text. */
export class ProtobufError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtobufError';
  }
}

export const WireType = { varint: 0, fixed64: 1, bytes: 2, startGroup: 3, endGroup: 4, fixed32: 5 } as const;

const errUnexpectedEOF = 'unexpected EOF';
const errIntOverflow = 'proto: integer overflow';
const errInvalidLength = 'proto: negative length found during unmarshaling';
const errUnexpectedEndOfGroup = 'proto: unexpected end of group';

export interface Tag {
  field: number;
  wireType: number;
}

/** Reads one message (the bytes [start, end) of `buf`). */
export class WireReader {
  pos: number;

  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  done(): boolean {
    return this.pos >= this.end;
  }

  /** An unsigned varint as Go reads it into a uint64 (at most 10 bytes, bits past 64 dropped). */
  uvarint(): bigint {
    let v = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (shift >= 64n) throw new ProtobufError(errIntOverflow);
      if (this.pos >= this.end) throw new ProtobufError(errUnexpectedEOF);
      const b = this.buf[this.pos++];
      v |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) break;
    }
    return BigInt.asUintN(64, v);
  }

  /** A field key; `message` is the Go type name used in upstream's errors ("ObjectMeta"). */
  tag(message: string): Tag {
    const wire = this.uvarint();
    const field = Number(BigInt.asIntN(32, wire >> 3n));
    const wireType = Number(wire & 7n);
    if (wireType === WireType.endGroup) throw new ProtobufError(`proto: ${message}: wiretype end group for non-group`);
    if (field <= 0) throw new ProtobufError(`proto: ${message}: illegal tag ${field} (wire type ${wire})`);
    return { field, wireType };
  }

  /** The payload of a length-delimited field. */
  bytes(): Uint8Array {
    const len = BigInt.asIntN(64, this.uvarint());
    if (len < 0n) throw new ProtobufError(errInvalidLength);
    const post = BigInt(this.pos) + len;
    if (post > BigInt(this.end)) throw new ProtobufError(errUnexpectedEOF);
    const out = this.buf.subarray(this.pos, Number(post));
    this.pos = Number(post);
    return out;
  }

  /** A sub-reader over the payload of a length-delimited field. */
  message(): WireReader {
    const b = this.bytes();
    return new WireReader(b);
  }

  /** Skips the field whose key started at `tagStart` (skipGenerated, groups included). */
  skipFrom(tagStart: number): void {
    this.pos = tagStart;
    let depth = 0;
    while (this.pos < this.end) {
      const wireType = Number(this.uvarint() & 7n);
      switch (wireType) {
        case WireType.varint:
          this.uvarint();
          break;
        case WireType.fixed64:
          this.advance(8);
          break;
        case WireType.bytes:
          this.bytes();
          break;
        case WireType.startGroup:
          depth++;
          break;
        case WireType.endGroup:
          if (depth === 0) throw new ProtobufError(errUnexpectedEndOfGroup);
          depth--;
          break;
        case WireType.fixed32:
          this.advance(4);
          break;
        default:
          throw new ProtobufError(`proto: illegal wireType ${wireType}`);
      }
      if (depth === 0) return;
    }
    throw new ProtobufError(errUnexpectedEOF);
  }

  private advance(n: number): void {
    if (this.pos + n > this.end) throw new ProtobufError(errUnexpectedEOF);
    this.pos += n;
  }
}

const utf8 = new TextEncoder();

const varintSize = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);

/**
 * Builds one message in a growable byte buffer. Nested messages are written in place: `begin`
 * reserves one byte for the length, `end` writes it (moving the body when the length needs more
 * bytes), so no intermediate buffers are made. Varints take a number fast path: BigInt is only
 * needed for negative values (sign-extended to 10 bytes) and values beyond 2^53.
 */
export class WireWriter {
  private buf = new Uint8Array(256);
  private pos = 0;

  get length(): number {
    return this.pos;
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  private rawVarint(v: bigint | number): void {
    if (typeof v === 'number' && v >= 0 && v <= Number.MAX_SAFE_INTEGER) {
      this.ensure(8);
      let x = v;
      while (x >= 0x80) {
        this.buf[this.pos++] = (x % 0x80) | 0x80;
        x = Math.floor(x / 0x80);
      }
      this.buf[this.pos++] = x;
      return;
    }
    let x = BigInt.asUintN(64, BigInt(v));
    this.ensure(10);
    while (x >= 0x80n) {
      this.buf[this.pos++] = Number(x & 0x7fn) | 0x80;
      x >>= 7n;
    }
    this.buf[this.pos++] = Number(x);
  }

  tag(field: number, wireType: number): void {
    this.rawVarint(field * 8 + wireType);
  }

  /** A varint field; negative values are sign-extended to 64 bits as Go does for int32/int64. */
  varint(field: number, v: bigint | number | boolean): void {
    this.tag(field, WireType.varint);
    this.rawVarint(typeof v === 'boolean' ? (v ? 1 : 0) : v);
  }

  /** A length-delimited field's tag and length alone; the caller places the payload after it. */
  bytesHeader(field: number, length: number): void {
    this.tag(field, WireType.bytes);
    this.rawVarint(length);
  }

  bytes(field: number, b: Uint8Array): void {
    this.tag(field, WireType.bytes);
    this.rawVarint(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  string(field: number, s: string): void {
    const m = this.begin(field);
    this.ensure(s.length * 3);
    // Short ASCII strings (names, keys) are copied directly; encodeInto's view costs more.
    let i = 0;
    if (s.length <= 64) {
      const start = this.pos;
      for (; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        this.buf[start + i] = c;
      }
      if (i < s.length) i = 0;
      else this.pos += i;
    }
    if (i === 0 && s.length > 0) this.pos += utf8.encodeInto(s, this.buf.subarray(this.pos)).written;
    this.end(m);
  }

  /** Starts a length-delimited field written in place; returns the marker for `end`. */
  begin(field: number): number {
    this.tag(field, WireType.bytes);
    this.ensure(1);
    return this.pos++;
  }

  /** Ends the field `begin` started: writes its length before the body. */
  end(marker: number): void {
    const len = this.pos - marker - 1;
    const size = varintSize(len);
    if (size > 1) {
      this.ensure(size - 1);
      this.buf.copyWithin(marker + size, marker + 1, this.pos);
      this.pos += size - 1;
    }
    let x = len;
    let at = marker;
    while (x >= 0x80) {
      this.buf[at++] = (x % 0x80) | 0x80;
      x = Math.floor(x / 0x80);
    }
    this.buf[at] = x;
  }

  /** A `double` field: fixed64, IEEE 754 little-endian. */
  double(field: number, v: number): void {
    this.tag(field, WireType.fixed64);
    this.ensure(8);
    new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).setFloat64(0, v, true);
    this.pos += 8;
  }

  /** A copy of the bytes written since `from`. */
  copy(from: number): Uint8Array {
    return this.buf.slice(from, this.pos);
  }

  /** The message's bytes (a view: the writer must not be used afterwards). */
  finish(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}
