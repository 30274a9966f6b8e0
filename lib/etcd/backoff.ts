// Exponential backoff for reconnects and retries: short on purpose (no circuit breaker), so a
// restarted etcd is used again within maxMs.

export class Backoff {
  private current: number;

  constructor(
    private readonly initialMs = 100,
    private readonly maxMs = 2000,
  ) {
    this.current = initialMs;
  }

  /** The next delay: initial, then doubling up to max, with ±20% jitter so replicas spread out. */
  next(): number {
    const d = this.current;
    this.current = Math.min(this.current * 2, this.maxMs);
    return Math.round(d * (0.8 + Math.random() * 0.4));
  }

  reset(): void {
    this.current = this.initialMs;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
