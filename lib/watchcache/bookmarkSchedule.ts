// When each bookmark-watching watcher gets its next periodic bookmark (upstream 1.32 cacher.go
// watcherBookmarkTimeBuckets and dispatchEvents' bookmark timer, cache_watcher.go
// nextBookmarkTime): about every minute, and 2 s before the watch's deadline when that comes
// first. Watchers sit in one-second buckets; one timer per cache ticks every 1–1.25 s, as
// upstream's, and pops the buckets that are due, so a thousand watchers cost one timer.
//
// Upstream's own arithmetic, kept as is: a bucket is popped by the first tick inside its second,
// which may come before the watcher's deadline - 2 s; the watcher is then scheduled again for
// that same time, clamped into the next bucket, and gets a second bookmark about a second later
// (less than 2 s before the deadline). Which ticks fall where is as random as upstream's jitter.

/** Timers as the cache sees them; injected so tests drive time instead of sleeping. */
export type SetTimer = (callback: () => void, ms: number) => { cancel(): void };

export interface BookmarkTarget {
  readonly isClosed: boolean;
  /** When the consumer ends the watch (ms on the schedule's clock); undefined: no deadline. */
  readonly deadline?: number;
  /** The watcher's periodic bookmark is due. */
  bookmarkDue(): void;
}

/** Upstream's defaultBookmarkFrequency. */
export const bookmarkFrequencyMs = 60_000;
/** Upstream sends the last bookmark this long before the watch's deadline. */
export const preDeadlineMs = 2_000;
const bucketMs = 1_000;
/** Upstream's dispatch loop checks every wait.Jitter(1 s, 0.25): 1 s to 1.25 s. */
const tickMs = 1_000;
const tickJitter = 0.25;

/** Upstream's nextBookmarkTime; undefined when no bookmark is due before the deadline. */
export function nextBookmarkTime(now: number, deadline: number | undefined, frequencyMs = bookmarkFrequencyMs): number | undefined {
  const heartbeat = now + frequencyMs;
  if (deadline === undefined) return heartbeat;
  const next = Math.min(heartbeat, deadline - preDeadlineMs);
  return next < now ? undefined : next;
}

export class BookmarkSchedule {
  private readonly buckets = new Map<number, BookmarkTarget[]>();
  private readonly createdAt: number;
  /** Buckets before this one were popped already (upstream's startBucketID). */
  private startBucket = 0;
  private timer: { cancel(): void } | undefined;
  private stopped = false;

  constructor(
    private readonly now: () => number,
    private readonly setTimer: SetTimer,
    private readonly random: () => number = Math.random,
  ) {
    this.createdAt = now();
  }

  /** Schedules the target's next bookmark (upstream's addWatcherThreadUnsafe); false when none is due before its deadline. */
  add(target: BookmarkTarget): boolean {
    if (this.stopped || target.isClosed) return false;
    const next = nextBookmarkTime(this.now(), target.deadline);
    if (next === undefined) return false;
    const bucket = Math.max(this.startBucket, Math.floor((next - this.createdAt) / bucketMs));
    const list = this.buckets.get(bucket);
    if (list) list.push(target);
    else this.buckets.set(bucket, [target]);
    this.arm();
    return true;
  }

  /** Number of targets waiting (closed ones leave at their bucket's turn, as upstream). */
  get size(): number {
    let n = 0;
    for (const list of this.buckets.values()) n += list.length;
    return n;
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
    this.buckets.clear();
  }

  /**
   * Upstream's timer: wait.Jitter(1 s, 0.25) after the previous tick. Upstream's runs for the
   * cacher's life; this one runs while a watcher waits and starts again with the next one, so an
   * idle cache costs nothing (where its ticks fall within a second is random either way).
   */
  private arm(): void {
    if (this.timer || this.stopped || this.buckets.size === 0) return;
    this.timer = this.setTimer(() => {
      this.timer = undefined;
      this.tick();
    }, tickMs + tickMs * tickJitter * this.random());
  }

  /** One tick: upstream's popExpiredWatchersThreadUnsafe, the bookmark, then the re-adds of finishDispatching. */
  private tick(): void {
    if (this.stopped) return;
    const current = Math.floor((this.now() - this.createdAt) / bucketMs);
    // At most ~61 buckets exist (next times lie within a minute): look at those, not every
    // second since the last tick.
    const expired = [...this.buckets.keys()].filter((b) => b <= current).sort((a, b) => a - b);
    const due: BookmarkTarget[] = [];
    for (const b of expired) {
      for (const t of this.buckets.get(b)!) if (!t.isClosed) due.push(t);
      this.buckets.delete(b);
    }
    this.startBucket = Math.max(this.startBucket, current + 1);
    for (const t of due) t.bookmarkDue();
    for (const t of due) this.add(t);
    this.arm();
  }
}
