// Periodic compaction that is safe with several apiserver replicas: kube-apiserver's scheme.
// The key compact_rev_key's version is a shared logical clock. Every interval each replica runs
// one txn: "if version(key) == the version I saw last time, put the revision I saw last time".
// Exactly one replica per interval wins; it compacts to the revision it recorded one interval
// earlier, so history younger than one interval is never compacted. Losers only record the
// current version and revision. If the winner dies, another replica wins the next interval
// (so the spacing is one to two intervals).
import type { CompactionStore } from './storage';

/** Timers the compactor uses; inject fakes in tests so nobody waits minutes. */
export interface CompactorTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface CompactorOptions {
  /** Default 5 minutes (kube-apiserver's --etcd-compaction-interval); 0 disables compaction. */
  intervalMs?: number;
  /** Default 'compact_rev_key', the key upstream uses, so mixed fleets agree. */
  key?: string;
  timers?: CompactorTimers;
  /** After a successful compaction (logging, metrics). */
  onCompacted?: (revision: number) => void;
  /** A round failed (etcd unavailable…); the next round runs one interval later anyway. */
  onError?: (err: Error) => void;
}

export interface CompactionRound {
  /** This replica's txn won the round. */
  won: boolean;
  /** The revision compacted to, when this round compacted. */
  compacted?: number;
}

export const defaultCompactionIntervalMs = 5 * 60 * 1000;

const realTimers: CompactorTimers = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref(); // compaction never keeps a process alive
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export class Compactor {
  readonly intervalMs: number;
  private readonly key: string;
  private readonly timers: CompactorTimers;
  /** compact_rev_key's version seen last round: the shared clock. */
  private version = 0;
  /** Store revision seen last round: what the next winning round compacts to. */
  private revision = 0;
  private timer: unknown;
  private running = false;
  private inFlight: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: CompactionStore,
    private readonly opts: CompactorOptions = {},
  ) {
    this.intervalMs = opts.intervalMs ?? defaultCompactionIntervalMs;
    this.key = opts.key ?? 'compact_rev_key';
    this.timers = opts.timers ?? realTimers;
  }

  /** Starts the rounds (the first after one interval, like upstream). No-op when the interval is 0. */
  start(): void {
    if (this.running || this.intervalMs <= 0) return;
    this.running = true;
    this.schedule();
  }

  /** Stops scheduling and waits for a round in progress. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }

  /** Resolves when no round is in progress (tests). */
  async whenIdle(): Promise<void> {
    await this.inFlight;
  }

  /** One round of the protocol. */
  async round(): Promise<CompactionRound> {
    const res = await this.store.putIfVersion(this.key, this.version, new TextEncoder().encode(String(this.revision)));
    const previousRevision = this.revision;
    this.version = res.version;
    this.revision = res.revision;
    if (!res.succeeded) return { won: false };
    // Nothing was recorded one interval ago on a replica's first win after start: no compaction.
    if (previousRevision === 0) return { won: true };
    await this.store.compact(previousRevision);
    this.opts.onCompacted?.(previousRevision);
    return { won: true, compacted: previousRevision };
  }

  private schedule(): void {
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      if (!this.running) return;
      this.inFlight = this.round()
        .catch((err: unknown) => this.opts.onError?.(err instanceof Error ? err : new Error(String(err))))
        .finally(() => {
          if (this.running) this.schedule();
        });
    }, this.intervalMs);
  }
}

/** Creates and starts a compactor (nothing runs when intervalMs is 0). */
export function startCompactor(store: CompactionStore, opts: CompactorOptions = {}): Compactor {
  const c = new Compactor(store, opts);
  c.start();
  return c;
}
