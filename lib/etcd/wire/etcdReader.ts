// The shared Protobuf reader (lib/protowire) with what etcd's responses need on top: strings and
// byte fields copied out of the frame. int64 fields come back as JS numbers (revisions stay below
// 2^53; -1 for the broadcast watch id is decoded exactly). Bytes fields are copied out: a subarray
// would keep the whole HTTP/2 frame or gRPC message (headers, keys, previous values) alive for as
// long as the watch cache keeps one value of it. Stored values are copied together, one buffer per
// message (valuePacked + packValues): a list page's values then pin only each other. One
// allocation per value fragmented the native heap: at 100k objects the scale run's RSS after GC
// was 764–821 MiB with one per value, 628 MiB with one per message, 508 MiB with views of the
// message (which pin headers, keys and previous values). The watch cache keeps its initial list's
// values as views of these buffers (watchcache/sharedValues.ts) rather than copying each one.
import { ProtoReader } from '../../protowire/reader';

const EMPTY = Buffer.alloc(0);

/** Something whose value field is filled in by packValues(). */
export interface ValueHolder {
  value: Buffer;
}

export class EtcdReader extends ProtoReader {
  declare readonly buf: Buffer;
  /** Values read with valuePacked, copied into one buffer by packValues. */
  private packed: { holder: ValueHolder; start: number; end: number }[] | undefined;

  constructor(buf: Buffer, start = 0, end = buf.length) {
    super(buf, start, end);
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
}

/** Decodes one whole message with read, its packed values copied out once it is read. */
export function decodeMessage<T>(read: (r: EtcdReader) => T, buf: Buffer, start = 0, end = buf.length): T {
  const r = new EtcdReader(buf, start, end);
  const v = read(r);
  r.packValues();
  return v;
}

/**
 * A copy of buf[start, end) in an ArrayBuffer of its own: values live on in the watch cache,
 * and a slice of Node's shared 8 KiB pool would pin the whole slab to one surviving value.
 */
function copyBytes(buf: Buffer, start: number, end: number): Buffer {
  const n = end - start;
  if (n === 0) return EMPTY;
  const out = Buffer.allocUnsafeSlow(n);
  buf.copy(out, 0, start, end);
  return out;
}
