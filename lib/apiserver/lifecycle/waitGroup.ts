// Upstream's SafeWaitGroup for in-flight requests: once wait() has been called, add() refuses,
// so the count can only fall and the wait is guaranteed to end.

export class RequestWaitGroup {
  private n = 0;
  private closed = false;
  private waiters: (() => void)[] = [];

  get count(): number {
    return this.n;
  }

  /** Counts a request in; false once wait() has been called (the caller refuses the request). */
  add(): boolean {
    if (this.closed) return false;
    this.n++;
    return true;
  }

  done(): void {
    if (this.n === 0) return;
    this.n--;
    if (this.n === 0) this.release();
  }

  /** Refuses further add() calls and resolves when the count reaches zero. */
  wait(): Promise<void> {
    this.closed = true;
    if (this.n === 0) return Promise.resolve();
    return new Promise<void>((r) => this.waiters.push(r));
  }

  private release(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const r of w) r();
  }
}
