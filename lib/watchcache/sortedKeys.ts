// The cache's key index: keys in etcd's byte order, for ranges, paging and counts. A sorted array
// with binary search: lookups O(log n), inserts/removes one memmove (fast up to ~10^5 keys).
import { compareKeys } from '../etcd/keys';

/**
 * Code units at which UTF-16 order (JS's `<`) and UTF-8 byte order can part: only where both
 * keys have one (a surrogate against U+E000–FFFF) at their first difference.
 */
const wideUnit = /[\ud800-\uffff]/;

export class SortedKeys {
  private keys: string[] = [];
  /**
   * Some key ever held has a wide unit. Until then (object names are ASCII) the native string
   * comparison is byte order exactly, and a search does not walk each key's shared prefix in JS.
   */
  private wide = false;

  get size(): number {
    return this.keys.length;
  }

  /** Index of the first key ≥ key. */
  lowerBound(key: string): number {
    const keys = this.keys;
    let lo = 0;
    let hi = keys.length;
    if (!this.wide || !wideUnit.test(key)) {
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (keys[mid] < key) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    }
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeys(keys[mid], key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Index of the first key at or after `from` that does not start with prefix. Keys sharing a
   * prefix are contiguous in byte order, so the predicate is monotone from a start inside it.
   */
  prefixEndIndex(prefix: string, from: number): number {
    const keys = this.keys;
    let lo = from;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid].startsWith(prefix)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  at(i: number): string {
    return this.keys[i];
  }

  insert(key: string): void {
    const keys = this.keys;
    if (!this.wide && wideUnit.test(key)) this.wide = true;
    // Names that grow (generateName aside, most batches of creates) append: no search, no splice.
    if (keys.length === 0 || compareKeys(keys[keys.length - 1], key) < 0) {
      keys.push(key);
      return;
    }
    const i = this.lowerBound(key);
    if (keys[i] !== key) keys.splice(i, 0, key);
  }

  remove(key: string): void {
    const i = this.lowerBound(key);
    if (this.keys[i] === key) this.keys.splice(i, 1);
  }

  /** Replaces the content with keys already in byte order (an etcd range result). */
  reset(sorted: string[]): void {
    this.keys = sorted;
    this.wide = sorted.some((k) => wideUnit.test(k));
  }
}
