// An informer for one resource: a local copy of every object (by namespace/name) kept current by
// list-then-watch, with handlers told of each change. It follows client-go's reflector
// (tools/cache/reflector.go): list in pages of 500, watch from the list's resourceVersion with
// bookmarks, resume from the last resourceVersion seen (bookmarks included) when a watch ends,
// relist when the server says that resourceVersion is gone (410), back off between attempts.
import type { ApiList, ApiObject } from '../api/meta';
import { deepEqual } from '../machinery/deepEqual';
import { ExponentialBackoff, reflectorBackoff } from './backoff';
import type { Clock } from './clock';
import { realClock, sleep } from './clock';
import { isConnectionRefused, isExpired, isTooLargeResourceVersion, isTooManyRequests } from './errors';
import type { ListWatch } from './listWatch';
import type { ListOptions } from './resourcePath';
import type { WatchStream } from './watchStream';

export interface InformerHandlers<T extends ApiObject> {
  /** `isInInitialList`: the object came with the informer's first list. */
  onAdd?(obj: T, isInInitialList: boolean): void;
  onUpdate?(oldObj: T, newObj: T): void;
  /**
   * `finalStateUnknown`: the deletion was inferred from a relist, so `obj` is the last state the
   * informer knew, not the object as deleted (client-go's DeletedFinalStateUnknown).
   */
  onDelete?(obj: T, finalStateUnknown: boolean): void;
}

export interface InformerOptions<T extends ApiObject> {
  listWatch: ListWatch<T>;
  clock?: Clock;
  /** Jitter source for backoff and watch timeouts; [0, 1). */
  random?: () => number;
  /** Page size of lists; default 500 (client-go's pager default). */
  pageSize?: number;
  /** Watches ask the server to end them after a random time in [min, 2·min]; default 300 s. */
  minWatchTimeoutSeconds?: number;
  /** Errors the informer recovers from by relisting, and errors thrown by handlers. */
  onError?: (err: unknown) => void;
}

/** The store key: `namespace/name`, or `name` for cluster-scoped objects (MetaNamespaceKeyFunc). */
export function objectKey(obj: ApiObject): string {
  const ns = obj.metadata?.namespace;
  const name = obj.metadata?.name ?? '';
  return ns ? `${ns}/${name}` : name;
}

export class VeryShortWatchError extends Error {
  constructor() {
    super('very short watch: Unexpected watch close - watch lasted less than a second and no items received');
    this.name = 'VeryShortWatchError';
  }
}

interface ListResult<T> {
  items: T[];
  resourceVersion: string;
  paginated: boolean;
}

const defaultPageSize = 500;

export class Informer<T extends ApiObject = ApiObject> {
  private readonly listWatch: ListWatch<T>;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly pageSize: number;
  private readonly minWatchTimeoutSeconds: number;
  private readonly onError: (err: unknown) => void;
  private readonly backoff: ExponentialBackoff;
  private readonly handlers: InformerHandlers<T>[] = [];
  private store = new Map<string, T>();
  private lastRV = '';
  /** The last list or watch said lastRV is too old or too new: list from etcd ("") next. */
  private lastRVUnavailable = false;
  /** A list at "0" came back paged: the server pages, so keep paging relists too. */
  private paginatedResult = false;
  private synced = false;
  private syncWaiters: Array<(synced: boolean) => void> = [];
  private readonly abort = new AbortController();
  private currentWatch?: WatchStream<T>;
  private running?: Promise<void>;

  constructor(opts: InformerOptions<T>) {
    this.listWatch = opts.listWatch;
    this.clock = opts.clock ?? realClock;
    this.random = opts.random ?? Math.random;
    this.pageSize = opts.pageSize ?? defaultPageSize;
    this.minWatchTimeoutSeconds = opts.minWatchTimeoutSeconds ?? 300;
    this.onError = opts.onError ?? (() => undefined);
    this.backoff = new ExponentialBackoff(reflectorBackoff, this.clock, this.random);
  }

  /** Handlers added after the first list are told of every object already known, as adds. */
  addEventHandler(h: InformerHandlers<T>): void {
    this.handlers.push(h);
    if (this.synced) for (const obj of this.store.values()) this.notify(h, (x) => x.onAdd?.(obj, true));
  }

  /** Starts listing and watching in the background; stop() ends it. */
  start(): void {
    this.running ??= this.loop();
  }

  /** Ends the loop, the open watch and any pending request; resolves once the loop has exited. */
  stop(): Promise<void> {
    if (!this.abort.signal.aborted) {
      this.abort.abort();
      this.currentWatch?.stop();
      for (const w of this.syncWaiters.splice(0)) w(false);
    }
    return this.running ?? Promise.resolve();
  }

  /** The first list has been delivered to the store and the handlers. */
  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves true once synced, false if the informer stops (or `signal` aborts) first. */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    if (this.synced) return Promise.resolve(true);
    if (this.stopped || signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (synced: boolean): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve(synced);
      };
      const onAbort = (): void => {
        this.syncWaiters = this.syncWaiters.filter((w) => w !== done);
        resolve(false);
      };
      this.syncWaiters.push(done);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  get(key: string): T | undefined {
    return this.store.get(key);
  }

  getByName(name: string, namespace?: string): T | undefined {
    return this.store.get(namespace ? `${namespace}/${name}` : name);
  }

  list(): T[] {
    return [...this.store.values()];
  }

  keys(): string[] {
    return [...this.store.keys()];
  }

  /** The resourceVersion the next watch (or relist) starts from. */
  lastSyncResourceVersion(): string {
    return this.lastRV;
  }

  private get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.listAndWatch();
      } catch (e) {
        if (!this.stopped) this.onError(e);
      }
      if (this.stopped) break;
      // Sliding backoff between attempts, as wait.BackoffUntil in Reflector.Run.
      await sleep(this.clock, this.backoff.next(), this.abort.signal);
    }
  }

  private async listAndWatch(): Promise<void> {
    await this.listAndReplace();
    if (!this.stopped) await this.watchUntilRelist();
  }

  /** Where a (re)list starts: "0" (any cached state) first, then the last seen, or "" after a 410. */
  private relistResourceVersion(): string {
    if (this.lastRVUnavailable) return '';
    return this.lastRV === '' ? '0' : this.lastRV;
  }

  private async listAndReplace(): Promise<void> {
    const rv = this.relistResourceVersion();
    // Listing at a specific RV without a limit can be served from the watch cache; paging would
    // force etcd. Page anyway when the server showed it pages (reflector.list).
    const pageSize = !this.paginatedResult && rv !== '' && rv !== '0' ? 0 : this.pageSize;
    let result: ListResult<T>;
    try {
      result = await this.pagedList(rv, pageSize);
    } catch (e) {
      if (!isExpired(e) && !isTooLargeResourceVersion(e)) throw e;
      this.lastRVUnavailable = true;
      result = await this.pagedList(this.relistResourceVersion(), pageSize);
    }
    if (this.stopped) return;
    if (rv === '0' && result.paginated) this.paginatedResult = true;
    this.lastRVUnavailable = false;
    this.replace(result.items);
    this.lastRV = result.resourceVersion;
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w(true);
    }
  }

  private async pagedList(rv: string, pageSize: number): Promise<ListResult<T>> {
    const items: T[] = [];
    let opts: ListOptions = { resourceVersion: rv || undefined, limit: pageSize || undefined };
    let paginated = false;
    for (;;) {
      let page: ApiList<T>;
      try {
        page = await this.listWatch.list(opts, this.abort.signal);
      } catch (e) {
        // The snapshot behind the continue token was compacted: one full list instead (pager's FullListIfExpired).
        if (!isExpired(e) || !opts.continue) throw e;
        const full = await this.listWatch.list({}, this.abort.signal);
        return { items: full.items ?? [], resourceVersion: full.metadata?.resourceVersion ?? '', paginated };
      }
      for (const item of page.items ?? []) items.push(item);
      const next = page.metadata?.continue;
      if (!next) return { items, resourceVersion: page.metadata?.resourceVersion ?? '', paginated };
      paginated = true;
      // Continue pages carry no resourceVersion: the token pins the snapshot.
      opts = { limit: pageSize, continue: next };
    }
  }

  /** Makes the store equal to `items`, telling handlers what changed. */
  private replace(items: T[]): void {
    const initial = !this.synced;
    const previous = this.store;
    const next = new Map<string, T>();
    for (const item of items) next.set(objectKey(item), item);
    this.store = next;
    for (const [key, obj] of next) {
      const old = previous.get(key);
      if (!old) this.emit((h) => h.onAdd?.(obj, initial));
      else if (changed(old, obj)) this.emit((h) => h.onUpdate?.(old, obj));
    }
    for (const [key, old] of previous) if (!next.has(key)) this.emit((h) => h.onDelete?.(old, true));
  }

  /** Watches from the last RV until the informer must relist (returns) or fails (throws). */
  private async watchUntilRelist(): Promise<void> {
    while (!this.stopped) {
      const start = this.clock.now();
      const min = this.minWatchTimeoutSeconds;
      const startRV = this.lastRV;
      let stream: WatchStream<T>;
      try {
        stream = await this.listWatch.watch(
          { resourceVersion: startRV || undefined, timeoutSeconds: Math.floor(min + this.random() * min), allowWatchBookmarks: true },
          this.abort.signal,
        );
      } catch (e) {
        if (this.stopped) return;
        // The server is down or busy: keep the state and try the watch again (isWatchErrorRetriable).
        if (isConnectionRefused(e) || isTooManyRequests(e)) {
          await sleep(this.clock, this.backoff.next(), this.abort.signal);
          continue;
        }
        throw e;
      }
      if (this.stopped) {
        stream.stop();
        return;
      }
      this.currentWatch = stream;
      try {
        await this.consume(stream, start, startRV);
      } catch (e) {
        if (this.stopped || isExpired(e)) return;
        if (isTooManyRequests(e)) {
          await sleep(this.clock, this.backoff.next(), this.abort.signal);
          continue;
        }
        throw e;
      } finally {
        stream.stop();
        this.currentWatch = undefined;
      }
      // The stream ended cleanly (server timeout, dropped connection): watch again from lastRV.
    }
  }

  private async consume(stream: WatchStream<T>, start: number, startRV: string): Promise<void> {
    let count = 0;
    // From "" or "0" the server replays state as ADDED events in no RV order; trust RVs only after.
    let propagateRV = startRV !== '' && startRV !== '0';
    for await (const event of stream) {
      if (this.stopped) return;
      count++;
      const obj = event.object;
      switch (event.type) {
        case 'ADDED':
        case 'MODIFIED':
          this.upsert(obj);
          break;
        case 'DELETED':
          this.remove(obj);
          break;
        case 'BOOKMARK':
          break;
      }
      if (event.type !== 'ADDED') propagateRV = true;
      const rv = obj.metadata?.resourceVersion;
      if (propagateRV && rv) this.lastRV = rv;
    }
    if (!this.stopped && count === 0 && this.clock.now() - start < 1000) throw new VeryShortWatchError();
  }

  private upsert(obj: T): void {
    const key = objectKey(obj);
    const old = this.store.get(key);
    this.store.set(key, obj);
    if (old) this.emit((h) => h.onUpdate?.(old, obj));
    else this.emit((h) => h.onAdd?.(obj, false));
  }

  private remove(obj: T): void {
    this.store.delete(objectKey(obj));
    this.emit((h) => h.onDelete?.(obj, false));
  }

  private emit(call: (h: InformerHandlers<T>) => void): void {
    for (const h of this.handlers) this.notify(h, call);
  }

  /** A throwing handler must not stop the informer or the other handlers. */
  private notify(h: InformerHandlers<T>, call: (h: InformerHandlers<T>) => void): void {
    try {
      call(h);
    } catch (e) {
      this.onError(e);
    }
  }
}

function changed(a: ApiObject, b: ApiObject): boolean {
  const ra = a.metadata?.resourceVersion;
  const rb = b.metadata?.resourceVersion;
  if (ra && rb) return ra !== rb;
  return !deepEqual(a, b);
}
