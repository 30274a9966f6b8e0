// Encodings of served objects by object identity, one table per encoding (upstream's
// CachingObject): the encoders ask here before encoding. An object shared read-only between
// responses (frozen: a watch event fanned out to every watcher, a GET of a memoised revision, a
// list item) is encoded once per media type while it lives; the object a write returns carries
// the compact JSON the store found in the bytes it wrote (servingCache.ts). WeakMaps: an entry
// goes with its object, so this holds nothing the memos of the serving cache have let go.
import type { RawJson } from '../codec/rawJson';
import type { SplicedJson } from '../codec/splicedJson';

export class Encoding<T> {
  private readonly kept = new WeakMap<object, T>();

  /** obj's encoding: the one kept for it, or encode()'s, kept when obj is shared (frozen). */
  of(obj: object, encode: () => T): T {
    const kept = this.kept.get(obj);
    if (kept !== undefined) return kept;
    const made = encode();
    if (Object.isFrozen(obj)) this.kept.set(obj, made);
    return made;
  }

  /** The encoding kept for obj, if any. */
  peek(obj: object): T | undefined {
    return this.kept.get(obj);
  }

  /** Keeps an encoding made elsewhere (a write's JSON, found in its stored bytes). */
  keep(obj: object, value: T): void {
    this.kept.set(obj, value);
  }
}

export const servedEncodings = {
  /** Compact JSON text of shared objects (list items, watch events), spliced into lists and frames. */
  jsonText: new Encoding<string>(),
  /** Compact JSON body bytes of a shared object served whole (a GET, a watch event). */
  jsonBody: new Encoding<Buffer>(),
  /**
   * The compact JSON of an object create() or update() just returned, while the caller has not
   * changed it: what a read of that revision serves, made without serialising it again.
   */
  writtenJson: new Encoding<RawJson | SplicedJson>(),
  /** Protobuf body (magic and Unknown envelope). */
  protobufBody: new Encoding<Buffer>(),
  /** CBOR list item (no self-described tag). */
  cborItem: new Encoding<Buffer>(),
  /** CBOR body (self-described tag, then the item). */
  cborBody: new Encoding<Buffer>(),
};
