// One HTTP/2 connection to one etcd endpoint (h2c for http://, TLS for https://), kept up the way
// a gRPC channel keeps its subchannel: idle → connecting → ready; a failed attempt backs off
// 100 ms → 2 s before the next (only when someone wants the connection); a ready connection that
// drops or receives GOAWAY goes idle and reconnects on demand. Keepalive: while streams are open,
// a PING every 10 s that must be answered within 5 s, else the connection is dropped (a member
// cut off by the network is noticed in ≤ 15 s; etcd lets clients ping every 5 s, and without
// open streams not at all, so idle connections send none). probe(): a PING that must be answered
// within 1 s, sent when a call or watch waits on the connection too long (a stopped member is
// given up within a second of that, not 15 s); both within etcd's ping policy (pinger.ts).
import * as http2 from 'node:http2';
import type { ConnectionReport } from '../availability';
import { Backoff } from '../backoff';
import { Pinger, type Silence } from './pinger';

export type ConnectivityState = 'idle' | 'connecting' | 'ready' | 'failure' | 'closed';

export interface ConnectionTls {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

export interface ConnectionOptions {
  tls?: ConnectionTls;
  keepaliveTimeMs?: number;
  keepaliveTimeoutMs?: number;
  /** A connection attempt (TCP + TLS + HTTP/2 settings) that takes longer fails. */
  connectTimeoutMs?: number;
  /** How long probe()'s ping may go unanswered before the connection is dropped; default 1 s. */
  probeTimeoutMs?: number;
  /** Told once when a ready connection is dropped because a ping went unanswered (why, since when). */
  onSilent?: (s: Silence, error: string) => void;
  /** Told when the connection becomes ready, is lost, or an attempt fails (with its error). */
  report?: (r: ConnectionReport) => void;
}

/** The live session with what belongs to it. */
export interface Live {
  readonly session: http2.ClientHttp2Session;
  /** Streams open on it: keepalive pings only while there are some. */
  streams: number;
  /** The session is gone or going (closed, destroyed, GOAWAY): no new streams. */
  dropped: boolean;
  /** The last error the session reported (for the calls' error details). */
  error?: NodeJS.ErrnoException;
  /** Its keepalive pings and probes; told when the server sends something. */
  readonly pinger: Pinger;
}

interface Waiter {
  done: (err?: Error) => void;
  timer: NodeJS.Timeout;
}

// Lists and watch batches may be large: bigger windows than HTTP/2's 64 KiB mean fewer
// WINDOW_UPDATE round trips; the watch stream is read as it arrives, so nothing piles up.
const STREAM_WINDOW = 4 * 1024 * 1024;
const SESSION_WINDOW = 16 * 1024 * 1024;

export class Http2Connection {
  private state: ConnectivityState = 'idle';
  private live: Live | undefined;
  private readonly backoff = new Backoff(100, 2000);
  private retryTimer: NodeJS.Timeout | undefined;
  private connectTimer: NodeJS.Timeout | undefined;
  private keepaliveTimer: NodeJS.Timeout | undefined;
  private readonly waiters = new Set<Waiter>();
  private readonly keepaliveTimeMs: number;
  private readonly keepaliveTimeoutMs: number;
  private readonly connectTimeoutMs: number;
  private readonly probeTimeoutMs: number;

  constructor(
    /** scheme://host:port */
    readonly origin: string,
    private readonly opts: ConnectionOptions = {},
  ) {
    this.keepaliveTimeMs = opts.keepaliveTimeMs ?? 10_000;
    this.keepaliveTimeoutMs = opts.keepaliveTimeoutMs ?? 5_000;
    this.connectTimeoutMs = opts.connectTimeoutMs ?? 10_000;
    this.probeTimeoutMs = opts.probeTimeoutMs ?? 1000;
  }

  /**
   * Something waits on this connection longer than it should (a call, the watch stream): a ping
   * that must be answered within probeTimeoutMs, else the connection is dropped and its calls
   * fail UNAVAILABLE. Nothing when not ready, a ping is already out with an earlier deadline,
   * or etcd's ping policy does not allow one yet.
   */
  probe(): void {
    if (this.state !== 'ready') return;
    this.live?.pinger.ping(this.probeTimeoutMs, 'probe');
  }

  /** The state; with tryToConnect an idle connection starts connecting (as grpc's getConnectivityState(true)). */
  connectivity(tryToConnect: boolean): ConnectivityState {
    if (tryToConnect && this.state === 'idle') this.connect();
    return this.state;
  }

  /** The session for a new stream when ready, else undefined. */
  readySession(): Live | undefined {
    return this.state === 'ready' ? this.live : undefined;
  }

  /**
   * The session for a new long-lived stream: the ready one, or one being connected (Node queues
   * the stream until it is up, and fails it if the attempt fails). Undefined while backing off.
   */
  sessionForStream(): Live | undefined {
    this.connectivity(true);
    return this.state === 'ready' || this.state === 'connecting' ? this.live : undefined;
  }

  /** Calls done() once ready, or done(err) at the deadline or on close. Failed attempts are retried meanwhile. */
  waitForReady(deadline: number, done: (err?: Error) => void): void {
    if (this.state === 'closed') return done(closedError());
    if (this.connectivity(true) === 'ready') return done();
    const w: Waiter = {
      done,
      timer: setTimeout(() => {
        this.waiters.delete(w);
        done(new Error(`etcd ${this.origin}: not connected before the deadline`));
      }, Math.max(0, deadline - Date.now())),
    };
    this.waiters.add(w);
  }

  /** Ends everything: the session (and its streams), timers, waiters. */
  close(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.clearTimers();
    const live = this.live;
    this.live = undefined;
    if (live) {
      live.dropped = true;
      live.session.destroy();
    }
    for (const w of [...this.waiters]) this.settle(w, closedError());
  }

  /** Counts a stream on the session for keepalive; call the returned function when it closes. */
  track(live: Live): () => void {
    // As grpc-js: the socket keeps the process alive only while a call or watch is open.
    if (live.streams++ === 0) live.session.ref();
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      if (--live.streams === 0 && !live.session.destroyed) live.session.unref();
    };
  }

  private connect(): void {
    this.state = 'connecting';
    const secure = this.origin.startsWith('https:');
    const tls = this.opts.tls;
    const session = http2.connect(this.origin, {
      ...(secure ? { ca: tls?.ca, cert: tls?.cert, key: tls?.key } : {}),
      settings: { initialWindowSize: STREAM_WINDOW, enablePush: false },
      // As grpc-js: no session memory cap (Node's default 10 MB refuses new streams while big
      // lists are in flight) and no cap on our own header blocks.
      maxSessionMemory: Number.MAX_SAFE_INTEGER,
      maxSendHeaderBlockLength: Number.MAX_SAFE_INTEGER,
    });
    session.unref();
    const live: Live = {
      session,
      streams: 0,
      dropped: false,
      pinger: new Pinger(
        (answered) => {
          if (!session.ping((err) => answered(err))) throw new Error('ping not sent');
        },
        (s) => this.silent(live, s),
      ),
    };
    this.live = live;
    this.connectTimer = setTimeout(() => {
      this.connectTimer = undefined;
      session.destroy(new Error(`connecting to ${this.origin} timed out after ${this.connectTimeoutMs} ms`));
    }, this.connectTimeoutMs);
    this.connectTimer.unref(); // waiters keep the process alive, not an attempt nobody waits for
    // Ready once the server's SETTINGS arrive (as grpc-js): a TCP or TLS handshake alone does
    // not show that an HTTP/2 server answers.
    session.once('remoteSettings', () => {
      if (this.live !== live) return;
      clearTimeout(this.connectTimer);
      this.connectTimer = undefined;
      try {
        session.setLocalWindowSize(SESSION_WINDOW);
      } catch {
        // only a bigger window; the default works too
      }
      this.state = 'ready';
      this.backoff.reset();
      this.opts.report?.({ ready: true });
      this.startKeepalive(live);
      for (const w of [...this.waiters]) this.settle(w);
    });
    // Always handled: an unhandled 'error' would crash the process. The details go to the calls.
    session.on('error', (err: NodeJS.ErrnoException) => {
      live.error = err;
    });
    session.once('goaway', () => {
      // Node closes the session itself: streams the server accepted finish, newer ones are
      // refused (REFUSED_STREAM, safe to send again). New streams go to a new connection.
      this.lost(live, this.state === 'ready');
    });
    session.once('close', () => {
      live.pinger.dispose();
      this.lost(live, this.state === 'ready');
    });
  }

  /** A ping went unanswered: the session is given up (its calls fail UNAVAILABLE, not processed unknown). */
  private silent(live: Live, s: Silence): void {
    if (live.dropped) return;
    const heard = s.lastHeardAt !== undefined ? `; last heard from at ${new Date(s.lastHeardAt).toISOString()}` : '';
    const message =
      s.purpose === 'keepalive'
        ? `keepalive ping to ${this.origin} not answered within ${s.timeoutMs} ms`
        : `no answer to ping within ${(s.timeoutMs / 1000).toFixed(s.timeoutMs % 1000 === 0 ? 0 : 1)} s from ${this.origin}${heard}`;
    live.error ??= Object.assign(new Error(message), { code: 'ETIMEDOUT' });
    this.opts.onSilent?.(s, live.error.message);
    // Not ready from now on (the session's 'close' comes after its streams' failures).
    this.lost(live, true);
    live.session.destroy();
  }

  /** The session ended or is ending. wasReady: it had connected (then no backoff before the next attempt). */
  private lost(live: Live, wasReady: boolean): void {
    live.dropped = true;
    if (this.live !== live) return;
    this.live = undefined;
    this.clearTimers();
    if (this.state === 'closed') return;
    this.opts.report?.({ ready: false, attempted: !wasReady, error: live.error?.message });
    if (wasReady) {
      this.state = 'idle';
      if (this.waiters.size > 0) this.connect();
      return;
    }
    this.state = 'failure';
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.state !== 'failure') return;
      this.state = 'idle';
      if (this.waiters.size > 0) this.connect();
    }, this.backoff.next());
    this.retryTimer.unref();
  }

  private startKeepalive(live: Live): void {
    const timer = setInterval(() => {
      if (live.dropped) return clearInterval(timer);
      if (live.streams === 0) return;
      live.pinger.ping(this.keepaliveTimeoutMs, 'keepalive');
    }, this.keepaliveTimeMs);
    timer.unref();
    this.keepaliveTimer = timer;
    live.session.once('close', () => clearInterval(timer));
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.connectTimer) clearTimeout(this.connectTimer);
    if (this.keepaliveTimer) clearInterval(this.keepaliveTimer);
    this.retryTimer = this.connectTimer = this.keepaliveTimer = undefined;
  }

  private settle(w: Waiter, err?: Error): void {
    if (!this.waiters.delete(w)) return;
    clearTimeout(w.timer);
    w.done(err);
  }
}

export function closedError(): Error {
  return new Error('etcd connection is closed');
}
