// Named health checks behind /livez, /readyz and /healthz (discovery-and-health.md §4), and the
// pure request handler the HTTP layer calls. Output formats follow upstream's healthz package
// byte for byte: `ok`, the verbose per-check lines, `reason withheld` for failures on the public
// root endpoints, and `internal server error: <reason>` on the per-check paths.
// Departure: a caller who asks for `?verbose` and may read a check's own path (/readyz/etcd: the
// monitoring identity, an admin) gets its reason in the root listing too, as
// `[-]etcd failed: <reason>` (the line upstream writes to its log), instead of asking each
// failing check separately. Without `?verbose` (what probes send) the body is upstream's.
import { goQuote } from '../../machinery/fieldErrors';

export type HealthEndpoint = 'livez' | 'readyz' | 'healthz';
export const healthEndpoints: readonly HealthEndpoint[] = ['livez', 'readyz', 'healthz'];

/** Nothing (or null) means healthy; a string is the failure reason; a throw fails with its message. */
export type CheckOutcome = string | null | undefined | void;
export type HealthCheckFn = () => CheckOutcome | Promise<CheckOutcome>;

export interface HealthCheck {
  /** May contain '/', e.g. poststarthook/rbac/bootstrap-roles. */
  name: string;
  check: HealthCheckFn;
  /** Endpoints that run this check; default all three. */
  endpoints?: readonly HealthEndpoint[];
  /** Exclusion group: `?exclude=<group>` also skips this check (e.g. etcd-override-0 in group etcd). */
  group?: string;
  /** Listed after every check without this flag (upstream's shutdown check comes last). */
  last?: boolean;
  /** A boot-sequence check (post-start hook): /livez passes it during the livez grace period. */
  bootSequence?: boolean;
}

export interface HealthResponse {
  status: 200 | 404 | 500;
  headers: Record<string, string>;
  /** For 404 the HTTP layer answers with its usual NotFound Status instead. */
  body: string;
  /** The failing checks with their reasons (for the request's log line), in output order. */
  failed?: { name: string; reason: string }[];
}

/** Whether the caller may see a failing check's reason: may it read `/<endpoint>/<name>`? */
export type RevealReason = (endpoint: HealthEndpoint, name: string) => boolean;

export type HealthQuery = URLSearchParams | Record<string, string | readonly string[] | undefined>;

export interface HealthRegistryOptions {
  /** Milliseconds clock (injected for tests). */
  now?: () => number;
  /**
   * Boot-sequence checks (post-start hooks) report ok on /livez until this long after `startedAt`
   * (upstream --livez-grace-period, default 0): a slow start does not get the server restarted.
   * Other checks (etcd, log) and /readyz, /healthz are never delayed.
   */
  livezGracePeriodMs?: number;
  startedAt?: number;
  /** A check that has not answered after this long fails (`timed out after <n>ms`). 0 disables. */
  checkTimeoutMs?: number;
  /** Where failing reasons go (they are withheld from the root endpoints' bodies). */
  onFailure?: (endpoint: HealthEndpoint, name: string, reason: string) => void;
}

const textHeaders = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' } as const;

function queryValues(q: HealthQuery, key: string): string[] | undefined {
  if (q instanceof URLSearchParams) return q.has(key) ? q.getAll(key) : undefined;
  const v = q[key];
  if (v === undefined) return undefined;
  return typeof v === 'string' ? [v] : [...v];
}

export class HealthRegistry {
  private readonly checks: HealthCheck[] = [];
  private readonly now: () => number;
  private readonly graceMs: number;
  private readonly startedAt: number;
  private readonly timeoutMs: number;
  private readonly onFailure?: HealthRegistryOptions['onFailure'];

  constructor(opts: HealthRegistryOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.graceMs = opts.livezGracePeriodMs ?? 0;
    this.startedAt = opts.startedAt ?? this.now();
    this.timeoutMs = opts.checkTimeoutMs ?? 0;
    this.onFailure = opts.onFailure;
  }

  /** Registers a check; a name may appear once per endpoint. */
  add(check: HealthCheck): void {
    const endpoints = check.endpoints ?? healthEndpoints;
    for (const e of endpoints) {
      if (this.checksFor(e).some((c) => c.name === check.name)) throw new Error(`health check ${JSON.stringify(check.name)} already registered for /${e}`);
    }
    this.checks.push({ ...check, endpoints: [...endpoints] });
  }

  /** Checks of one endpoint in output order: registration order, `last` ones at the end. */
  checksFor(endpoint: HealthEndpoint): HealthCheck[] {
    const mine = this.checks.filter((c) => (c.endpoints ?? healthEndpoints).includes(endpoint));
    return [...mine.filter((c) => !c.last), ...mine.filter((c) => c.last)];
  }

  /** Runs one check: the failure reason, or null when healthy. */
  async run(endpoint: HealthEndpoint, check: HealthCheck): Promise<string | null> {
    // Upstream's delayedLivezCheck: skipped until the clock is after start + grace.
    if (endpoint === 'livez' && check.bootSequence && this.graceMs > 0 && this.now() <= this.startedAt + this.graceMs) return null;
    let timer: NodeJS.Timeout | undefined;
    try {
      const outcome = Promise.resolve().then(check.check);
      const timeout =
        this.timeoutMs > 0
          ? new Promise<string>((resolve) => {
              timer = setTimeout(() => resolve(`timed out after ${this.timeoutMs}ms`), this.timeoutMs);
            })
          : undefined;
      const r = await (timeout ? Promise.race([outcome, timeout]) : outcome);
      return typeof r === 'string' ? r : null;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  /**
   * Answers GET /<endpoint>[/<subPath>]. subPath '' (or '/') is the root endpoint; anything
   * else must name a registered check exactly, else 404.
   */
  readonly handleHealth = async (endpoint: HealthEndpoint, subPath: string, query: HealthQuery, reveal?: RevealReason): Promise<HealthResponse> => {
    const name = subPath.replace(/^\//, '');
    if (name !== '') return this.single(endpoint, name);
    return this.root(endpoint, query, reveal);
  };

  private async single(endpoint: HealthEndpoint, name: string): Promise<HealthResponse> {
    const check = this.checksFor(endpoint).find((c) => c.name === name);
    if (!check) return { status: 404, headers: { ...textHeaders }, body: '' };
    const reason = await this.run(endpoint, check);
    if (reason === null) return { status: 200, headers: { ...textHeaders }, body: 'ok' };
    this.onFailure?.(endpoint, name, reason);
    return { status: 500, headers: { ...textHeaders }, body: `internal server error: ${reason}\n`, failed: [{ name, reason }] };
  }

  private async root(endpoint: HealthEndpoint, query: HealthQuery, reveal?: RevealReason): Promise<HealthResponse> {
    const excluded = new Set(queryValues(query, 'exclude') ?? []);
    const verbose = queryValues(query, 'verbose') !== undefined;
    const used = new Set<string>();
    const checks = this.checksFor(endpoint);
    // Checks run concurrently; their lines keep registration order.
    const lines = await Promise.all(
      checks.map(async (c): Promise<{ line: string; failed: boolean; reason?: string }> => {
        if (excluded.has(c.name)) {
          used.add(c.name);
          return { line: `[+]${c.name} excluded: ok`, failed: false };
        }
        if (c.group !== undefined && excluded.has(c.group)) {
          used.add(c.group);
          return { line: `[+]${c.name} excluded with ${c.group}: ok`, failed: false };
        }
        const reason = await this.run(endpoint, c);
        if (reason === null) return { line: `[+]${c.name} ok`, failed: false };
        this.onFailure?.(endpoint, c.name, reason);
        return { line: `[-]${c.name} failed: ${verbose && reveal?.(endpoint, c.name) ? reason : 'reason withheld'}`, failed: true, reason };
      }),
    );
    let out = lines.map((l) => `${l.line}\n`).join('');
    const unmatched = [...excluded].filter((e) => !used.has(e)).sort();
    if (unmatched.length) out += `warn: some health checks cannot be excluded: no matches for ${unmatched.map(goQuote).join(',')}\n`;
    const failed = checks.flatMap((c, i) => (lines[i].failed ? [{ name: c.name, reason: lines[i].reason ?? '' }] : []));
    if (failed.length) return { status: 500, headers: { ...textHeaders }, body: `${out}${endpoint} check failed\n`, failed };
    if (!verbose) return { status: 200, headers: { ...textHeaders }, body: 'ok' };
    return { status: 200, headers: { ...textHeaders }, body: `${out}${endpoint} check passed\n` };
  }
}
