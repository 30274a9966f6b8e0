// JSON text kept as stored bytes with one piece of ASCII text put back in (a list item rebuilt
// from the watch cache's value, lib/registry/servedJsonSplice.ts): the JSON writer copies the
// bytes straight into the response, and only other readers turn it into a string.
export class SplicedJson {
  /**
   * `{` + stored[head, offset) + inserted + stored[offset, end): the stored bytes are ASCII
   * (checked by whoever made the splice), so byte offsets are character offsets.
   */
  constructor(
    private readonly stored: Uint8Array,
    private readonly head: number,
    private readonly offset: number,
    private readonly inserted: string,
  ) {}

  get byteLength(): number {
    return 1 + this.stored.length - this.head + this.inserted.length;
  }

  get json(): string {
    const b = Buffer.isBuffer(this.stored) ? this.stored : Buffer.from(this.stored.buffer, this.stored.byteOffset, this.stored.byteLength);
    return `{${b.toString('latin1', this.head, this.offset)}${this.inserted}${b.toString('latin1', this.offset)}`;
  }

  /** Writes the text's bytes at pos; returns how many. */
  copyTo(out: Buffer, pos: number): number {
    out[pos] = 0x7b; // {
    let at = pos + 1;
    out.set(this.stored.subarray(this.head, this.offset), at);
    at += this.offset - this.head;
    at += out.write(this.inserted, at, 'latin1');
    out.set(this.stored.subarray(this.offset), at);
    return at + this.stored.length - this.offset - pos;
  }

  /**
   * Appends the text as two pieces (a response body's chunks, lib/codec/bodyChunks.ts), after a
   * comma when `comma`: a small buffer of `{`, the stored bytes before the insert (ObjectMeta's
   * members before resourceVersion: name, namespace, uid…) and the insert, then the rest of the
   * stored bytes as a view, not copied. Two pieces, not four: each piece costs the writer a
   * write and the socket's writev an entry. Returns the bytes appended.
   */
  appendTo(chunks: Uint8Array[], comma: boolean): number {
    const lead = comma ? 2 : 1;
    const before = this.offset - this.head;
    const first = Buffer.allocUnsafe(lead + before + this.inserted.length);
    if (comma) first[0] = 0x2c; // ,
    first[lead - 1] = 0x7b; // {
    first.set(this.stored.subarray(this.head, this.offset), lead);
    // The insert is short ASCII (the resourceVersion member): copied directly, as Buffer.write's encoding lookup costs more.
    const inserted = this.inserted;
    for (let i = 0, at = lead + before; i < inserted.length; i++) first[at + i] = inserted.charCodeAt(i);
    // A Buffer, so the writer need not wrap it again.
    const rest = Buffer.from(this.stored.buffer, this.stored.byteOffset + this.offset, this.stored.length - this.offset);
    chunks.push(first, rest);
    return first.length + rest.length;
  }

  /**
   * The whole stored text with the insert (a GET's body), when the stored head it skips is
   * exactly `head` (the served kind and apiVersion, then a comma): no string is made.
   */
  withHead(head: Buffer): SplicedJson | undefined {
    if (head.length !== this.head || head.compare(this.stored, 0, this.head) !== 0) return undefined;
    return new SplicedJson(this.stored, 1, this.offset, this.inserted);
  }

  toBuffer(): Buffer {
    const out = Buffer.allocUnsafe(this.byteLength);
    this.copyTo(out, 0);
    return out;
  }

  /** Any other serialiser that meets one still writes the right JSON (by decoding it). */
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}
