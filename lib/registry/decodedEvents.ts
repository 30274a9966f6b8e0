// Each stored value is decoded once while it stays in the memo: every watcher of a resource sees
// the same event bytes, and repeated lists see the same items, so the decoded object is shared
// (frozen, read-only) between them; serialisers can then memoise its JSON by identity.
import type { ApiObject } from '../api';

export class DecodedObjectMemo<T = ApiObject> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly capacity = 4096) {}

  /** Forgets (key, revision): a revision the key has moved past. */
  delete(key: string, revision: number): void {
    this.entries.delete(`${revision}\u0000${key}`);
  }

  /** The decoded object (or any value) for (key, revision), decoding at most once while it stays in the memo. */
  get(key: string, revision: number, decode: () => T): T {
    const id = `${revision}\u0000${key}`;
    let obj = this.entries.get(id);
    if (obj === undefined) {
      obj = Object.freeze(decode());
      this.entries.set(id, obj);
      if (this.entries.size > this.capacity) {
        // Maps iterate in insertion order: the first key is the oldest.
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
    }
    return obj;
  }
}
