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

/** Builds one message; nested messages are built in their own writer and appended. */
export class WireWriter {
  private chunks: number[] = [];

  get length(): number {
    return this.chunks.length;
  }

  private rawVarint(v: bigint): void {
    let x = BigInt.asUintN(64, v);
    while (x >= 0x80n) {
      this.chunks.push(Number(x & 0x7fn) | 0x80);
      x >>= 7n;
    }
    this.chunks.push(Number(x));
  }

  tag(field: number, wireType: number): void {
    this.rawVarint((BigInt(field) << 3n) | BigInt(wireType));
  }

  /** A varint field; negative values are sign-extended to 64 bits as Go does for int32/int64. */
  varint(field: number, v: bigint | number | boolean): void {
    this.tag(field, WireType.varint);
    this.rawVarint(typeof v === 'boolean' ? (v ? 1n : 0n) : BigInt(v));
  }

  bytes(field: number, b: Uint8Array): void {
    this.tag(field, WireType.bytes);
    this.rawVarint(BigInt(b.length));
    for (const x of b) this.chunks.push(x);
  }

  string(field: number, s: string): void {
    this.bytes(field, utf8.encode(s));
  }

  /** A `double` field: fixed64, IEEE 754 little-endian. */
  double(field: number, v: number): void {
    this.tag(field, WireType.fixed64);
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, v, true);
    for (const x of b) this.chunks.push(x);
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.chunks);
  }
}
