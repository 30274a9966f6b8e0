// A response body as pieces written one after another: a binary list's envelope around the
// bytes each item keeps (lib/registry ServingCache.encodedListItem). The writer hands the pieces to the
// socket as one gathered write, so no body-sized buffer is made on the JavaScript heap: a list
// of 10k objects is 12 MB, and one such buffer per list (external memory V8 counts towards its
// next full GC) cost a mark-compact for about every list served.
export class BodyChunks {
  /** `length` is the sum of the chunks' lengths (the Content-Length). */
  constructor(
    readonly chunks: readonly Uint8Array[],
    readonly length: number,
  ) {
    Object.freeze(this);
  }

  /** The body in one buffer of its exact size, for the readers that need one (gzip, tests). */
  toBuffer(): Buffer {
    const out = Buffer.allocUnsafe(this.length);
    let pos = 0;
    for (const c of this.chunks) {
      out.set(c, pos);
      pos += c.length;
    }
    return out;
  }
}
