// Go's time.ParseDuration, shared by flags (--request-timeout) and query parameters (?timeout=).

const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export class DurationError extends Error {}

/** Milliseconds; throws DurationError with Go's message. Accepts a sign, fractions and unit sequences ("1h30m", "-1.5s"). */
export function parseGoDuration(s: string): number {
  const body = s.startsWith('-') || s.startsWith('+') ? s.slice(1) : s;
  if (body === '0') return 0;
  const re = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(body))) {
    total += Number(m[1]) * units[m[2]];
    matched = re.lastIndex;
  }
  if (matched !== body.length || body.length === 0) throw new DurationError(`time: invalid duration ${JSON.stringify(s)}`);
  return s.startsWith('-') ? -total : total;
}
