// Readers waiting for the cache to reach a revision (waitUntilFresh). While any wait, the cache
// asks the underlying store for a progress notification every intervalMs, so an idle prefix
// still moves forward; a waiter not satisfied in time gets FutureRevisionError.
import { FutureRevisionError } from '../etcd/storage';

interface Waiter {
  revision: number;
  resolve(): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

export class RevisionWaiters {
  private waiters = new Set<Waiter>();
  private ticker: NodeJS.Timeout | undefined;

  constructor(
    private readonly requestProgress: () => void,
    private readonly intervalMs: number,
    /** The revision reported in a timeout's FutureRevisionError. */
    private readonly current: () => number,
  ) {}

  get size(): number {
    return this.waiters.size;
  }

  /** askNow false: the caller has just asked for progress itself (the ticker still repeats it). */
  wait(revision: number, timeoutMs: number, askNow = true): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const w: Waiter = {
        revision,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.remove(w);
          reject(new FutureRevisionError(revision, this.current()));
        }, timeoutMs),
      };
      this.waiters.add(w);
      if (askNow) this.requestProgress();
      if (!this.ticker) {
        this.ticker = setInterval(() => this.requestProgress(), this.intervalMs);
        this.ticker.unref();
      }
    });
  }

  /** The cache reached revision: release every waiter at or below it. */
  advance(revision: number): void {
    for (const w of this.waiters) {
      if (w.revision > revision) continue;
      this.remove(w);
      w.resolve();
    }
  }

  failAll(err: Error): void {
    for (const w of this.waiters) {
      this.remove(w);
      w.reject(err);
    }
  }

  private remove(w: Waiter): void {
    clearTimeout(w.timer);
    this.waiters.delete(w);
    if (this.waiters.size === 0 && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }
}
