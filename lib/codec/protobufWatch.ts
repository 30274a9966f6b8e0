// Protobuf watch framing (watch-and-list.md §6, "Protobuf watch"): each event is a 4-byte
// big-endian length, then a raw metav1.WatchEvent message {1: type, 2: RawExtension{1: raw}}
// with no magic or Unknown envelope around it; `raw` is the object's complete Protobuf body
// (magic + Unknown), as upstream's stream serializer embeds it.
import { ProtobufError, ProtoReader, WireType } from '../protowire/reader';
import { ProtoWriter } from '../protowire/writer';

/** One frame: length prefix + WatchEvent. */
export function protobufWatchFrame(type: string, objectBody: Uint8Array): Uint8Array {
  const raw = new ProtoWriter();
  raw.bytes(1, objectBody);
  const ev = new ProtoWriter();
  ev.string(1, type);
  ev.bytes(2, raw.finish());
  const msg = ev.finish();
  const out = new Uint8Array(4 + msg.length);
  new DataView(out.buffer).setUint32(0, msg.length, false);
  out.set(msg, 4);
  return out;
}

export interface ProtobufWatchEvent {
  type: string;
  /** The embedded object's complete body (magic + Unknown). */
  raw: Uint8Array;
}

const utf8 = new TextDecoder('utf-8');

/** Reads one WatchEvent message (a frame without its length prefix). */
export function decodeProtobufWatchEvent(msg: Uint8Array): ProtobufWatchEvent {
  const r = new ProtoReader(msg);
  const out: ProtobufWatchEvent = { type: '', raw: new Uint8Array(0) };
  while (!r.done) {
    const start = r.pos;
    const { field, wireType } = r.key('WatchEvent');
    if (field !== 1 && field !== 2) {
      r.skipFrom(start);
      continue;
    }
    if (wireType !== WireType.bytes) throw new ProtobufError(`proto: wrong wireType = ${wireType} for field ${field === 1 ? 'Type' : 'Object'}`);
    if (field === 1) {
      out.type = utf8.decode(r.bytes());
      continue;
    }
    const ext = r.nested();
    while (!ext.done) {
      const s = ext.pos;
      const t = ext.key('RawExtension');
      if (t.field === 1 && t.wireType === WireType.bytes) out.raw = ext.bytes();
      else ext.skipFrom(s);
    }
  }
  return out;
}

/**
 * Splits a stream's bytes into frames; returns the complete ones and the bytes left over
 * (an incomplete frame still being received).
 */
export function splitProtobufWatchFrames(buf: Uint8Array): { frames: Uint8Array[]; rest: Uint8Array } {
  const frames: Uint8Array[] = [];
  let pos = 0;
  while (buf.length - pos >= 4) {
    const len = new DataView(buf.buffer, buf.byteOffset + pos, 4).getUint32(0, false);
    if (buf.length - pos - 4 < len) break;
    frames.push(buf.subarray(pos + 4, pos + 4 + len));
    pos += 4 + len;
  }
  return { frames, rest: buf.subarray(pos) };
}
