// Protobuf wire format, writing side: one growable buffer per message, for etcd's requests and the
// API's Protobuf bodies alike. Nested messages are written in place: begin() reserves one byte for
// the length, end() writes it (moving the body only when the length needs more bytes), so no
// intermediate buffers are made. Varints take bitwise number paths; BigInt only for negative
// values in varint() (sign-extended to 10 bytes, as Go does for int32/int64) and beyond 2^53.
import { varintLength, WireType } from './reader';

const TWO_32 = 4294967296;
const utf8 = new TextEncoder();

export class ProtoWriter {
  private buf: Buffer;
  private pos: number;

  /**
   * `reserve` bytes at the start are left for the caller (the gRPC length prefix). `pooled`: the
   * bytes are sent and dropped at once (etcd requests), so small buffers may come from Node's
   * shared pool; otherwise each buffer is memory of its own, as encodings are kept in caches and
   * a pool slice would pin a whole slab.
   */
  constructor(
    sizeHint = 256,
    reserve = 0,
    private readonly pooled = false,
  ) {
    this.buf = this.alloc(Math.max(sizeHint, reserve + 16));
    this.pos = reserve;
  }

  private alloc(n: number): Buffer {
    return this.pooled ? Buffer.allocUnsafe(n) : Buffer.allocUnsafeSlow(n);
  }

  get length(): number {
    return this.pos;
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = this.alloc(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** A varint of a uint32 (the value is truncated to one). */
  uint32(v: number): void {
    this.ensure(5);
    const b = this.buf;
    let p = this.pos;
    v >>>= 0;
    while (v > 0x7f) {
      b[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    b[p++] = v;
    this.pos = p;
  }

  /** An int64/uint64 varint from a number; negative numbers as 64-bit two's complement (10 bytes). */
  int64(v: number): void {
    if (v >= 0 && v < TWO_32) {
      this.uint32(v);
      return;
    }
    let hi = Math.floor(v / TWO_32);
    let lo = v - hi * TWO_32;
    hi >>>= 0;
    lo >>>= 0;
    this.ensure(10);
    const b = this.buf;
    let p = this.pos;
    while (hi > 0 || lo > 0x7f) {
      b[p++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    b[p++] = lo;
    this.pos = p;
  }

  private rawVarint(v: bigint | number): void {
    if (typeof v === 'number' && v >= 0 && v <= Number.MAX_SAFE_INTEGER) {
      this.int64(v);
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
    this.uint32(field * 8 + wireType);
  }

  /** A varint field; negative values are sign-extended to 64 bits as Go does for int32/int64. */
  varint(field: number, v: bigint | number | boolean): void {
    this.tag(field, WireType.varint);
    this.rawVarint(typeof v === 'boolean' ? (v ? 1 : 0) : v);
  }

  /** A length-delimited field's tag and length alone; the caller places the payload after it. */
  bytesHeader(field: number, length: number): void {
    this.tag(field, WireType.bytes);
    this.int64(length);
  }

  bytes(field: number, b: Uint8Array): void {
    this.bytesHeader(field, b.length);
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
    const size = varintLength(len);
    if (size > 1) {
      this.ensure(size - 1);
      this.buf.copyWithin(marker + size, marker + 1, this.pos);
      this.pos += size - 1;
    }
    // The body is in place: write the varint without ensure() (which could reallocate).
    const b = this.buf;
    let at = marker;
    let x = len;
    while (x > 0x7f) {
      b[at++] = (x & 0x7f) | 0x80;
      x >>>= 7;
    }
    b[at] = x;
  }

  /** A `double` field: fixed64, IEEE 754 little-endian. */
  double(field: number, v: number): void {
    this.tag(field, WireType.fixed64);
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
  }

  /** A copy, in memory of its own, of the bytes written since `from`. */
  copy(from: number): Uint8Array {
    return Uint8Array.prototype.slice.call(this.buf, from, this.pos);
  }

  /** The message's bytes, including any reserved prefix (a view: the writer must not be used afterwards). */
  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}
