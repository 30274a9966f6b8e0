// A Storage proxy for watch-cache tests: counts reads that reach the store, can hold back watch
// deliveries (events and progress, in order) to make a cache lag, and can fail open watches.
import type {
  DeleteStorageOptions,
  GetResult,
  KeyValue,
  ListOptions,
  ListResult,
  Storage,
  Watch,
  WatchEvent,
  WatchHandlers,
  WatchOptions,
} from '../../etcd/storage';

type Held = { kind: 'events'; events: WatchEvent[] } | { kind: 'progress'; revision: number };

interface ProxiedWatch {
  handlers: WatchHandlers;
  inner: Watch;
  held: Held[];
  closed: boolean;
}

export class GatedStorage implements Storage {
  readonly calls = { get: 0, list: 0, watch: 0, currentRevision: 0, requestProgress: 0 };
  private holding = false;
  private readonly watches = new Set<ProxiedWatch>();

  constructor(readonly inner: Storage) {}

  /** Watch deliveries are queued from now on. */
  hold(): void {
    this.holding = true;
  }

  /** Delivers everything held, in order, and stops holding. */
  release(): void {
    this.holding = false;
    for (const w of this.watches) {
      const held = w.held;
      w.held = [];
      for (const h of held) {
        if (w.closed) break;
        if (h.kind === 'events') w.handlers.onEvents(h.events);
        else w.handlers.onProgress?.(h.revision);
      }
    }
  }

  /** Ends every open watch with err (like etcd cancelling them). */
  failWatches(err: Error): void {
    for (const w of [...this.watches]) {
      w.closed = true;
      w.inner.close();
      this.watches.delete(w);
      w.handlers.onError(err);
    }
  }

  get openWatches(): number {
    return this.watches.size;
  }

  get(key: string, opts?: { revision?: number }): Promise<GetResult> {
    this.calls.get++;
    return this.inner.get(key, opts);
  }

  list(prefix: string, opts?: ListOptions): Promise<ListResult> {
    this.calls.list++;
    return this.inner.list(prefix, opts);
  }

  create(key: string, value: Uint8Array): Promise<KeyValue> {
    return this.inner.create(key, value);
  }

  guaranteedUpdate(
    key: string,
    tryUpdate: (current: KeyValue | null) => Uint8Array | null | Promise<Uint8Array | null>,
    opts?: { expectedModRevision?: number; ignoreNotFound?: boolean },
  ): Promise<KeyValue> {
    return this.inner.guaranteedUpdate(key, tryUpdate, opts);
  }

  delete(key: string, opts?: DeleteStorageOptions): Promise<{ prev: KeyValue; revision: number }> {
    return this.inner.delete(key, opts);
  }

  watch(key: string, opts: WatchOptions, handlers: WatchHandlers): Watch {
    this.calls.watch++;
    const w: ProxiedWatch = { handlers, inner: { close() {} }, held: [], closed: false };
    w.inner = this.inner.watch(key, opts, {
      onEvents: (events) => {
        if (w.closed) return;
        if (this.holding || w.held.length > 0) w.held.push({ kind: 'events', events });
        else handlers.onEvents(events);
      },
      onProgress: (revision) => {
        if (w.closed) return;
        if (this.holding || w.held.length > 0) w.held.push({ kind: 'progress', revision });
        else handlers.onProgress?.(revision);
      },
      onError: (err) => {
        if (w.closed) return;
        w.closed = true;
        this.watches.delete(w);
        handlers.onError(err);
      },
    });
    this.watches.add(w);
    return {
      close: () => {
        w.closed = true;
        this.watches.delete(w);
        w.inner.close();
      },
    };
  }

  currentRevision(): Promise<number> {
    this.calls.currentRevision++;
    return this.inner.currentRevision();
  }

  requestProgress(): void {
    this.calls.requestProgress++;
    this.inner.requestProgress();
  }

  compact(revision: number): Promise<void> {
    return this.inner.compact(revision);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
