// When each bookmark-watching watcher gets its next periodic bookmark (upstream 1.32 cacher.go
// watcherBookmarkTimeBuckets, cache_watcher.go nextBookmarkTime): about every minute, and 2 s
// before the watch's deadline when that comes first. Watchers sit in one-second buckets with
// their due times; one timer per cache fires at the earliest due time (plus up to 250 ms, so
// watchers due close together share a wake-up), so a thousand watchers cost one timer and an idle
// cache none.
//
// A watcher is served at or after its due time, never before. Upstream pops a whole second's
// bucket at its first 1–1.25 s tick, which may come before deadline − 2 s; that watcher is then
// scheduled again for the same time and gets a second bookmark about a second before its deadline
// (about half the time, by where the tick falls). Here the bookmark before the deadline comes
// once, 2 to 2.25 s before it — one of the outcomes upstream's timing gives.

import type { SetTimer } from '../machinery/timer';

export type { SetTimer };

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
/** Up to this much after the earliest due time, so watchers due close together share a wake-up (upstream's tick jitter). */
const coalesceMs = 250;

/** Upstream's nextBookmarkTime; undefined when no bookmark is due before the deadline. */
export function nextBookmarkTime(now: number, deadline: number | undefined, frequencyMs = bookmarkFrequencyMs): number | undefined {
  const heartbeat = now + frequencyMs;
  if (deadline === undefined) return heartbeat;
  const next = Math.min(heartbeat, deadline - preDeadlineMs);
  return next < now ? undefined : next;
}

interface Scheduled {
  target: BookmarkTarget;
  due: number;
}

export class BookmarkSchedule {
  private readonly buckets = new Map<number, Scheduled[]>();
  private readonly createdAt: number;
  private timer: { cancel(): void } | undefined;
  private stopped = false;

  constructor(
    private readonly now: () => number,
    private readonly setTimer: SetTimer,
    private readonly random: () => number = Math.random,
  ) {
    this.createdAt = now();
  }

  /**
   * Schedules the target's next bookmark (upstream's addWatcherThreadUnsafe); false when none is
   * due before its deadline, or (`served`: the due time just served) none after the one just sent.
   */
  add(target: BookmarkTarget, served?: number): boolean {
    if (this.stopped || target.isClosed) return false;
    const due = nextBookmarkTime(this.now(), target.deadline);
    if (due === undefined || (served !== undefined && due <= served)) return false;
    const bucket = Math.floor((due - this.createdAt) / bucketMs);
    const list = this.buckets.get(bucket);
    if (list) list.push({ target, due });
    else this.buckets.set(bucket, [{ target, due }]);
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

  /** The timer for the earliest due time; an earlier add replaces a later timer. */
  private arm(): void {
    if (this.stopped || this.buckets.size === 0) return;
    const due = this.earliestDue();
    if (this.timer && this.timerAt <= due) return;
    this.timer?.cancel();
    this.timerAt = due;
    this.timer = this.setTimer(
      () => {
        this.timer = undefined;
        this.fire();
      },
      Math.max(0, due - this.now()) + coalesceMs * this.random(),
    );
  }

  private timerAt = Infinity;

  private earliestDue(): number {
    // At most ~61 buckets exist (due times lie within a minute); the earliest bucket holds the earliest time.
    let bucket = Infinity;
    for (const b of this.buckets.keys()) if (b < bucket) bucket = b;
    let due = Infinity;
    for (const s of this.buckets.get(bucket)!) if (s.due < due) due = s.due;
    return due;
  }

  /** Serves every watcher whose time has come, then schedules each one's next bookmark. */
  private fire(): void {
    if (this.stopped) return;
    const now = this.now();
    const current = Math.floor((now - this.createdAt) / bucketMs);
    const served: Scheduled[] = [];
    for (const b of [...this.buckets.keys()].filter((k) => k <= current).sort((x, y) => x - y)) {
      const keep: Scheduled[] = [];
      for (const s of this.buckets.get(b)!) {
        if (s.target.isClosed) continue;
        (s.due <= now ? served : keep).push(s);
      }
      if (keep.length) this.buckets.set(b, keep);
      else this.buckets.delete(b);
    }
    for (const s of served) s.target.bookmarkDue();
    for (const s of served) this.add(s.target, s.due);
    this.arm();
  }
}
