// A watch the window cannot serve (a start revision older than the window, a key outside the
// cache's prefix, or the cache not ready yet): a dedicated watch on the underlying store behind
// the same flow control as a window watcher — a bounded queue while paused, WatcherTooSlowError
// beyond it. Its queue holds its own copies of events, so it counts in the server's watch budget. Its periodic bookmark (bookmarkSchedule.ts) carries the revision its own watch
// has delivered everything up to (its last event, or the store's progress notification): the
// cache's newer revision could overtake events this watch has not received yet.
import type { Storage, Watch, WatchEvent, WatchHandlers, WatchOptions } from '../etcd/storage';
import { deliver, reportError } from '../etcd/watchHandlers';
import type { BookmarkTarget } from './bookmarkSchedule';
import type { CacheWatch, WatcherLimits } from './cacheWatch';
import { WatcherTooSlowError } from './errors';
import { eventBytes } from './eventWindow';
import type { WatchBudgetAccount } from '../machinery/watchBudget';

type Item = { kind: 'events'; events: WatchEvent[]; bytes: number } | { kind: 'progress'; revision: number } | { kind: 'error'; err: Error };

export class DirectWatcher implements CacheWatch, BookmarkTarget {
  private queue: Item[] = [];
  /** Every event of this watch up to this revision has been handed to push(). */
  private seenRevision = 0;
  /** Bookmarks only above the watch's resourceVersion (startRevision - 1), as upstream. */
  private readonly startRevision: number;
  private pendingEvents = 0;
  private pendingBytes = 0;
  /** Bytes of events queued so far (the budget sees progress as this minus pendingBytes grows). */
  private queuedBytes = 0;
  private readonly account: WatchBudgetAccount | undefined;
  private paused = false;
  private scheduled = false;
  private closed = false;
  private readonly inner: Watch;

  constructor(
    underlying: Storage,
    readonly key: string,
    opts: WatchOptions,
    private readonly handlers: WatchHandlers,
    private readonly limits: WatcherLimits,
    private readonly onEnd: (w: DirectWatcher) => void,
    private readonly onTerminated: (reason: string) => void,
    /** When the consumer ends the watch (for the bookmark 2 s before it). */
    readonly deadline?: number,
  ) {
    this.startRevision = opts.startRevision ?? 1;
    this.account = limits.budget?.open(() => this.tooSlow('budget'));
    this.inner = underlying.watch(key, opts, {
      onEvents: (events) => {
        let bytes = 0;
        for (const e of events) bytes += eventBytes(e);
        if (events.length > 0) this.seen(events[events.length - 1].modRevision);
        this.push({ kind: 'events', events, bytes });
      },
      onProgress: (revision) => {
        this.seen(revision);
        this.push({ kind: 'progress', revision });
      },
      onError: (err) => this.push({ kind: 'error', err }),
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The periodic bookmark is due: queued behind every event already received. */
  bookmarkDue(): void {
    if (this.seenRevision >= this.startRevision) this.push({ kind: 'progress', revision: this.seenRevision });
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
    this.queue = [];
    this.account?.close();
    this.inner.close();
    this.onEnd(this);
  }

  private seen(revision: number): void {
    if (revision > this.seenRevision) this.seenRevision = revision;
  }

  private push(item: Item): void {
    if (this.closed) return;
    if (!this.paused && !this.scheduled && this.queue.length === 0) {
      this.handle(item);
      return;
    }
    this.queue.push(item);
    if (item.kind === 'events') {
      this.pendingEvents += item.events.length;
      this.pendingBytes += item.bytes;
      this.queuedBytes += item.bytes;
      this.account?.update(this.pendingBytes, this.queuedBytes);
      if (this.closed) return;
    }
    if (this.paused) {
      if (this.pendingEvents > this.limits.maxPendingEvents || this.pendingBytes > this.limits.maxPendingBytes) this.tooSlow('queue-full');
    } else {
      this.schedule();
    }
  }

  private tooSlow(reason: 'queue-full' | 'budget'): void {
    if (this.closed) return;
    const pending = this.pendingEvents;
    this.close();
    this.onTerminated(reason);
    reportError((e) => this.handlers.onError(e), new WatcherTooSlowError(this.key, reason, pending));
  }

  private schedule(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      while (!this.closed && !this.paused && this.queue.length > 0) {
        const item = this.queue.shift()!;
        if (item.kind === 'events') {
          this.pendingEvents -= item.events.length;
          this.pendingBytes -= item.bytes;
          this.account?.update(this.pendingBytes, this.queuedBytes);
        }
        this.handle(item);
      }
    });
  }

  private handle(item: Item): void {
    const onError = (e: Error): void => this.handlers.onError(e);
    const end = (): void => this.close();
    switch (item.kind) {
      case 'events': {
        const events = item.events;
        deliver(() => this.handlers.onEvents(events), end, onError);
        return;
      }
      case 'progress': {
        const revision = item.revision;
        deliver(() => this.handlers.onProgress?.(revision), end, onError);
        return;
      }
      case 'error':
        this.close();
        reportError(onError, item.err);
    }
  }
}
