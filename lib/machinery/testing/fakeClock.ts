// A clock for tests: now() and timers that run only when the test advances time.
import type { SetTimer } from '../timer';

interface Pending {
  at: number;
  seq: number;
  callback: () => void;
  cancelled: boolean;
}

export class FakeClock {
  private time: number;
  private seq = 0;
  private pending: Pending[] = [];

  constructor(start = 1_000_000) {
    this.time = start;
  }

  readonly now = (): number => this.time;

  readonly setTimer: SetTimer = (callback, ms) => {
    const p: Pending = { at: this.time + Math.max(0, ms), seq: this.seq++, callback, cancelled: false };
    this.pending.push(p);
    return { cancel: () => (p.cancelled = true) };
  };

  /** Timers not yet run or cancelled. */
  get timers(): number {
    return this.pending.filter((p) => !p.cancelled).length;
  }

  /** Moves time forward, running every timer that falls due (in order, at its own time). */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      this.pending = this.pending.filter((p) => !p.cancelled);
      let next: Pending | undefined;
      for (const p of this.pending) if (p.at <= end && (!next || p.at < next.at || (p.at === next.at && p.seq < next.seq))) next = p;
      if (!next) break;
      this.pending.splice(this.pending.indexOf(next), 1);
      this.time = Math.max(this.time, next.at);
      next.callback();
    }
    this.time = end;
  }
}
