// A minimal protobuf reader for the etcd responses we decode. int64 fields come back as JS
// numbers (revisions stay below 2^53; -1 for the broadcast watch id is decoded exactly). Bytes
// fields are copied out: a subarray would keep the whole HTTP/2 frame or gRPC message (headers,
// keys, previous values) alive for as long as the watch cache keeps one value of it. Stored
// values are copied together, one buffer per message (valuePacked + packValues): a list page's
// values then pin only each other. One allocation per value fragmented the native heap: at 100k
// objects the scale run's RSS after GC was 764–821 MiB with one per value, 628 MiB with one per
// message, 508 MiB with views of the message (which pin headers, keys and previous values).
// The watch cache keeps its initial list's values as views of these buffers (watchcache/
// sharedValues.ts) rather than copying each one.

const TWO_32 = 4294967296;
const EMPTY = Buffer.alloc(0);

export class ProtoError extends Error {}

/** Something whose value field is filled in by packValues(). */
export interface ValueHolder {
  value: Buffer;
}

export class ProtoReader {
  pos: number;
  /** Values read with valuePacked, copied into one buffer by packValues. */
  private packed: { holder: ValueHolder; start: number; end: number }[] | undefined;

  constructor(
    readonly buf: Buffer,
    start = 0,
    public end = buf.length,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** A field's tag: field number << 3 | wire type. */
  tag(): number {
    return this.uint32();
  }

  uint32(): number {
    const b = this.buf;
    let p = this.pos;
    let v = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (p >= this.end) throw new ProtoError('protobuf: truncated varint');
      const byte = b[p++];
      v |= (byte & 0x7f) << shift;
      if (byte < 0x80) {
        this.pos = p;
        return v >>> 0;
      }
    }
    // A longer varint (an int32 field holding a negative number): keep the low 32 bits.
    this.pos = p;
    this.skipVarintRest();
    return v >>> 0;
  }

  /** An int64 varint as a number (two's complement for negative values). */
  int64(): number {
    const b = this.buf;
    let p = this.pos;
    // Fast path: up to 4 bytes (< 2^28).
    let lo = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      if (p >= this.end) throw new ProtoError('protobuf: truncated varint');
      const byte = b[p++];
      lo |= (byte & 0x7f) << shift;
      if (byte < 0x80) {
        this.pos = p;
        return lo;
      }
    }
    // Byte 5 carries bits 28–34: 4 into lo, 3 into hi.
    if (p >= this.end) throw new ProtoError('protobuf: truncated varint');
    let byte = b[p++];
    lo = (lo | ((byte & 0x0f) << 28)) >>> 0;
    let hi = (byte & 0x7f) >>> 4;
    for (let shift = 3; byte >= 0x80; shift += 7) {
      if (shift > 31) throw new ProtoError('protobuf: varint longer than 10 bytes');
      if (p >= this.end) throw new ProtoError('protobuf: truncated varint');
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

  /** The bounds of a length-delimited field's content; the reader moves past it. */
  lengthDelimited(): [number, number] {
    const len = this.uint32();
    const start = this.pos;
    const end = start + len;
    if (end > this.end) throw new ProtoError('protobuf: length-delimited field runs past its message');
    this.pos = end;
    return [start, end];
  }

  /**
   * Reads a nested message: its length, then `read` with the reader limited to its content.
   * Returns what `read` returns.
   */
  message<T>(read: (r: ProtoReader) => T): T {
    const len = this.uint32();
    const end = this.pos + len;
    if (end > this.end) throw new ProtoError('protobuf: nested message runs past its parent');
    const outer = this.end;
    this.end = end;
    // No try/finally: a decode error abandons the whole message.
    const v = read(this);
    this.end = outer;
    this.pos = end;
    return v;
  }

  /**
   * A bytes field for holder.value, copied at packValues() into one buffer shared with the
   * message's other packed values (they are stored together, and mostly replaced one by one).
   */
  valuePacked(holder: ValueHolder): void {
    const [start, end] = this.lengthDelimited();
    holder.value = EMPTY;
    if (start !== end) (this.packed ??= []).push({ holder, start, end });
  }

  /** Copies the values read with valuePacked into one buffer of their own and hands out views of it. */
  packValues(): void {
    const list = this.packed;
    if (!list) return;
    this.packed = undefined;
    let total = 0;
    for (const v of list) total += v.end - v.start;
    const pack = Buffer.allocUnsafeSlow(total);
    let at = 0;
    for (const v of list) {
      const n = this.buf.copy(pack, at, v.start, v.end);
      v.holder.value = pack.subarray(at, at + n);
      at += n;
    }
  }

  /** A bytes field as a copy in memory of its own. */
  bytesCopy(): Buffer {
    const [start, end] = this.lengthDelimited();
    return copyBytes(this.buf, start, end);
  }

  /** A short-lived bytes field (a key turned into a string at once): a copy from Node's pool. */
  bytesPooled(): Buffer {
    const [start, end] = this.lengthDelimited();
    if (start === end) return EMPTY;
    const out = Buffer.allocUnsafe(end - start);
    this.buf.copy(out, 0, start, end);
    return out;
  }

  string(): string {
    const [start, end] = this.lengthDelimited();
    return this.buf.toString('utf8', start, end);
  }

  /** Skips a field of the given wire type (fields we do not use, or added in later etcd versions). */
  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.skipVarintRest();
        return;
      case 1:
        this.pos += 8;
        break;
      case 2:
        this.lengthDelimited();
        return;
      case 5:
        this.pos += 4;
        break;
      default:
        throw new ProtoError(`protobuf: unsupported wire type ${wireType}`);
    }
    if (this.pos > this.end) throw new ProtoError('protobuf: truncated field');
  }

  private skipVarintRest(): void {
    while (this.pos < this.end) {
      if (this.buf[this.pos++] < 0x80) return;
    }
    throw new ProtoError('protobuf: truncated varint');
  }
}

/**
 * A copy of buf[start, end) in an ArrayBuffer of its own: values live on in the watch cache,
 * and a slice of Node's shared 8 KiB pool would pin the whole slab to one surviving value.
 */
/** Decodes one whole message with read, its packed values copied out once it is read. */
export function decodeMessage<T>(read: (r: ProtoReader) => T, buf: Buffer, start = 0, end = buf.length): T {
  const r = new ProtoReader(buf, start, end);
  const v = read(r);
  r.packValues();
  return v;
}

function copyBytes(buf: Buffer, start: number, end: number): Buffer {
  const n = end - start;
  if (n === 0) return EMPTY;
  const out = Buffer.allocUnsafeSlow(n);
  buf.copy(out, 0, start, end);
  return out;
}
