// Objects a GET just decoded, for the update that usually follows (read-modify-write: kubectl
// replace, client-go's Get + Update under RetryOnConflict). The update needs the stored object
// decoded as its old object; the GET decoded exactly that revision moments before and dropped
// the tree once it had the JSON. A few recent ones are kept, each handed out once, so the update
// owns what it gets and nothing is shared; bounded, so memory stays a small constant.
import type { ApiObject } from '../api';

export class RecentReads {
  private readonly entries = new Map<string, { revision: number; obj: ApiObject }>();

  constructor(private readonly capacity = 128) {}

  /** Keeps obj (no one else may hold it) as the decoded object of key at revision. */
  put(key: string, revision: number, obj: ApiObject): void {
    this.entries.delete(key);
    this.entries.set(key, { revision, obj });
    if (this.entries.size > this.capacity) {
      // Maps iterate in insertion order: the first key is the oldest.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  /** The object put for exactly this revision, once; undefined otherwise. */
  take(key: string, revision: number): ApiObject | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    return e.revision === revision ? e.obj : undefined;
  }
}
