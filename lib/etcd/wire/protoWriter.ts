// A minimal protobuf writer for the etcd requests we send: varints (int64 as a JS number, exact
// below 2^53 as revisions are), length-delimited bytes and nested messages. A nested message is
// written in place and its content shifted right by its length's varint once known (a memmove of
// a few bytes to a few KiB), so one buffer serves the whole request, with the gRPC frame's 5-byte
// prefix reserved at its start.

const TWO_32 = 4294967296;

export class ProtoWriter {
  private buf: Buffer;
  private pos: number;

  /** `reserve` bytes at the start are left for the caller (the gRPC length prefix). */
  constructor(sizeHint = 128, reserve = 0) {
    this.buf = Buffer.allocUnsafe(Math.max(sizeHint, reserve + 16));
    this.pos = reserve;
  }

  get length(): number {
    return this.pos;
  }

  /** The bytes written so far, including the reserved prefix (a view of the buffer). */
  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  tag(field: number, wireType: number): void {
    this.uint32((field << 3) | wireType);
  }

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

  /** An int64/uint64 varint; negative numbers as 64-bit two's complement (10 bytes), as protobuf does. */
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

  bool(v: boolean): void {
    this.ensure(1);
    this.buf[this.pos++] = v ? 1 : 0;
  }

  bytes(v: Uint8Array): void {
    this.uint32(v.length);
    this.ensure(v.length);
    this.buf.set(v, this.pos);
    this.pos += v.length;
  }

  /** Starts a nested message (after its tag): returns the mark to pass to endMessage. */
  beginMessage(): number {
    return this.pos;
  }

  /** Ends a nested message: writes its length before its content. */
  endMessage(mark: number): void {
    const len = this.pos - mark;
    const n = varintSize(len);
    this.ensure(n);
    if (len > 0) this.buf.copyWithin(mark + n, mark, this.pos);
    // The shifted content is already in place: write the varint without ensure() (which could
    // reallocate and copy only up to `mark`).
    const b = this.buf;
    let p = mark;
    let v = len;
    while (v > 0x7f) {
      b[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    b[p] = v;
    this.pos += n;
  }
}

export function varintSize(v: number): number {
  v >>>= 0;
  if (v < 0x80) return 1;
  if (v < 0x4000) return 2;
  if (v < 0x200000) return 3;
  if (v < 0x10000000) return 4;
  return 5;
}

// Field helpers that leave proto3 defaults out, as every protobuf encoder does.
export const WireType = { VARINT: 0, FIXED64: 1, LEN: 2, FIXED32: 5 } as const;

export function writeInt64Field(w: ProtoWriter, field: number, v: number | undefined): void {
  if (!v) return;
  w.tag(field, WireType.VARINT);
  w.int64(v);
}

export function writeBoolField(w: ProtoWriter, field: number, v: boolean | undefined): void {
  if (!v) return;
  w.tag(field, WireType.VARINT);
  w.bool(true);
}

export function writeBytesField(w: ProtoWriter, field: number, v: Uint8Array | undefined): void {
  if (!v || v.length === 0) return;
  w.tag(field, WireType.LEN);
  w.bytes(v);
}
