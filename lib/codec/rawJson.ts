// An object kept as its JSON text: the list memo holds these (about the JSON's size) instead of
// decoded trees, and the JSON writer splices the text into a list unchanged.
export class RawJson {
  constructor(readonly json: string) {
    Object.freeze(this);
  }

  /** Any other serialiser that meets one still writes the right JSON (by decoding it). */
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}
