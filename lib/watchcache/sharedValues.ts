// The initial list's values are kept as the store handed them: views of one buffer per etcd
// response (the etcd client copies a message's values into one allocation, lib/etcd/wire/
// protoReader.ts). Copying each of them into an allocation of its own while the fill's transient
// buffers were live scattered 100k small allocations through glibc's heap, which could then not
// give the transient memory back: at 100k objects ~0.7 KB of RSS per object (issue 14 item 3).
// A shared buffer stays alive while one of its values does, so this tracks, per buffer, how many
// state entries still hold a view of it, and once fewer than half do, the cache copies those out
// (each into its own allocation) and the buffer can go: a buffer never holds more dead bytes
// than live ones for long.

/** A buffer's views the state still holds: their keys, and how many are still in place. */
interface SharedBuffer {
  keys: string[];
  live: number;
}

export class SharedValues {
  private readonly buffers = new Map<ArrayBufferLike, SharedBuffer>();

  /** Number of shared buffers tracked (tests, metrics). */
  get size(): number {
    return this.buffers.size;
  }

  clear(): void {
    this.buffers.clear();
  }

  /** The state now holds value (a view) under key. Values that are a buffer of their own are not tracked. */
  adopt(key: string, value: Uint8Array): void {
    if (value.byteLength === value.buffer.byteLength) return;
    let b = this.buffers.get(value.buffer);
    if (!b) {
      b = { keys: [], live: 0 };
      this.buffers.set(value.buffer, b);
    }
    b.keys.push(key);
    b.live++;
  }

  /**
   * The state no longer holds value (its entry was replaced or deleted). Returns the keys whose
   * entries may still hold views of the same buffer when the caller should copy them out now
   * (fewer than half of the buffer's views remain); the buffer is forgotten then.
   */
  release(value: Uint8Array): readonly string[] | undefined {
    const b = this.buffers.get(value.buffer);
    if (!b) return undefined;
    b.live--;
    if (b.live * 2 >= b.keys.length) return undefined;
    this.buffers.delete(value.buffer);
    return b.live > 0 ? b.keys : undefined;
  }

  /** True when value is a view of a buffer this tracks. */
  holds(value: Uint8Array): boolean {
    return this.buffers.has(value.buffer);
  }
}
