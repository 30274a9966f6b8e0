// Connections to etcd endpoints: one gRPC channel per endpoint (KV and Watch share it), unary
// calls sent to a READY endpoint round-robin, failover and short-backoff retries, and the
// mapping of transport failures to UnavailableError. No circuit breaker: every call tries again.
import * as grpc from '@grpc/grpc-js';
import { Backoff, sleep } from './backoff';
import { chooseEndpoint, type EndpointView } from './endpointChoice';
import { etcdServices, KVClient, WatchClient } from './etcd3Proto';
import { StorageError, UnavailableError } from './storage';

export interface Endpoint {
  /** As configured, e.g. http://127.0.0.1:2379. */
  url: string;
  kv: KVClient;
  watch: WatchClient;
  /** Start times of the unary calls in flight on it (see endpointChoice.ts). */
  inflight: Set<{ since: number }>;
}

export interface TlsOptions {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

export type CallMode = 'read' | 'write';

type UnaryMethod = 'Range' | 'Txn' | 'Compact';

const channelOptions: grpc.ChannelOptions = {
  // Lists and watch batches may exceed grpc's default 4 MiB receive cap.
  'grpc.max_receive_message_length': -1,
  'grpc.max_send_message_length': -1,
  // grpc-js defaults are 1 s → 120 s; a restarted etcd must be used again within 2 s.
  'grpc.initial_reconnect_backoff_ms': 100,
  'grpc.max_reconnect_backoff_ms': 2000,
  // Detect a silently dead peer (etcd's server allows pings every 5 s and more).
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
};

export class EndpointPool {
  readonly endpoints: Endpoint[];
  private next = 0;
  private closed = false;
  /** Waits in ready(): close() ends them, so nothing waits on a closed channel until its deadline. */
  private readonly waiting = new Set<(err: Error) => void>();

  constructor(
    urls: string[],
    private readonly requestTimeoutMs: number,
    tls?: TlsOptions,
  ) {
    if (urls.length === 0) throw new Error('etcd: no endpoints configured');
    const { KV, Watch } = etcdServices();
    this.endpoints = urls.map((url) => {
      const u = new URL(url.includes('://') ? url : `http://${url}`);
      const secure = u.protocol === 'https:';
      if (!secure && u.protocol !== 'http:') throw new Error(`etcd endpoint ${url}: scheme must be http or https`);
      const creds = secure ? grpc.credentials.createSsl(tls?.ca ?? null, tls?.key ?? null, tls?.cert ?? null) : grpc.credentials.createInsecure();
      const kv = new KV(u.host, creds, channelOptions);
      const watch = new Watch(u.host, creds, { ...channelOptions, channelOverride: kv.getChannel() });
      return { url, kv, watch, inflight: new Set<{ since: number }>() };
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
    const idx = chooseEndpoint(this.views(), this.next, Date.now());
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

  private views(): EndpointView[] {
    return this.endpoints.map((ep) => {
      let oldest: number | undefined;
      for (const c of ep.inflight) oldest = oldest === undefined ? c.since : Math.min(oldest, c.since);
      return { ready: ep.kv.getChannel().getConnectivityState(true) === grpc.connectivityState.READY, oldestInflightSince: oldest };
    });
  }

  /**
   * Like grpc's Client.waitForReady, but stops once the pool is closed: grpc's version asks a
   * closing channel to connect again and leaves a deadline timer that keeps the process alive.
   */
  private waitForReady(ep: Endpoint, deadline: number, done: (err?: Error) => void): void {
    const channel = ep.kv.getChannel();
    const check = (err?: Error): void => {
      if (err || this.closed) return done(err ?? closedError());
      const state = channel.getConnectivityState(true);
      if (state === grpc.connectivityState.READY) return done();
      if (state === grpc.connectivityState.SHUTDOWN) return done(closedError());
      try {
        channel.watchConnectivityState(state, deadline, check);
      } catch (e) {
        done(e instanceof Error ? e : closedError());
      }
    };
    check();
  }

  /** The endpoint for a new watch stream: round-robin, preferring channels neither in failure nor stalled. */
  pickForStream(): Endpoint {
    const n = this.endpoints.length;
    const healthy = chooseEndpoint(this.views(), this.next, Date.now());
    if (healthy !== undefined) {
      this.next = (healthy + 1) % n;
      return this.endpoints[healthy];
    }
    for (let i = 0; i < n; i++) {
      const idx = (this.next + i) % n;
      const state = this.endpoints[idx].kv.getChannel().getConnectivityState(true);
      if (state !== grpc.connectivityState.TRANSIENT_FAILURE || i === n - 1) {
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
  async unary<Req, Res>(method: UnaryMethod, req: Req, mode: CallMode): Promise<Res> {
    const deadline = Date.now() + this.requestTimeoutMs;
    const backoff = new Backoff(100, 2000);
    for (;;) {
      const ep = await this.ready(deadline);
      try {
        return await tracked(ep, () => callOnce<Req, Res>(ep.kv, method, req, deadline));
      } catch (err) {
        if (!isServiceError(err)) throw err;
        // Raw gRPC errors leave here: the caller knows the key and revision to put in its error.
        if (!retryable(err, mode) || this.closed) throw err;
        const wait = backoff.next();
        if (Date.now() + wait >= deadline) throw err;
        await sleep(wait);
      }
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const abort of [...this.waiting]) abort(closedError());
    for (const ep of this.endpoints) {
      ep.watch.close();
      ep.kv.close();
    }
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

/** Runs a call while recording it as in flight on the endpoint. */
async function tracked<T>(ep: Endpoint, call: () => Promise<T>): Promise<T> {
  const entry = { since: Date.now() };
  ep.inflight.add(entry);
  try {
    return await call();
  } finally {
    ep.inflight.delete(entry);
  }
}

function callOnce<Req, Res>(kv: KVClient, method: UnaryMethod, req: Req, deadline: number): Promise<Res> {
  return new Promise((resolve, reject) => {
    const fn = kv[method] as unknown as (
      r: Req,
      md: grpc.Metadata,
      o: grpc.CallOptions,
      cb: (err: grpc.ServiceError | null, res?: Res) => void,
    ) => grpc.ClientUnaryCall;
    fn.call(kv, req, new grpc.Metadata(), { deadline }, (err, res) => (err ? reject(err) : resolve(res!)));
  });
}

export function isServiceError(err: unknown): err is grpc.ServiceError {
  return err instanceof Error && typeof (err as Partial<grpc.ServiceError>).code === 'number';
}

function retryable(err: grpc.ServiceError, mode: CallMode): boolean {
  if (err.code !== grpc.status.UNAVAILABLE) return false;
  if (mode === 'read') return true;
  // Failed before any byte was sent on a connection.
  return /No connection established|Stream refused|Waiting for LB pick/i.test(err.details ?? '');
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
    case grpc.status.UNAVAILABLE:
    case grpc.status.DEADLINE_EXCEEDED:
    case grpc.status.CANCELLED:
      return new UnavailableError(`etcd unavailable: ${detail}`, key);
    default:
      return new StorageError(`etcd: ${detail}`, key);
  }
}
