// A watcher served from the event window. It keeps a cursor (a window sequence number), not a
// copy of the events: an idle or caught-up watcher costs a few fields. Live events reach it on
// the cache's delivery path; a replay from an older revision is delivered on a microtask, in
// batches, so watch() returns first and close() before delivery means no handler call.
// A periodic bookmark (bookmarkSchedule.ts) reaches it as a progress notification at the cache's
// revision, delivered after every event up to that revision.
import type { WatchEvent, WatchHandlers } from '../etcd/storage';
import { deliver, reportError } from '../etcd/watchHandlers';
import type { BookmarkTarget } from './bookmarkSchedule';
import type { CacheWatch, WatcherLimits } from './cacheWatch';
import { WatcherTooSlowError } from './errors';
import type { EventWindow, WindowEntry } from './eventWindow';

export interface WatcherHost {
  readonly window: EventWindow;
  /** The revision the cache has seen every event up to (events and store progress). */
  readonly cacheRevision: number;
  removeWatcher(w: CacheWatcher): void;
  watcherTerminated(reason: string, key: string): void;
}

export class CacheWatcher implements CacheWatch, BookmarkTarget {
  /** Seq of the next window entry to look at. */
  private cursor: number;
  /** Entries from this seq on arrived after the watch started: only they count as pending. */
  private readonly liveFromSeq: number;
  private pendingEvents = 0;
  private pendingBytes = 0;
  private pendingProgress = 0;
  private paused = false;
  private scheduled = false;
  private closed = false;

  constructor(
    private readonly host: WatcherHost,
    readonly key: string,
    readonly prefix: boolean,
    /** Events before this revision are not for this watch. */
    readonly startRevision: number,
    private readonly handlers: WatchHandlers,
    private readonly limits: WatcherLimits,
    cursor: number,
    /** When the consumer ends the watch (for the bookmark 2 s before it). */
    readonly deadline?: number,
  ) {
    this.cursor = cursor;
    this.liveFromSeq = host.window.headSeq;
    if (cursor < this.liveFromSeq) this.schedule();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Window seq this watcher still has to look at (headSeq when caught up). */
  get position(): number {
    return this.cursor;
  }

  matches(e: WatchEvent): boolean {
    if (e.modRevision < this.startRevision) return false;
    return this.prefix ? e.key.startsWith(this.key) : e.key === this.key;
  }

  /** New entries were appended to the window (all after liveFromSeq). */
  onAppended(entries: WindowEntry[]): void {
    if (this.closed) return;
    for (const en of entries) {
      if (!this.matches(en.event)) continue;
      this.pendingEvents++;
      this.pendingBytes += en.bytes;
    }
    if (this.paused) {
      if (this.pendingEvents > this.limits.maxPendingEvents || this.pendingBytes > this.limits.maxPendingBytes) this.terminate('queue-full');
      return;
    }
    if (!this.scheduled) this.drain();
  }

  /** Every event up to revision is in the window. */
  onProgress(revision: number): void {
    if (this.closed) return;
    if (revision > this.pendingProgress) this.pendingProgress = revision;
    if (!this.paused && !this.scheduled) this.drain();
  }

  /**
   * The periodic bookmark is due: upstream sends it at the cache's revision when that is newer
   * than the watch's resourceVersion (startRevision - 1), whether or not any event matched.
   */
  bookmarkDue(): void {
    const revision = this.host.cacheRevision;
    if (revision >= this.startRevision) this.onProgress(revision);
  }

  /** The window is about to drop these entries (oldest first). */
  onEvicting(entries: WindowEntry[]): void {
    if (this.closed) return;
    for (const en of entries) {
      if (en.seq < this.cursor) continue;
      if (this.matches(en.event)) {
        this.terminate('window-evicted');
        return;
      }
    }
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.schedule();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.host.removeWatcher(this);
  }

  /** Ends the watch with err (the cache re-initializes, or its store failed). */
  fail(err: Error): void {
    if (this.closed) return;
    this.close();
    reportError((e) => this.handlers.onError(e), err);
  }

  private terminate(reason: 'queue-full' | 'window-evicted'): void {
    const pending = this.pendingEvents;
    this.close();
    this.host.watcherTerminated(reason, this.key);
    reportError((e) => this.handlers.onError(e), new WatcherTooSlowError(this.key, reason, pending));
  }

  private schedule(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.drain();
    });
  }

  private drain(): void {
    const win = this.host.window;
    const max = this.limits.maxBatchEvents;
    while (!this.closed && !this.paused) {
      // Entries dropped below the cursor were checked by onEvicting: none was for this watch.
      if (this.cursor < win.startSeq) this.cursor = win.startSeq;
      const head = win.headSeq;
      if (this.cursor >= head) break;
      const batch: WatchEvent[] = [];
      let seq = this.cursor;
      for (; seq < head && batch.length < max; seq++) {
        const en = win.entryAt(seq)!;
        if (!this.matches(en.event)) continue;
        batch.push(en.event);
        if (seq >= this.liveFromSeq) {
          this.pendingEvents--;
          this.pendingBytes -= en.bytes;
        }
      }
      this.cursor = seq;
      if (batch.length > 0) this.call(() => this.handlers.onEvents(batch));
    }
    if (!this.closed && !this.paused && this.pendingProgress > 0 && this.cursor >= win.headSeq) {
      const revision = this.pendingProgress;
      this.pendingProgress = 0;
      this.call(() => this.handlers.onProgress?.(revision));
    }
  }

  private call(fn: () => void): void {
    deliver(fn, () => this.close(), (e) => this.handlers.onError(e));
  }
}
