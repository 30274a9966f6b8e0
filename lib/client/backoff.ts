// The reflector's backoff between relists and failed watch starts: 0.8 s doubling to a 30 s cap,
// each delay jittered up by as much again (so [0.8, 1.6) s … [30, 60) s), and back to 0.8 s once
// no backoff was needed for 2 minutes. This is client-go's
// NewExponentialBackoffManager(800ms, 30s, 2m, 2.0, 1.0) over wait.Backoff's step rule.
import type { Clock } from './clock';

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  /** Idle time after which the next delay starts again from initialMs. */
  resetMs: number;
  factor: number;
  /** Each delay d becomes d + random() * jitter * d. */
  jitter: number;
}

export const reflectorBackoff: BackoffOptions = { initialMs: 800, maxMs: 30_000, resetMs: 120_000, factor: 2, jitter: 1 };

export class ExponentialBackoff {
  private durationMs: number;
  /** Steps left in which the duration may still grow; 0 once capped (wait.Backoff.Steps). */
  private steps = Number.MAX_SAFE_INTEGER;
  private lastStart: number;

  constructor(
    private readonly opts: BackoffOptions,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly random: () => number = Math.random,
  ) {
    this.durationMs = opts.initialMs;
    this.lastStart = clock.now();
  }

  /** The next delay in milliseconds. */
  next(): number {
    const now = this.clock.now();
    if (now - this.lastStart > this.opts.resetMs) {
      this.durationMs = this.opts.initialMs;
      this.steps = Number.MAX_SAFE_INTEGER;
    }
    this.lastStart = now;
    const current = this.durationMs;
    if (this.steps >= 1) {
      this.steps--;
      let grown = current * this.opts.factor;
      if (grown > this.opts.maxMs) {
        grown = this.opts.maxMs;
        this.steps = 0;
      }
      this.durationMs = grown;
    }
    return this.opts.jitter > 0 ? current + this.random() * this.opts.jitter * current : current;
  }
}
