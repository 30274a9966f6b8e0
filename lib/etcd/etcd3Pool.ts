// Connections to etcd endpoints: one HTTP/2 connection per endpoint (KV and Watch share it,
// wire/http2Connection.ts), unary calls sent to a READY endpoint round-robin, failover and
// short-backoff retries, and the mapping of transport failures to UnavailableError. No circuit
// breaker: every call tries again. A call that waits longer than stalledAfterMs has every
// connection pinged (Http2Connection.probe), not only its own: a write waiting on a follower
// often waits for a leader that vanished, whose connection is silent too. A member that stopped
// answering without closing its connections (SIGSTOP, `docker kill`, a cut network path) is
// given up within a second, its calls fail (a write in flight is not sent again: it may have
// been applied) and the watch stream on it resumes on another member.
// Calls a lost member holds up on the other members are abandoned (memberLoss.ts).
import type { Logger } from 'pino';
import { EtcdAvailability, type AvailabilityEvent, type ConnectionReport } from './availability';
import { Backoff, sleep } from './backoff';
import { chooseEndpoint, stalledAfterMs, type EndpointView } from './endpointChoice';
import { MemberLoss, type MemberLossTuning } from './memberLoss';
import { StorageError, UnavailableError } from './storage';
import { kvMethods, requestSizeHint, type RequestOf, type ResponseOf, type UnaryMethod } from './wire/etcdMethods';
import { frameMessage } from './wire/grpcFrame';
import { GrpcError, GrpcStatus } from './wire/grpcStatus';
import { Http2Connection } from './wire/http2Connection';
import type { Silence } from './wire/pinger';
import { unaryCall } from './wire/unaryCall';

export interface Endpoint {
  /** As configured, e.g. http://127.0.0.1:2379. */
  url: string;
  conn: Http2Connection;
  /** Start times of the unary calls in flight on it (see endpointChoice.ts). */
  inflight: Set<{ since: number }>;
}

export interface TlsOptions {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

export type CallMode = 'read' | 'write';

export interface PoolTuning extends MemberLossTuning {
  /** A call waiting longer has its connection probed; default endpointChoice's stalledAfterMs (1 s). */
  stalledAfterMs?: number;
  /** How long the probe's ping may go unanswered; default 1 s. */
  probeTimeoutMs?: number;
}

export class EndpointPool {
  readonly endpoints: Endpoint[];
  /** Whether any endpoint can be reached, from the connections' reports (availability.ts). */
  readonly availability: EtcdAvailability;
  private next = 0;
  private closed = false;
  /** Waits in ready(): close() ends them, so nothing waits on a closed channel until its deadline. */
  private readonly waiting = new Set<(err: Error) => void>();
  /** A call or watch answer waited for longer than this has its connection probed. */
  readonly stalledAfterMs: number;
  /** Calls held up on the other members after one is lost (memberLoss.ts). */
  private readonly losses: MemberLoss;

  constructor(
    urls: string[],
    private readonly requestTimeoutMs: number,
    tls?: TlsOptions,
    onAvailability?: (e: AvailabilityEvent) => void,
    log?: Logger,
    tuning: PoolTuning = {},
  ) {
    if (urls.length === 0) throw new Error('etcd: no endpoints configured');
    this.stalledAfterMs = tuning.stalledAfterMs ?? stalledAfterMs;
    const losses = (this.losses = new MemberLoss(tuning));
    const availability = (this.availability = new EtcdAvailability(urls, onAvailability));
    this.endpoints = urls.map((url) => {
      const u = new URL(url.includes('://') ? url : `http://${url}`);
      const secure = u.protocol === 'https:';
      if (!secure && u.protocol !== 'http:') throw new Error(`etcd endpoint ${url}: scheme must be http or https`);
      // Reconnect backoff 100 ms → 2 s (a restarted etcd is used again within 2 s); keepalive
      // 10 s + 5 s (a cut-off member is given up within 15 s; etcd allows a ping every 5 s).
      const report = (r: ConnectionReport): void => {
        if (r.ready) log?.debug({ endpoint: url }, 'etcd connection ready');
        else log?.debug({ endpoint: url, err: r.error, attempted: r.attempted }, r.attempted ? 'etcd connection attempt failed' : 'etcd connection lost, reconnecting');
        if (!r.ready && !r.attempted) losses.memberLost(url, r.error);
        availability.report(url, r);
      };
      // Once per connection given up: the cause of the calls that fail with it.
      const onSilent = (s: Silence, error: string): void => {
        log?.warn(
          { endpoint: url, error, pingSentAt: new Date(s.sentAt).toISOString(), lastHeardAt: s.lastHeardAt !== undefined ? new Date(s.lastHeardAt).toISOString() : undefined },
          `etcd endpoint ${url} gave no answer to a ping (${error}): connection closed, its calls fail, new ones go to the other endpoints`,
        );
      };
      const conn = new Http2Connection(`${u.protocol}//${u.host}`, { tls: secure ? tls : undefined, report, onSilent, probeTimeoutMs: tuning.probeTimeoutMs });
      return { url, conn, inflight: new Set<{ since: number }>() };
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * A READY endpoint, round-robin, passing over one whose calls stall (a member cut off by the
   * network); when none is READY, the first to become READY before the deadline.
   */
  async ready(deadline: number): Promise<Endpoint> {
    this.checkOpen();
    const n = this.endpoints.length;
    const idx = chooseEndpoint(this.views(), this.next, Date.now(), this.stalledAfterMs);
    if (idx !== undefined) {
      this.next = (idx + 1) % n;
      return this.endpoints[idx];
    }
    return new Promise((resolve, reject) => {
      let pending = n;
      let settled = false;
      const settle = (ep: Endpoint | undefined, err?: Error): void => {
        if (settled) return;
        settled = true;
        this.waiting.delete(abort);
        if (ep) resolve(ep);
        else reject(err);
      };
      const abort = (err: Error): void => settle(undefined, err);
      this.waiting.add(abort);
      for (const ep of this.endpoints) {
        this.waitForReady(ep, deadline, (err) => {
          if (this.closed) settle(undefined, closedError());
          else if (!err) settle(ep);
          else if (--pending === 0) {
            settle(undefined, new UnavailableError(`etcd unavailable: no endpoint of ${this.urls()} ready within ${this.requestTimeoutMs} ms`, ''));
          }
        });
      }
    });
  }

  /** Starts a connection attempt to every idle endpoint (one backing off tries when its backoff ends). */
  connectAll(): void {
    if (this.closed) return;
    for (const ep of this.endpoints) ep.conn.connectivity(true);
  }

  private views(): EndpointView[] {
    return this.endpoints.map((ep) => {
      // A Set iterates in insertion order and calls are added as they start: the first is the
      // oldest (no walk over every call in flight on each pick).
      const oldest = ep.inflight.values().next().value?.since;
      return { ready: ep.conn.connectivity(true) === 'ready', oldestInflightSince: oldest };
    });
  }

  /** Until the endpoint is READY (failed attempts are retried meanwhile), the deadline, or close(). */
  private waitForReady(ep: Endpoint, deadline: number, done: (err?: Error) => void): void {
    if (this.closed) return done(closedError());
    ep.conn.waitForReady(deadline, done);
  }

  /** The endpoint for a new watch stream: round-robin, preferring channels neither in failure nor stalled. */
  pickForStream(): Endpoint {
    const n = this.endpoints.length;
    const healthy = chooseEndpoint(this.views(), this.next, Date.now(), this.stalledAfterMs);
    if (healthy !== undefined) {
      this.next = (healthy + 1) % n;
      return this.endpoints[healthy];
    }
    for (let i = 0; i < n; i++) {
      const idx = (this.next + i) % n;
      const state = this.endpoints[idx].conn.connectivity(true);
      if (state !== 'failure' || i === n - 1) {
        this.next = (idx + 1) % n;
        return this.endpoints[idx];
      }
    }
    return this.endpoints[0];
  }

  /**
   * One unary call with failover. Reads retry on UNAVAILABLE until the request deadline. Writes
   * retry only when the request surely never reached etcd: a write that may have been applied
   * must not run twice (a compare-and-swap would then fail or apply an update twice).
   */
  async unary<M extends UnaryMethod>(method: M, req: RequestOf<M>, mode: CallMode): Promise<ResponseOf<M>> {
    const deadline = Date.now() + this.requestTimeoutMs;
    const m = kvMethods[method];
    // Encoded once: a retry sends the same bytes.
    const body = frameMessage(m.write as (w: Parameters<typeof m.write>[0], r: RequestOf<M>) => void, req, requestSizeHint(method, req));
    let backoff: Backoff | undefined;
    for (;;) {
      const ep = await this.ready(deadline);
      let cancel: ((details: string) => void) | undefined;
      const done = this.losses.begin(ep.url, (details) => cancel?.(details));
      try {
        return await tracked(ep, this.stalledAfterMs, () => this.probeAll(), () =>
          unaryCall(ep.conn, m.path, body, m.read as (r: Parameters<typeof m.read>[0]) => ResponseOf<M>, deadline, (c) => (cancel = c)),
        );
      } catch (err) {
        if (!isServiceError(err)) throw err;
        // Raw gRPC errors leave here: the caller knows the key and revision to put in its error.
        if (!retryable(err, mode) || this.closed) throw err;
        const wait = (backoff ??= new Backoff(100, 2000)).next();
        if (Date.now() + wait >= deadline) throw err;
        await sleep(wait);
      } finally {
        done();
      }
    }
  }

  /** Pings every ready connection; those that do not answer in time are dropped. */
  probeAll(): void {
    for (const ep of this.endpoints) ep.conn.probe();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const abort of [...this.waiting]) abort(closedError());
    for (const ep of this.endpoints) ep.conn.close();
  }

  urls(): string {
    return this.endpoints.map((e) => e.url).join(',');
  }

  private checkOpen(): void {
    if (this.closed) throw closedError();
  }
}

function closedError(): UnavailableError {
  return new UnavailableError('etcd client is closed', '');
}

/** Runs a call while recording it as in flight on the endpoint; onStall once it waited stalledAfter ms. */
async function tracked<T>(ep: Endpoint, stalledAfter: number, onStall: () => void, call: () => Promise<T>): Promise<T> {
  const entry = { since: Date.now() };
  ep.inflight.add(entry);
  const probe = setTimeout(onStall, stalledAfter);
  try {
    return await call();
  } finally {
    clearTimeout(probe);
    ep.inflight.delete(entry);
  }
}

export function isServiceError(err: unknown): err is GrpcError {
  return err instanceof GrpcError;
}

function retryable(err: GrpcError, mode: CallMode): boolean {
  if (err.code !== GrpcStatus.UNAVAILABLE) return false;
  if (mode === 'read') return true;
  // No connection, or the server refused the stream: the write never reached etcd.
  return err.unprocessed;
}

// etcd's revision errors carry no numbers (callers fill them in), and their gRPC code differs
// between versions (OUT_OF_RANGE, UNKNOWN): the message is the stable part.
export function isCompactedError(err: unknown): boolean {
  return isServiceError(err) && /required revision has been compacted/.test(err.details ?? '');
}
export function isFutureRevisionError(err: unknown): boolean {
  return isServiceError(err) && /required revision is a future revision/.test(err.details ?? '');
}

/** Transport and availability failures → UnavailableError; anything else → StorageError. */
export function toStorageError(err: unknown, key = ''): Error {
  if (!isServiceError(err)) return err instanceof Error ? err : new StorageError(String(err), key);
  const detail = err.details || err.message;
  switch (err.code) {
    case GrpcStatus.UNAVAILABLE:
    case GrpcStatus.DEADLINE_EXCEEDED:
    case GrpcStatus.CANCELLED:
      return new UnavailableError(`etcd unavailable: ${detail}`, key);
    default:
      return new StorageError(`etcd: ${detail}`, key);
  }
}
