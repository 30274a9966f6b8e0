// Timers driven by hand: advance(ms) fires what is due, in due order. For code that takes
// injectable setTimeout/clearTimeout (the compactor), so tests never sleep for real.

interface Pending {
  id: number;
  due: number;
  fn: () => void;
}

export class ManualTimers {
  now = 0;
  private seq = 0;
  private pending: Pending[] = [];

  setTimeout = (fn: () => void, ms: number): unknown => {
    const p = { id: ++this.seq, due: this.now + ms, fn };
    this.pending.push(p);
    return p.id;
  };

  clearTimeout = (handle: unknown): void => {
    this.pending = this.pending.filter((p) => p.id !== handle);
  };

  /** Moves the clock forward, firing every timer that falls due (timers set meanwhile included). */
  advance(ms: number): void {
    const target = this.now + ms;
    for (;;) {
      const next = this.pending.filter((p) => p.due <= target).sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (!next) break;
      this.pending = this.pending.filter((p) => p !== next);
      this.now = next.due;
      next.fn();
    }
    this.now = target;
  }

  get size(): number {
    return this.pending.length;
  }
}
