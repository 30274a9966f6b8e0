// A watch handle whose real watcher is chosen later (after an async look-up of the store's
// current revision). Calls before that are remembered; close() before it means it never starts.
import type { CacheWatch } from './cacheWatch';

export class LazyWatch implements CacheWatch {
  private target: CacheWatch | undefined;
  private closed = false;
  private paused = false;

  get isClosed(): boolean {
    return this.closed;
  }

  attach(target: CacheWatch): void {
    if (this.closed) {
      target.close();
      return;
    }
    this.target = target;
    if (this.paused) target.pause();
  }

  close(): void {
    this.closed = true;
    this.target?.close();
  }

  pause(): void {
    this.paused = true;
    this.target?.pause();
  }

  resume(): void {
    this.paused = false;
    this.target?.resume();
  }
}
