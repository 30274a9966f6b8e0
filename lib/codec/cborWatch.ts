// CBOR watch streams (`application/cbor-seq`, RFC 8742): each event is one self-described item,
// a WatchEvent map {type, object} with no other framing; `object` is the object's complete CBOR
// body, its own 55799 tag included (upstream's RawExtension.MarshalCBOR writes raw CBOR as is).
// Keys in declaration order (type, object), which is also the deterministic order.
import { cborSelfDescribed } from './cborEncode';

/** Upstream's watch media type for CBOR, whatever CBOR type the client accepted. */
export const cborSequenceMediaType = 'application/cbor-seq';

const typeKey = Uint8Array.of(0x44, 0x74, 0x79, 0x70, 0x65); // b"type"
const objectKey = Uint8Array.of(0x46, 0x6f, 0x62, 0x6a, 0x65, 0x63, 0x74); // b"object"

/** One sequence item: the event around an object body (which starts with its own tag). */
export function cborWatchEvent(type: string, objectBody: Uint8Array): Buffer {
  const t = Buffer.from(type, 'utf8');
  if (t.length >= 24) throw new RangeError('watch event type too long');
  return Buffer.concat([cborSelfDescribed, Uint8Array.of(0xa2), typeKey, Uint8Array.of(0x40 | t.length), t, objectKey, objectBody]);
}
