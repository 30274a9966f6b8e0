// Whether etcd can be reached at all, from what the connections to its endpoints report: an
// outage begins when every endpoint has failed a connection attempt since it was last ready, and
// ends when any endpoint is ready again. Each outage is announced once when it begins (which
// endpoints, since when, each one's last error) and once when it ends (how long it lasted), so
// the log names the cause of every failed request without a line per request or per retry.

export interface EndpointFailure {
  url: string;
  /** The last connection error seen for it, e.g. `connect ECONNREFUSED 127.0.0.1:2379`. */
  error: string;
}

export interface EtcdOutage {
  /** When the last reachable endpoint stopped being ready (ms since the epoch). */
  since: number;
  endpoints: EndpointFailure[];
}

export type AvailabilityEvent =
  | { kind: 'unreachable'; outage: EtcdOutage }
  | { kind: 'reachable'; endpoint: string; since: number; downMs: number };

/** What a connection reports: ready; lost after being ready; or an attempt that failed. */
export type ConnectionReport = { ready: true } | { ready: false; attempted: boolean; error?: string };

interface EndpointState {
  ready: boolean;
  /** When it stopped being ready (or its first attempt, when it never was). */
  notReadySince?: number;
  /** Set once an attempt failed since it was last ready: the endpoint counts as down. */
  error?: string;
}

export class EtcdAvailability {
  private readonly states = new Map<string, EndpointState>();
  private current: EtcdOutage | undefined;

  constructor(
    urls: readonly string[],
    private readonly onEvent: (e: AvailabilityEvent) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {
    for (const url of urls) this.states.set(url, { ready: false });
  }

  /** Feeds one connection report for the endpoint `url`. */
  report(url: string, r: ConnectionReport): void {
    const s = this.states.get(url);
    if (!s) return;
    const t = this.now();
    if (r.ready) {
      s.ready = true;
      s.notReadySince = undefined;
      s.error = undefined;
      const ended = this.current;
      if (ended) {
        this.current = undefined;
        this.onEvent({ kind: 'reachable', endpoint: url, since: ended.since, downMs: t - ended.since });
      }
      return;
    }
    if (s.ready || s.notReadySince === undefined) s.notReadySince = t;
    s.ready = false;
    if (!r.attempted) return;
    s.error = r.error || 'the connection closed before the server answered';
    if (this.current) {
      // Still the same outage: keep each endpoint's latest error for the health check.
      this.current = { since: this.current.since, endpoints: this.failures() };
      return;
    }
    if ([...this.states.values()].some((e) => e.error === undefined)) return;
    const since = Math.max(...[...this.states.values()].map((e) => e.notReadySince ?? t));
    this.current = { since, endpoints: this.failures() };
    this.onEvent({ kind: 'unreachable', outage: this.current });
  }

  /** The outage going on, if any. */
  outage(): EtcdOutage | undefined {
    return this.current;
  }

  /** One line naming the outage (for health checks and request logs), or undefined. */
  describe(): string | undefined {
    return this.current ? describeOutage(this.current, this.now()) : undefined;
  }

  private failures(): EndpointFailure[] {
    return [...this.states].map(([url, s]) => ({ url, error: s.error ?? 'not connected' }));
  }
}

/** `etcd unreachable since 2026-12-02T04:31:07.412Z (12.3 s): http://127.0.0.1:2379: connect ECONNREFUSED 127.0.0.1:2379` */
export function describeOutage(o: EtcdOutage, now: number): string {
  const seconds = Math.max(0, now - o.since) / 1000;
  return `etcd unreachable since ${new Date(o.since).toISOString()} (${seconds.toFixed(1)} s): ${o.endpoints.map((e) => `${e.url}: ${e.error}`).join('; ')}`;
}
