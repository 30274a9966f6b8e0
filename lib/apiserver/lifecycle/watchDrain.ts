// Active watches during shutdown (upstream WithWatchTerminationDuringShutdown and the watch
// RateLimitedSafeWaitGroup): at NotAcceptingNewRequest every watch is told to end its stream
// cleanly (the chunked terminator, so clients resume elsewhere from their last resourceVersion),
// spread at max(count/grace, 200) per second; the server waits at most the grace period for them.

export interface WatchHandle {
  /** The watch has finished (its response ended). */
  done(): void;
}

export interface DrainResult {
  activeBefore: number;
  activeAfter: number;
}

export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Upstream's floor on the drain rate, watches per second. */
export const minWatchDrainQPS = 200;

/** Where a watch registers the function that ends its stream; null refuses the watch. */
export interface WatchRegistrar {
  register(end: () => void): WatchHandle | null;
}

/**
 * A watch registered with both: the server's tracker (graceful shutdown) and its resource's
 * (removal at run time). Refused when either refuses.
 */
export function bothRegistrars(server: WatchRegistrar | undefined, resource: WatchRegistrar): WatchRegistrar {
  if (!server) return resource;
  return {
    register(end) {
      const a = server.register(end);
      if (!a) return null;
      const b = resource.register(end);
      if (!b) {
        a.done();
        return null;
      }
      return {
        done: () => {
          a.done();
          b.done();
        },
      };
    },
  };
}

export class WatchTracker implements WatchRegistrar {
  private readonly active = new Map<number, () => void>();
  private next = 0;
  private closed = false;
  private emptied: (() => void)[] = [];

  get count(): number {
    return this.active.size;
  }

  /** Registers a watch with the function that ends its stream; null once shutdown refuses new watches. */
  register(end: () => void): WatchHandle | null {
    if (this.closed) return null;
    const id = this.next++;
    this.active.set(id, end);
    return {
      done: () => {
        if (!this.active.delete(id)) return;
        if (this.active.size === 0) for (const r of this.emptied.splice(0)) r();
      },
    };
  }

  /**
   * Refuses new watches and ends the active ones. graceMs > 0: ends them at the drain rate and
   * waits until they are gone or the grace period is over (then ends the rest at once). graceMs 0: ends them all at once
   * without waiting (upstream does not track watches then).
   */
  async drain(graceMs: number, sleep: Sleep = realSleep): Promise<DrainResult> {
    this.closed = true;
    const activeBefore = this.active.size;
    const ends = [...this.active.values()];
    if (graceMs <= 0) {
      for (const end of ends) end();
      return { activeBefore, activeAfter: this.active.size };
    }
    const qps = Math.max(activeBefore / (graceMs / 1000), minWatchDrainQPS);
    const gap = 1000 / qps;
    let graceOver = false;
    const deadline = sleep(graceMs).then(() => {
      graceOver = true;
    });
    const spread = (async () => {
      for (const end of ends) {
        if (graceOver) return;
        end();
        await sleep(gap);
      }
      if (this.active.size) await new Promise<void>((r) => this.emptied.push(r));
    })();
    await Promise.race([deadline, spread]);
    const activeAfter = this.active.size;
    // Past the grace period the rest still get a clean end rather than a cut connection.
    for (const end of [...this.active.values()]) end();
    return { activeBefore, activeAfter };
  }
}
