// All watches of one Etcd3Storage share one gRPC Watch stream, multiplexed by watch ids we choose
// (etcd ≥ 3.4 accepts client-set ids, so a create needs no reply matching). When the stream
// breaks, a new one (next endpoint, backoff 100 ms → 2 s) re-creates every watch from the last
// delivered EVENT's mod_revision + 1 — never from a response header's revision, which during a
// catch-up is the store's current revision and would skip everything in between.
//
// Progress: per-watch progress notifications (progress_notify) come through the watch's own
// event queue in etcd, so they are ordered after its events and also advance the resume point.
// requestProgress() answers arrive as one broadcast (watch id -1) which etcd before 3.4.25/3.5.8
// may send ahead of events still queued for a catching-up watch; we pass it to onProgress but
// never resume from it, so event delivery stays exactly-once even then.
//
// A stream on a member that stopped answering without closing its connection (SIGSTOP, `docker
// kill`) hangs silently: a progress request not answered within the pool's stalledAfterMs has
// the stream's connection probed, and an unanswered ping ends the stream, which then resumes on
// another member (the watch cache asks for progress whenever a read waits for a revision).
import type { Logger } from 'pino';
import { Backoff } from './backoff';
import { EventType, ProtoEvent, WatchRequest, WatchResponse } from './etcd3Proto';
import { EndpointPool, type Endpoint } from './etcd3Pool';
import { prefixEnd } from './keys';
import { CompactedError, StorageError, Watch, WatchEvent, WatchHandlers, WatchOptions } from './storage';
import { BidiStream } from './wire/bidiStream';
import { watchMethod } from './wire/etcdMethods';
import { deliver, reportError } from './watchHandlers';

interface WatchState {
  id: number;
  key: string;
  keyBytes: Buffer;
  rangeEnd: Buffer;
  progressNotify: boolean;
  /** The first revision not yet delivered; 0 = "from now", until etcd tells us what now was. */
  nextRevision: number;
  /** Created on the current stream (etcd answered created). */
  created: boolean;
  handlers: WatchHandlers;
  closed: boolean;
}

const BROADCAST_ID = -1;

export class WatchMux {
  private readonly watches = new Map<number, WatchState>();
  private call: BidiStream<WatchRequest, WatchResponse> | undefined;
  /** The endpoint of the current stream. */
  private callEndpoint: Endpoint | undefined;
  /** Messages received on the current stream, and the probe waiting for one after a progress request. */
  private received = 0;
  private progressProbe: NodeJS.Timeout | undefined;
  private nextId = 1;
  private readonly backoff = new Backoff(100, 2000);
  private reconnectTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Streams opened, for tests and diagnostics. */
  streamsOpened = 0;

  constructor(
    private readonly pool: EndpointPool,
    private readonly log?: Logger,
  ) {}

  watch(key: string, opts: WatchOptions, handlers: WatchHandlers): Watch {
    const keyBytes = Buffer.from(key, 'utf8');
    const prefix = opts.prefix ?? true;
    let rangeEnd = Buffer.alloc(0);
    if (prefix) {
      const end = prefixEnd(keyBytes);
      rangeEnd = end.length > 0 ? Buffer.from(end) : Buffer.from([0]);
    }
    const w: WatchState = {
      id: this.nextId++,
      key,
      keyBytes: keyBytes.length > 0 ? keyBytes : Buffer.from([0]),
      rangeEnd,
      progressNotify: opts.progressNotify ?? false,
      nextRevision: opts.startRevision ?? 0,
      created: false,
      handlers,
      closed: false,
    };
    const handle: Watch = { close: () => this.remove(w) };
    if (this.closed) {
      w.closed = true;
      return handle;
    }
    this.watches.set(w.id, w);
    if (this.call) this.sendCreate(w);
    else if (!this.reconnectTimer) this.open();
    return handle;
  }

  requestProgress(): void {
    const call = this.call;
    if (!call) return;
    call.write({ progress_request: {} });
    if (this.progressProbe) return;
    const before = this.received;
    this.progressProbe = setTimeout(() => {
      this.progressProbe = undefined;
      if (this.call === call && this.received === before) this.callEndpoint?.conn.probe();
    }, this.pool.stalledAfterMs);
    this.progressProbe.unref();
  }

  close(): void {
    this.closed = true;
    for (const w of this.watches.values()) w.closed = true;
    this.watches.clear();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.endStream();
  }

  private remove(w: WatchState): void {
    if (w.closed) return;
    w.closed = true;
    this.watches.delete(w.id);
    if (this.watches.size === 0) {
      // No watch left: drop the stream (and any pending reconnect) so an idle client holds nothing.
      if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
      this.reconnectTimer = undefined;
      this.endStream();
    } else if (this.call) {
      // etcd handles a stream's requests in order, so this cancels even a create still in flight.
      this.call.write({ cancel_request: { watch_id: w.id } });
    }
  }

  private open(): void {
    if (this.closed || this.watches.size === 0 || this.pool.isClosed) return;
    const ep = this.pool.pickForStream();
    this.streamsOpened++;
    const call: BidiStream<WatchRequest, WatchResponse> = new BidiStream(ep.conn, watchMethod.path, watchMethod.write, watchMethod.read, {
      onMessage: (res) => {
        if (this.call !== call) return;
        this.received++;
        this.backoff.reset();
        this.onResponse(res);
      },
      // Any end (status, reset, dropped connection) means resume on a new stream.
      onEnd: () => {
        if (this.call !== call) return;
        this.call = undefined;
        this.scheduleReconnect();
      },
    });
    this.call = call;
    this.callEndpoint = ep;
    for (const w of this.watches.values()) this.sendCreate(w);
  }

  private endStream(): void {
    const call = this.call;
    this.call = undefined;
    if (this.progressProbe) clearTimeout(this.progressProbe);
    this.progressProbe = undefined;
    call?.close();
  }

  private scheduleReconnect(): void {
    for (const w of this.watches.values()) w.created = false;
    if (this.closed || this.watches.size === 0 || this.reconnectTimer) return;
    const delayMs = this.backoff.next();
    this.log?.debug({ watches: this.watches.size, delayMs }, 'etcd watch stream ended, resuming on a new one');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.open();
    }, delayMs);
  }

  private sendCreate(w: WatchState): void {
    this.call!.write({
      create_request: {
        key: w.keyBytes,
        range_end: w.rangeEnd,
        start_revision: w.nextRevision,
        progress_notify: w.progressNotify,
        prev_kv: true,
        watch_id: w.id,
      },
    });
  }

  private onResponse(res: WatchResponse): void {
    const revision = res.header?.revision ?? 0;
    if (res.watch_id === BROADCAST_ID) {
      for (const w of [...this.watches.values()]) {
        if (w.created && !w.closed) this.invoke(w, () => w.handlers.onProgress?.(revision));
      }
      return;
    }
    const w = this.watches.get(res.watch_id);
    if (!w || w.closed) return; // closed locally; etcd's cancel reply or late events
    if (res.created) {
      w.created = true;
      // A watch "from now" starts right after the revision etcd created it at.
      if (w.nextRevision === 0) w.nextRevision = revision + 1;
    }
    if (res.compact_revision > 0) {
      this.log?.debug({ key: w.key, fromRevision: w.nextRevision, compactRevision: res.compact_revision }, 'etcd watch ran into a compaction');
      this.fail(w, new CompactedError(w.nextRevision, res.compact_revision));
      return;
    }
    if (res.canceled) {
      this.fail(w, new StorageError(`etcd canceled the watch on ${w.key}: ${res.cancel_reason || 'no reason given'}`, w.key));
      return;
    }
    if (res.events.length > 0) {
      const events: WatchEvent[] = [];
      for (const e of res.events) {
        // After a resume etcd starts at nextRevision; anything older was delivered already.
        if (e.kv.mod_revision >= w.nextRevision) events.push(toWatchEvent(e));
      }
      if (events.length === 0) return;
      w.nextRevision = events[events.length - 1].modRevision + 1;
      this.invoke(w, () => w.handlers.onEvents(events));
    } else if (!res.created && revision > 0) {
      // progress_notify: this watch has been sent everything up to `revision`.
      if (revision + 1 > w.nextRevision) w.nextRevision = revision + 1;
      this.invoke(w, () => w.handlers.onProgress?.(revision));
    }
  }

  private invoke(w: WatchState, fn: () => void): void {
    deliver(fn, () => this.remove(w), (err) => w.handlers.onError(err));
  }

  private fail(w: WatchState, err: Error): void {
    this.remove(w);
    reportError((e) => w.handlers.onError(e), err);
  }
}

function toWatchEvent(e: ProtoEvent): WatchEvent {
  const prev = e.prev_kv && e.prev_kv.mod_revision > 0 ? e.prev_kv : null;
  const key = e.kv.key.toString('utf8');
  if (e.type === EventType.DELETE) {
    const ev: WatchEvent = {
      type: 'delete',
      key,
      value: prev ? prev.value : new Uint8Array(0),
      modRevision: e.kv.mod_revision,
      createRevision: prev ? prev.create_revision : 0,
    };
    if (prev) {
      ev.prevValue = prev.value;
      ev.prevModRevision = prev.mod_revision;
    }
    return ev;
  }
  const ev: WatchEvent = { type: 'put', key, value: e.kv.value, modRevision: e.kv.mod_revision, createRevision: e.kv.create_revision };
  if (prev) {
    ev.prevValue = prev.value;
    ev.prevModRevision = prev.mod_revision;
  }
  return ev;
}
