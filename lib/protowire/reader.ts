// Protobuf wire format, reading side: varints, keys, fixed-width and length-delimited fields, for
// etcd's responses and the API's Protobuf bodies alike. Errors carry the texts of the
// gogo-generated Go unmarshallers upstream uses (generated.pb.go: ErrIntOverflowGenerated,
// ErrInvalidLengthGenerated, io.ErrUnexpectedEOF, skipGenerated), because the apiserver puts them
// verbatim into its 400 messages. Varints take a number fast path; BigInt only for the rare
// varint longer than 4 bytes where Go's exact uint64 semantics matter.

/** A malformed Protobuf message; `message` is upstream's error text. */
export class ProtobufError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtobufError';
  }
}

export const WireType = { varint: 0, fixed64: 1, bytes: 2, startGroup: 3, endGroup: 4, fixed32: 5 } as const;

export const errUnexpectedEOF = 'unexpected EOF';
const errIntOverflow = 'proto: integer overflow';
const errInvalidLength = 'proto: negative length found during unmarshaling';
const errUnexpectedEndOfGroup = 'proto: unexpected end of group';

const TWO_32 = 4294967296;

export interface Tag {
  field: number;
  wireType: number;
}

/** Reads one message: the bytes [start, end) of `buf`. */
export class ProtoReader {
  pos: number;

  constructor(
    readonly buf: Uint8Array,
    start = 0,
    /** Moved in and out by message() while a nested message is read. */
    public end = buf.length,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** A varint of at most 4 bytes (< 2^28) as a number, or -1 (nothing read) for a longer one. */
  private small(): number {
    const b = this.buf;
    let p = this.pos;
    let v = 0;
    for (let shift = 0; shift < 28 && p < this.end; shift += 7) {
      const byte = b[p++];
      v |= (byte & 0x7f) << shift;
      if (byte < 0x80) {
        this.pos = p;
        return v;
      }
    }
    return -1;
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

  /** A uint32 varint; a longer one (an int32 field holding a negative number) keeps its low 32 bits. */
  uint32(): number {
    const b = this.buf;
    let p = this.pos;
    let v = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (p >= this.end) throw new ProtobufError(errUnexpectedEOF);
      const byte = b[p++];
      v |= (byte & 0x7f) << shift;
      if (byte < 0x80) {
        this.pos = p;
        return v >>> 0;
      }
    }
    this.pos = p;
    this.skipVarintRest();
    return v >>> 0;
  }

  /** An int64 varint as a number (two's complement for negative values; exact below 2^53). */
  int64(): number {
    const b = this.buf;
    let p = this.pos;
    // Fast path: up to 4 bytes (< 2^28).
    let lo = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      if (p >= this.end) throw new ProtobufError(errUnexpectedEOF);
      const byte = b[p++];
      lo |= (byte & 0x7f) << shift;
      if (byte < 0x80) {
        this.pos = p;
        return lo;
      }
    }
    // Byte 5 carries bits 28–34: 4 into lo, 3 into hi.
    if (p >= this.end) throw new ProtobufError(errUnexpectedEOF);
    let byte = b[p++];
    lo = (lo | ((byte & 0x0f) << 28)) >>> 0;
    let hi = (byte & 0x7f) >>> 4;
    for (let shift = 3; byte >= 0x80; shift += 7) {
      if (shift > 31) throw new ProtobufError(errIntOverflow);
      if (p >= this.end) throw new ProtobufError(errUnexpectedEOF);
      byte = b[p++];
      hi = (hi | ((byte & 0x7f) << shift)) >>> 0;
    }
    this.pos = p;
    if (hi & 0x80000000) {
      // Negative: -(~value + 1).
      const nlo = (~lo >>> 0) + 1;
      return -(((~hi >>> 0) + (nlo === TWO_32 ? 1 : 0)) * TWO_32 + (nlo % TWO_32));
    }
    return hi * TWO_32 + lo;
  }

  bool(): boolean {
    return this.int64() !== 0;
  }

  /** A field's key as one number: field number << 3 | wire type (callers switch on it). */
  tag(): number {
    return this.uint32();
  }

  /** A field's key, checked as Go does; `message` is the Go type name in its errors ("ObjectMeta"). */
  key(message: string): Tag {
    const at = this.pos;
    const s = this.small();
    if (s > 7 && (s & 7) !== WireType.endGroup) return { field: s >>> 3, wireType: s & 7 };
    this.pos = at;
    const wire = this.uvarint();
    const field = Number(BigInt.asIntN(32, wire >> 3n));
    const wireType = Number(wire & 7n);
    if (wireType === WireType.endGroup) throw new ProtobufError(`proto: ${message}: wiretype end group for non-group`);
    if (field <= 0) throw new ProtobufError(`proto: ${message}: illegal tag ${field} (wire type ${wire})`);
    return { field, wireType };
  }

  /** A length-delimited field's length, checked against the message's end (Go's rules). */
  private length(): number {
    let len = this.small();
    if (len < 0) {
      const big = BigInt.asIntN(64, this.uvarint());
      if (big < 0n) throw new ProtobufError(errInvalidLength);
      if (BigInt(this.pos) + big > BigInt(this.end)) throw new ProtobufError(errUnexpectedEOF);
      len = Number(big);
    }
    if (this.pos + len > this.end) throw new ProtobufError(errUnexpectedEOF);
    return len;
  }

  /** The payload of a length-delimited field (a view of the buffer). */
  bytes(): Uint8Array {
    const len = this.length();
    const start = this.pos;
    this.pos += len;
    return this.buf.subarray(start, this.pos);
  }

  /** The bounds of a length-delimited field's content; the reader moves past it. */
  lengthDelimited(): [number, number] {
    const len = this.length();
    const start = this.pos;
    this.pos += len;
    return [start, this.pos];
  }

  /** A nested message read by `read` with this reader limited to it; returns what `read` returns. */
  message<T>(read: (r: this) => T): T {
    const len = this.length();
    const end = this.pos + len;
    const outer = this.end;
    this.end = end;
    // No try/finally: a decode error abandons the whole message.
    const v = read(this);
    this.end = outer;
    this.pos = end;
    return v;
  }

  /** A reader of its own over a nested message. */
  nested(): ProtoReader {
    return new ProtoReader(this.bytes());
  }

  /** Skips the field whose key started at `tagStart`. */
  skipFrom(tagStart: number): void {
    this.pos = tagStart;
    if (this.pos >= this.end) throw new ProtobufError(errUnexpectedEOF);
    this.skip(Number(this.uvarint() & 7n));
  }

  /** Skips a field whose key (of this wire type) was just read: skipGenerated, groups included. */
  skip(wireType: number): void {
    let depth = 0;
    for (;;) {
      switch (wireType) {
        case WireType.varint:
          this.uvarint();
          break;
        case WireType.fixed64:
          this.advance(8);
          break;
        case WireType.bytes: {
          // Not `pos += length()`: that reads pos before length() moves it past the varint.
          const len = this.length();
          this.pos += len;
          break;
        }
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
      if (this.pos >= this.end) throw new ProtobufError(errUnexpectedEOF);
      wireType = Number(this.uvarint() & 7n);
    }
  }

  private advance(n: number): void {
    if (this.pos + n > this.end) throw new ProtobufError(errUnexpectedEOF);
    this.pos += n;
  }

  private skipVarintRest(): void {
    while (this.pos < this.end) {
      if (this.buf[this.pos++] < 0x80) return;
    }
    throw new ProtobufError(errUnexpectedEOF);
  }
}

/** Bytes a varint of this value (< 2^32) takes. */
export function varintLength(v: number): number {
  v >>>= 0;
  if (v < 0x80) return 1;
  if (v < 0x4000) return 2;
  if (v < 0x200000) return 3;
  if (v < 0x10000000) return 4;
  return 5;
}
