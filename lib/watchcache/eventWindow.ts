// The bounded event window (upstream's ring buffer): recent events of the cache's prefix in
// revision order, each with a sequence number, so watchers keep a cursor instead of a copy.
// Bounded by count and bytes always, and by age beyond a minimum count.
import type { WatchEvent } from '../etcd/storage';

export interface WindowEntry {
  /** Position in the cache's event stream; consecutive, never reused. */
  seq: number;
  event: WatchEvent;
  /** Bytes held: value plus previous value. */
  bytes: number;
  /** When the cache received it (the window's clock). */
  at: number;
}

export interface WindowLimits {
  minEvents: number;
  maxEvents: number;
  maxBytes: number;
  retentionMs: number;
}

export function eventBytes(e: WatchEvent): number {
  return e.value.byteLength + (e.prevValue && e.prevValue !== e.value ? e.prevValue.byteLength : 0);
}

export class EventWindow {
  private entries: WindowEntry[] = [];
  /** Index in entries of the oldest retained entry (entries before it are garbage to compact). */
  private first = 0;
  private nextSeq = 0;
  private totalBytes = 0;
  /** Every event with revision > this is retained: a watch from revision S can be served iff S - 1 ≥ this. */
  private completeAfter: number;

  constructor(
    private readonly limits: WindowLimits,
    startRevision: number,
  ) {
    this.completeAfter = startRevision;
  }

  get length(): number {
    return this.entries.length - this.first;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  /** The seq the next pushed event gets; a cursor equal to it is caught up. */
  get headSeq(): number {
    return this.nextSeq;
  }

  /** Seq of the oldest retained entry (headSeq when empty). */
  get startSeq(): number {
    return this.nextSeq - this.length;
  }

  /** Revision after which history is complete (see completeAfter). */
  get completeAfterRevision(): number {
    return this.completeAfter;
  }

  push(event: WatchEvent, at: number): WindowEntry {
    const entry: WindowEntry = { seq: this.nextSeq++, event, bytes: eventBytes(event), at };
    this.entries.push(entry);
    this.totalBytes += entry.bytes;
    return entry;
  }

  entryAt(seq: number): WindowEntry | undefined {
    const i = seq - this.startSeq;
    return i >= 0 && i < this.length ? this.entries[this.first + i] : undefined;
  }

  /** Seq of the first retained event with modRevision ≥ revision (headSeq when none). */
  seqForRevision(revision: number): number {
    let lo = this.first;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid].event.modRevision < revision) lo = mid + 1;
      else hi = mid;
    }
    return this.startSeq + (lo - this.first);
  }

  /** True when every event with revision ≥ startRevision is retained (or still to come). */
  covers(startRevision: number): boolean {
    return startRevision - 1 >= this.completeAfter;
  }

  /**
   * Drops entries the limits no longer allow, oldest first, calling onEvict for each before it
   * goes. Count and bytes are hard caps; age applies beyond minEvents.
   */
  evict(now: number, onEvict: (e: WindowEntry) => void): void {
    const { minEvents, maxEvents, maxBytes, retentionMs } = this.limits;
    while (this.length > 0) {
      const oldest = this.entries[this.first];
      const over = this.length > maxEvents || this.totalBytes > maxBytes || (this.length > minEvents && now - oldest.at > retentionMs);
      if (!over) break;
      this.drop(onEvict);
    }
    this.compactArray();
  }

  /** Drops every entry with revision < revision (the store was compacted there). */
  dropBefore(revision: number, onEvict: (e: WindowEntry) => void): void {
    while (this.length > 0 && this.entries[this.first].event.modRevision < revision) this.drop(onEvict);
    if (revision - 1 > this.completeAfter) this.completeAfter = revision - 1;
    this.compactArray();
  }

  /** Empties the window; history is complete after `revision` from now on. */
  reset(revision: number): void {
    this.entries = [];
    this.first = 0;
    this.totalBytes = 0;
    this.completeAfter = revision;
  }

  private drop(onEvict: (e: WindowEntry) => void): void {
    const oldest = this.entries[this.first];
    onEvict(oldest);
    this.entries[this.first] = undefined as unknown as WindowEntry; // release the event now
    this.first++;
    this.totalBytes -= oldest.bytes;
    // Every event after the dropped one's revision is still here (one revision's events are
    // contiguous, so a partly dropped revision is itself no longer complete).
    if (oldest.event.modRevision > this.completeAfter) this.completeAfter = oldest.event.modRevision;
  }

  /** Amortised O(1): drop the evicted prefix of the array once it is half of it. */
  private compactArray(): void {
    if (this.first > 1024 && this.first * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.first);
      this.first = 0;
    }
  }
}
