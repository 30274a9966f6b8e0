// A small seeded PRNG (mulberry32): the same seed generates the same cases, so a failure
// printed with its seed can be replayed with FUZZ_SEED=<seed>.

export class Prng {
  private state: number;
  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (!items.length) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Up to n distinct items in random order. */
  sample<T>(items: readonly T[], n: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, n);
  }

  bytes(n: number): Buffer {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = Math.floor(this.next() * 256);
    return b;
  }

  /** A lowercase alphanumeric token. */
  token(n: number): string {
    const abc = 'abcdefghijklmnopqrstuvwxyz0123456789';
    let s = '';
    for (let i = 0; i < n; i++) s += abc[Math.floor(this.next() * abc.length)];
    return s;
  }
}

/** The barrage CI runs; FUZZ_SEED picks another (e.g. to explore, or to replay a printed seed). */
export const defaultFuzzSeed = 0x5eed2026;

export function fuzzSeed(env: NodeJS.ProcessEnv = process.env): number {
  const fixed = env.FUZZ_SEED;
  if (fixed !== undefined && fixed !== '') {
    const n = Number(fixed);
    if (!Number.isInteger(n)) throw new Error(`FUZZ_SEED must be an integer, got ${fixed}`);
    return n >>> 0;
  }
  return defaultFuzzSeed;
}
