// Records what a watch delivers, for tests: events, progress notifications and the error.
import type { Storage, Watch, WatchEvent, WatchOptions } from '../storage';

export interface WatchRecorder {
  events: WatchEvent[];
  progress: number[];
  error: Error | undefined;
  /** Number of onEvents calls. */
  batches: number;
  watch: Watch;
  /** Resolves when pred() holds; rejects after timeoutMs with what was seen so far. */
  waitFor(pred: () => boolean, timeoutMs?: number): Promise<void>;
  /** Resolves once at least n events arrived. */
  waitForEvents(n: number, timeoutMs?: number): Promise<void>;
  close(): void;
}

export function recordWatch(storage: Storage, key: string, opts: WatchOptions): WatchRecorder {
  const rec: WatchRecorder = {
    events: [],
    progress: [],
    error: undefined,
    batches: 0,
    watch: { close() {} },
    async waitFor(pred, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pred()) {
        if (Date.now() > deadline) {
          throw new Error(`watch condition not met in ${timeoutMs} ms: ${rec.events.length} events, progress ${JSON.stringify(rec.progress.slice(-3))}, error ${rec.error?.message ?? 'none'}`);
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    waitForEvents(n, timeoutMs) {
      return rec.waitFor(() => rec.events.length >= n || rec.error !== undefined, timeoutMs).then(() => {
        if (rec.events.length < n && rec.error) throw rec.error;
      });
    },
    close() {
      rec.watch.close();
    },
  };
  rec.watch = storage.watch(key, opts, {
    onEvents(events) {
      rec.batches++;
      for (const e of events) rec.events.push(e);
    },
    onProgress(revision) {
      rec.progress.push(revision);
    },
    onError(err) {
      rec.error = err;
    },
  });
  return rec;
}
