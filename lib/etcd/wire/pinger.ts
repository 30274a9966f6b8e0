// The HTTP/2 PINGs of one connection: keepalive's and the probes sent when a call stalls (a
// member stopped or cut off keeps its TCP connection open and silent; an unanswered ping is the
// only way to tell within a second). One ping at a time; an unanswered one calls onSilent.
//
// etcd (grpc-go) enforces a minimum interval between client pings (--grpc-keepalive-min-time,
// 5 s): a ping sooner than that after the previous one is a strike unless the server sent headers
// or data since, and a third strike closes the connection with GOAWAY too_many_pings, failing
// every call on it. So a ping goes out only when the previous one is that old, or when the server
// sent something after the previous one was answered.

export interface PingClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: PingClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref(); // the session's streams keep the process alive, not its pings
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** What an unanswered ping reports. */
export interface Silence {
  /** When the unanswered ping was sent (ms since the epoch). */
  sentAt: number;
  /** How long it waited for an answer. */
  timeoutMs: number;
  /** When the server was last heard from (an answered ping or a response), if ever. */
  lastHeardAt?: number;
  /** Who asked for the ping whose deadline passed (ping()'s purpose). */
  purpose: string;
}

export class Pinger {
  private lastPingAt: number | undefined;
  private heardSinceAnswer = false;
  private lastHeardAt: number | undefined;
  private pending: { sentAt: number; due: number; purpose: string; timer: unknown } | undefined;
  private done = false;

  constructor(
    /** Sends one PING; calls back on its answer (err when it cannot be answered, e.g. the session closed). Throws when the session cannot send. */
    private readonly send: (answered: (err: Error | null) => void) => void,
    private readonly onSilent: (s: Silence) => void,
    private readonly clock: PingClock = realClock,
    /** The server's minimum interval between pings without data in between. */
    private readonly minIntervalMs = 5000,
  ) {}

  /** The server sent response headers or data. */
  heard(): void {
    this.heardSinceAnswer = true;
    this.lastHeardAt = this.clock.now();
  }

  /**
   * A ping that must be answered within timeoutMs. With one outstanding, its deadline moves in
   * to timeoutMs from now if that is sooner. False when none may be sent now (server's policy).
   */
  ping(timeoutMs: number, purpose: string): boolean {
    if (this.done) return false;
    const now = this.clock.now();
    if (this.pending) {
      if (now + timeoutMs < this.pending.due) this.arm(this.pending.sentAt, now + timeoutMs, purpose);
      return true;
    }
    if (this.lastPingAt !== undefined && !this.heardSinceAnswer && now - this.lastPingAt < this.minIntervalMs) return false;
    const sentAt = now;
    try {
      this.send((err) => this.answered(sentAt, err));
    } catch {
      return false; // the session is closing: its 'close' handles the rest
    }
    this.lastPingAt = now;
    this.heardSinceAnswer = false;
    this.arm(now, now + timeoutMs, purpose);
    return true;
  }

  /** Whether a ping waits for its answer. */
  get waiting(): boolean {
    return this.pending !== undefined;
  }

  /** No more pings or timeouts (the session ended). */
  dispose(): void {
    this.done = true;
    if (this.pending) this.clock.clearTimeout(this.pending.timer);
    this.pending = undefined;
  }

  private arm(sentAt: number, due: number, purpose: string): void {
    if (this.pending) this.clock.clearTimeout(this.pending.timer);
    const timer = this.clock.setTimeout(() => {
      if (this.pending?.timer !== timer) return;
      this.pending = undefined;
      if (this.done) return;
      this.done = true;
      this.onSilent({ sentAt, timeoutMs: due - sentAt, lastHeardAt: this.lastHeardAt, purpose });
    }, Math.max(0, due - this.clock.now()));
    this.pending = { sentAt, due, purpose, timer };
  }

  private answered(sentAt: number, err: Error | null): void {
    if (!this.pending || this.pending.sentAt !== sentAt) return;
    // An error means the session is going away; its 'close' reports that, not us.
    this.clock.clearTimeout(this.pending.timer);
    this.pending = undefined;
    if (err) return;
    this.lastHeardAt = this.clock.now();
    this.heardSinceAnswer = false;
  }
}
