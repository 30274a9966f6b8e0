// A Clock for tests: time moves only when the test advances it, and every timer the code under
// test schedules is recorded, so a test can assert the exact delays a loop asked for.
import type { Clock, Timer } from './clock';

interface Pending {
  at: number;
  seq: number;
  callback: () => void;
}

/** Lets every queued promise continuation run (one macrotask turn drains the microtask queue). */
export function flushPromises(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class FakeClock implements Clock {
  private current: number;
  private seq = 0;
  private pending: Pending[] = [];
  /** Every delay passed to setTimeout, in call order. */
  readonly requestedDelays: number[] = [];

  constructor(start = Date.UTC(2025, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, ms: number): Timer {
    const entry: Pending = { at: this.current + Math.max(0, ms), seq: this.seq++, callback };
    this.requestedDelays.push(ms);
    this.pending.push(entry);
    return {
      cancel: () => {
        this.pending = this.pending.filter((p) => p !== entry);
      },
    };
  }

  /** Timers scheduled and not yet fired or cancelled. */
  pendingCount(): number {
    return this.pending.length;
  }

  /** Delay from now to the earliest pending timer, or undefined when none is pending. */
  nextDelay(): number | undefined {
    const next = this.earliest();
    return next ? next.at - this.current : undefined;
  }

  /**
   * Moves time forward by `ms`, firing due timers in order and letting promise chains settle
   * after each, so timers those chains schedule within the window fire too.
   */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    await flushPromises();
    for (;;) {
      const next = this.earliest();
      if (!next || next.at > target) break;
      this.pending = this.pending.filter((p) => p !== next);
      this.current = Math.max(this.current, next.at);
      next.callback();
      await flushPromises();
    }
    this.current = target;
    await flushPromises();
  }

  /** Advances exactly to the earliest pending timer and fires it (and any due at the same time). */
  async fireNext(): Promise<number | undefined> {
    await flushPromises();
    const delay = this.nextDelay();
    if (delay === undefined) return undefined;
    await this.advance(delay);
    return delay;
  }

  private earliest(): Pending | undefined {
    let best: Pending | undefined;
    for (const p of this.pending) if (!best || p.at < best.at || (p.at === best.at && p.seq < best.seq)) best = p;
    return best;
  }
}
