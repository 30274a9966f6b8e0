// Key order and key ranges as etcd sees them: keys are UTF-8 bytes compared bytewise.

/**
 * Compares two keys in UTF-8 byte order. That is code point order, which differs from JS's
 * UTF-16 code unit order only when a surrogate (U+D800–DFFF) meets a unit ≥ U+E000.
 */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // Surrogates encode code points ≥ U+10000: they sort after U+E000–FFFF.
      x = x < 0xe000 ? x + 0x2000 : x - 0x800;
      y = y < 0xe000 ? y + 0x2000 : y - 0x800;
    }
    return x - y;
  }
  return a.length - b.length;
}

/**
 * etcd's range end for a prefix: the prefix with its last byte below 0xff incremented (trailing
 * 0xff bytes dropped). An empty result means "no upper bound" (etcd's "\0" range end).
 */
export function prefixEnd(prefix: Uint8Array): Uint8Array {
  const end = Uint8Array.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] < 0xff) {
      end[i]++;
      return end.subarray(0, i + 1);
    }
  }
  return new Uint8Array(0);
}

/** The smallest key after `key` in byte order: where the next page of a range starts. */
export function keyAfter(key: string): string {
  return key + '\u0000';
}

/** A list's start key must lie inside its prefix, or the range would leave the prefix. */
export function checkStartKey(prefix: string, startKey: string): void {
  if (!startKey.startsWith(prefix)) throw new RangeError(`start key ${JSON.stringify(startKey)} is outside prefix ${JSON.stringify(prefix)}`);
}
