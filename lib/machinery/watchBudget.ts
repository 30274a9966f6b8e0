// One server-wide bound on the bytes watchers hold for clients that have not taken them yet
// (issue 26 item 6): encoded frames written to a response but not yet sent, and the events a
// dedicated storage watch queued for a paused consumer. Each watch holds an account; writes ask
// for room first, so the total stays within the limit plus the one write that crossed it.
// When a write finds no room, the watch that has gone longest without sending anything is cut
// off, once that is longer than stuckAfterMs: a reader still drains and so never qualifies,
// while a burst of writes to readers waits for their bytes to drain instead of cutting them.
// Room goes first to the waiters that sent something most recently (readers), so watches that
// stopped reading do not hold a reader back while they wait to be cut off. Here, not in lib/apiserver or lib/watchcache, because both hold accounts (the HTTP watch
// streams and the watch cache's direct watchers) and machinery is the layer both import.

import type { SetTimer } from './timer';

/** Why an account was cut off: the server-wide limit, or one watch's own limit. */
export type CutOffCause = 'budget' | 'watch-limit';

/** Called once when the budget ends an account; the owner ends its watch. */
export type CutOff = (cause: CutOffCause, bytes: number) => void;

/** 64 MiB: see docs/decisions.md ("Slow watchers") for why. */
export const defaultWatchBudgetBytes = 64 * 1024 * 1024;
/** One watch may hold at most this much (the former per-watcher limit), never more than the budget. */
export const defaultPerWatchLimitBytes = 32 * 1024 * 1024;
/** How long a watch may send nothing while holding bytes before a full budget may cut it off. */
export const defaultStuckAfterMs = 1000;

export interface WatchBudgetOptions {
  limitBytes?: number;
  perWatchLimitBytes?: number;
  stuckAfterMs?: number;
  now?: () => number;
  setTimer?: SetTimer;
}

/** One watch's share of the budget. */
export interface WatchBudgetAccount {
  readonly isClosed: boolean;
  /** Bytes held now. */
  readonly bytes: number;
  /**
   * The watch holds `held` bytes now, after handing over `handed` bytes in all (monotonic): when
   * handed - held grew, some were sent (progress). May cut off this account or others.
   */
  update(held: number, handed: number): void;
  /** True when the owner may write now; false: onRoom is called once there is room. */
  mayWrite(onRoom: () => void): boolean;
  close(): void;
}

class Account implements WatchBudgetAccount {
  bytes = 0;
  sent = 0;
  /** When this account last sent something, or fell behind (ms, the budget's clock). */
  progressAt = 0;
  /** When this account last sent something (0: never): waiters that read recently go first. */
  sentAt = 0;
  closed = false;
  onRoom: (() => void) | undefined;

  constructor(
    private readonly budget: WatchBudget,
    readonly cutOff: CutOff,
  ) {}

  get isClosed(): boolean {
    return this.closed;
  }

  update(held: number, handed: number): void {
    this.budget.update(this, held, handed);
  }

  mayWrite(onRoom: () => void): boolean {
    return this.budget.mayWrite(this, onRoom);
  }

  close(): void {
    this.budget.release(this);
  }
}

export class WatchBudget {
  readonly limitBytes: number;
  readonly perWatchLimitBytes: number;
  readonly stuckAfterMs: number;
  private readonly now: () => number;
  private readonly setTimer: SetTimer;
  private totalBytes = 0;
  private peakBytes = 0;
  /** Accounts holding bytes, longest without progress first (a Set keeps insertion order). */
  private readonly behind = new Set<Account>();
  /** Accounts waiting for room, in the order they asked (woken most recently sending first). */
  private readonly waiting = new Set<Account>();
  private timer: { cancel(): void } | undefined;
  private wakeScheduled = false;

  constructor(opts: WatchBudgetOptions = {}) {
    this.limitBytes = positive(opts.limitBytes ?? defaultWatchBudgetBytes, 'limitBytes');
    this.perWatchLimitBytes = Math.min(positive(opts.perWatchLimitBytes ?? defaultPerWatchLimitBytes, 'perWatchLimitBytes'), this.limitBytes);
    this.stuckAfterMs = opts.stuckAfterMs ?? defaultStuckAfterMs;
    this.now = opts.now ?? Date.now;
    this.setTimer = opts.setTimer ?? unrefTimer;
  }

  /** Bytes held by all accounts now. */
  get total(): number {
    return this.totalBytes;
  }

  /** The highest total so far, including the write that crossed the limit before any cut-off. */
  get peak(): number {
    return this.peakBytes;
  }

  /** Number of accounts waiting for room. */
  get waiters(): number {
    return this.waiting.size;
  }

  open(cutOff: CutOff): WatchBudgetAccount {
    return new Account(this, cutOff);
  }

  /** @internal Account.update */
  update(a: Account, held: number, handed: number): void {
    if (a.closed) return;
    const before = a.bytes;
    const sent = handed - held;
    this.totalBytes += held - before;
    a.bytes = held;
    if (this.totalBytes > this.peakBytes) this.peakBytes = this.totalBytes;
    if (held === 0) {
      this.behind.delete(a);
    } else if (before === 0 || sent > a.sent) {
      // Fell behind, or sent something while still behind: to the back of the queue.
      a.progressAt = this.now();
      this.behind.delete(a);
      this.behind.add(a);
    }
    if (sent > a.sent) {
      a.sent = sent;
      a.sentAt = this.now();
    }
    if (held > this.perWatchLimitBytes) {
      this.cut(a, 'watch-limit');
      return;
    }
    if (held < before) this.scheduleWake();
    if (this.totalBytes > this.limitBytes) {
      this.cutStuck();
      this.arm();
    }
  }

  /** @internal Account.mayWrite */
  mayWrite(a: Account, onRoom: () => void): boolean {
    if (a.closed) return false;
    if (this.totalBytes >= this.limitBytes) this.cutStuck();
    if (a.closed) return false;
    // Those already waiting go first.
    if (this.totalBytes < this.limitBytes && (this.waiting.size === 0 || this.waiting.has(a))) {
      this.waiting.delete(a);
      a.onRoom = undefined;
      this.scheduleWake();
      return true;
    }
    a.onRoom = onRoom;
    this.waiting.add(a);
    this.scheduleWake();
    this.arm();
    return false;
  }

  /** @internal Account.close */
  release(a: Account): void {
    if (a.closed) return;
    a.closed = true;
    a.onRoom = undefined;
    this.behind.delete(a);
    this.waiting.delete(a);
    this.totalBytes -= a.bytes;
    a.bytes = 0;
    this.scheduleWake();
  }

  private cut(a: Account, cause: CutOffCause): void {
    const bytes = a.bytes;
    this.release(a);
    a.cutOff(cause, bytes);
  }

  /** Cuts off the accounts longest without progress, past stuckAfterMs, while over the limit. */
  private cutStuck(): void {
    const stuckBefore = this.now() - this.stuckAfterMs;
    while (this.totalBytes >= this.limitBytes) {
      const oldest = first(this.behind);
      if (!oldest || oldest.progressAt > stuckBefore) return;
      this.cut(oldest, 'budget');
    }
  }

  /** While someone waits or the total is over, a timer for when the oldest may be cut off. */
  private arm(): void {
    if (this.timer) return;
    if (this.waiting.size === 0 && this.totalBytes <= this.limitBytes) return;
    const oldest = first(this.behind);
    if (!oldest) return;
    const ms = Math.max(0, oldest.progressAt + this.stuckAfterMs - this.now());
    this.timer = this.setTimer(() => {
      this.timer = undefined;
      this.cutStuck();
      this.wake();
      this.arm();
    }, ms);
  }

  /** Room may have appeared: the waiters go on in order (after the current call returns). */
  private scheduleWake(): void {
    if (this.wakeScheduled || this.waiting.size === 0) return;
    this.wakeScheduled = true;
    queueMicrotask(() => {
      this.wakeScheduled = false;
      this.wake();
    });
  }

  /**
   * The waiter that sent something most recently, the first to ask among equals: a client that
   * reads goes before watches that have sent nothing for a while (what a full budget fills with,
   * and cuts off once they are stuck) and before new ones.
   */
  private nextWaiter(): Account | undefined {
    let best: Account | undefined;
    for (const a of this.waiting) if (!best || a.sentAt > best.sentAt) best = a;
    return best;
  }

  private wake(): void {
    while (this.totalBytes < this.limitBytes) {
      const next = this.nextWaiter();
      if (!next) break;
      const onRoom = next.onRoom;
      next.onRoom = undefined;
      // Its mayWrite admits it (it is waiting) and takes it off the list.
      onRoom?.();
      if (next.onRoom !== undefined) break;
      this.waiting.delete(next);
    }
    if (this.timer && this.waiting.size === 0 && this.totalBytes <= this.limitBytes) {
      this.timer.cancel();
      this.timer = undefined;
    }
  }
}

function first<T>(set: Set<T>): T | undefined {
  for (const v of set) return v;
  return undefined;
}

function positive(n: number, name: string): number {
  if (!Number.isFinite(n) || n <= 0) throw new RangeError(`watch budget ${name} must be a positive number, got ${n}`);
  return n;
}

/** A timer that does not keep the process alive. */
function unrefTimer(callback: () => void, ms: number): { cancel(): void } {
  const t = setTimeout(callback, ms);
  t.unref();
  return { cancel: () => clearTimeout(t) };
}
