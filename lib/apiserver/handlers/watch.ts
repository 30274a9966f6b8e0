// Watch: a chunked stream of newline-delimited JSON events, of length-prefixed Protobuf
// WatchEvent frames (watch-and-list.md §6, "Protobuf watch"), or of CBOR sequence items. Headers are
// flushed at once; the stream ends on timeoutSeconds, client disconnect, or an ERROR event.
// A client that does not read pauses its watcher (back-pressure, watchFrameWriter.ts); the
// server-wide watch budget or the watch cache ends a watcher that stays behind, and the stream
// is then dropped. During shutdown the server ends the stream cleanly (chunked terminator), so
// the client resumes from its last resourceVersion.
import { refuseDuringShutdown } from '../filters/shutdown';
import { watchObjects, ApiWatchEvent } from '../../registry/watch';
import type { HandlerContext } from '../handlerContext';
import { cborBody, protobufBody, stringifyShared } from '../respond';
import { cborSequenceMediaType, cborWatchEvent } from '../../codec/cborWatch';
import type { KindSchemas } from '../kindSchemas';
import { protobufWatchFrame } from '../../codec/protobufWatch';
import { asTable, type TableOptions } from '../tableOutput';
import { asPartialObjectMetadata } from '../partialObjectMetadata';
import type { ApiObject, Status } from '../../api';
import { tableOptionsFor } from '../tableResponse';
import { watchRequestFromQuery } from './listQuery';
import { bufferedBytes } from '../protocol';
import { WatchFrameWriter, type FrameWriterCutOff } from '../watchFrameWriter';
import { TurnFrames } from '../turnFrames';

/** Without timeoutSeconds the server picks [minRequestTimeout, 2×minRequestTimeout) like upstream. */
export const minRequestTimeoutSeconds = 1800;

// Watchers share decoded, frozen objects (registry ServingCache.forWatch): each is serialised once, and
// an event's frame is made once for all the watchers it reaches in one turn.
const turnFrames = new TurnFrames();

function frame(e: ApiWatchEvent): Buffer {
  return turnFrames.get(e.object, `json:${e.type}`, () => Buffer.from(`{"type":"${e.type}","object":${stringifyShared(e.object)}}\n`));
}

/** The raw WatchEvent (no envelope) around the object's complete Protobuf body, length-prefixed. */
function protobufFramer(schemas: KindSchemas | undefined): (e: ApiWatchEvent) => Buffer {
  return (e) => turnFrames.get(e.object, `protobuf:${e.type}`, () => Buffer.from(protobufWatchFrame(e.type, protobufBody(e.object, schemas))));
}

/** One `application/cbor-seq` item per event, around the object's complete CBOR body. */
function cborFramer(schemas: KindSchemas | undefined): (e: ApiWatchEvent) => Buffer {
  return (e) => turnFrames.get(e.object, `cbor:${e.type}`, () => cborWatchEvent(e.type, cborBody(e.object, schemas)));
}

/**
 * Table watches (upstream watchEmbeddedEncoder): each event's object is a one-row Table; only
 * the first event carries columnDefinitions, later ones have null.
 */
function tableFramer(opts: TableOptions, now: () => Date): (e: ApiWatchEvent) => Buffer {
  let headers = true;
  return (e) => {
    const table = asTable(e.object, { ...opts, headers, now: now() });
    headers = false;
    return Buffer.from(`{"type":"${e.type}","object":${JSON.stringify(table)}}\n`);
  };
}

/** Metric labels of a resource's watches, shared by its watchers (each one lives for the watch). */
const labelSets = new WeakMap<object, LabelSet>();
type RequestLabels = { verb: string; group: string; version: string; resource: string; subresource: string; scope: string; component: string };
type KindLabels = { group: string; version: string; kind: string };
type ResourceLabels = { group: string; version: string; resource: string };
interface LabelSet {
  cluster: RequestLabels;
  namespace: RequestLabels;
  kind: KindLabels;
  resource: ResourceLabels;
}

function labelsFor(info: HandlerContext['served']['info']): LabelSet {
  let l = labelSets.get(info);
  if (!l) {
    const base = { verb: 'WATCH', group: info.group, version: info.version, resource: info.resource, subresource: '', component: 'apiserver' };
    l = {
      cluster: { ...base, scope: 'cluster' },
      namespace: { ...base, scope: 'namespace' },
      kind: { group: info.group, version: info.version, kind: info.kind },
      resource: { group: info.group, version: info.version, resource: info.resource },
    };
    labelSets.set(info, l);
  }
  return l;
}

/**
 * One watch's stream: the sink watchObjects writes to, and its end. A class rather than closures
 * over the handler's scope: an idle watch keeps only this object, its response and the watcher
 * (issue 14 item 3: an idle watcher's memory).
 */
class WatchStream {
  private ended = false;
  private cut = false;
  private timer: NodeJS.Timeout | undefined;
  private watch: { stop(): void } | undefined;
  private tracked: { done(): void } | null | undefined;
  private readonly writer: WatchFrameWriter<ApiWatchEvent>;
  readonly close = (): void => this.end();

  private readonly res: HandlerContext['res'];
  private readonly metrics: HandlerContext['metrics'];
  private readonly log: HandlerContext['log'];
  private readonly budget: HandlerContext['watchBudget'];

  constructor(
    h: Pick<HandlerContext, 'res' | 'metrics' | 'log' | 'watchBudget'>,
    private readonly labels: RequestLabels,
    private readonly kindLabels: KindLabels,
    private readonly resourceLabels: ResourceLabels,
    private readonly contentType: string,
    toFrame: (e: ApiWatchEvent) => Buffer,
    private readonly resolve: () => void,
  ) {
    const { res, metrics } = h;
    this.res = res;
    this.metrics = metrics;
    this.log = h.log;
    this.budget = h.watchBudget;
    this.writer = new WatchFrameWriter<ApiWatchEvent>({
      sink: res,
      unsent: () => bufferedBytes(res),
      encode: (e) => {
        const frame = toFrame(e);
        metrics.watchEvents.inc(kindLabels);
        metrics.watchEventSizes.observe(kindLabels, frame.length);
        return frame;
      },
      budget: h.watchBudget,
      onCutOff: (cause, unsentBytes) => this.end('slow', cause, unsentBytes),
    });
  }

  /** Registers with graceful shutdown; false when the server is already draining watches. */
  register(watches: HandlerContext['watches']): boolean {
    if (!watches) return true;
    this.tracked = watches.register(this.close);
    return !!this.tracked;
  }

  started(w: { stop(): void }, timeoutSeconds: number): void {
    this.watch = w;
    if (this.ended) {
      w.stop();
      return;
    }
    if (!this.res.headersSent) this.startStream();
    this.timer = setTimeout(this.close, timeoutSeconds * 1000);
  }

  /** watchObjects failed before the stream started: undo what the start did. */
  failed(): void {
    if (this.ended) return;
    this.ended = true;
    this.writer.close();
    this.tracked?.done();
    this.metrics.longRunning.dec(this.labels);
  }

  /**
   * Ends the stream: what is held is written, then the response ends. 'slow': the client fell
   * behind (cause: the watch budget, or the watch cache's bound on a paused watcher); the
   * response is dropped with what it still holds.
   */
  end(reason?: 'slow', cause?: FrameWriterCutOff | string, unsentBytes?: number): void {
    if (this.ended) {
      // Ended already and still writing its last events: the budget may cut it off too.
      if (reason === 'slow') this.cutOff(cause, unsentBytes);
      return;
    }
    this.ended = true;
    this.tracked?.done();
    if (this.timer) clearTimeout(this.timer);
    this.watch?.stop();
    this.metrics.longRunning.dec(this.labels);
    if (reason === 'slow') {
      this.cutOff(cause, unsentBytes);
    } else {
      const res = this.res;
      this.writer.finish(() => {
        if (!res.writableEnded) res.end();
      });
    }
    this.resolve();
  }

  /** The response closed (sent, or the client went away): its bytes leave the budget. */
  readonly gone = (): void => {
    this.end();
    this.writer.close();
  };

  private cutOff(cause: FrameWriterCutOff | string | undefined, unsentBytes: number | undefined): void {
    if (this.cut) return;
    this.cut = true;
    const { res } = this;
    const unsent = unsentBytes ?? bufferedBytes(res);
    this.writer.close();
    this.metrics.terminatedWatchers.inc(this.resourceLabels);
    // Upstream's cacher logs this at V(1) with the resource and its queue lengths; here the bytes.
    this.log.info(
      { ...this.resourceLabels, cause, unsentBytes: unsent, budgetBytes: this.budget.total },
      `Forcing ${this.resourceLabels.resource} watcher close due to unresponsiveness`,
    );
    // Ending would wait for the backlog to drain; a client this far behind is cut off and its
    // unsent bytes freed (HTTP/2: this stream is reset, the connection's other streams go on).
    res.destroy();
  }

  private startStream(): void {
    // No Content-Length: HTTP/1.1 chunks it, HTTP/2 sends DATA frames (it has no Transfer-Encoding).
    this.res.writeHead(200, { 'Content-Type': this.contentType, 'Cache-Control': 'no-cache, private' });
    this.res.flushHeaders();
  }

  send(events: ApiWatchEvent[]): boolean {
    if (this.ended) return true;
    if (!this.res.headersSent) this.startStream();
    return this.writer.send(events);
  }

  onDrain(resume: () => void): void {
    this.writer.onResume(resume);
  }
}

export async function handleWatch(h: HandlerContext): Promise<void> {
  const { store, info } = h.served;
  const wq = watchRequestFromQuery(h);
  const tableOpts = tableOptionsFor(h);
  const protobuf = h.output.format === 'protobuf';
  const cbor = h.output.format === 'cbor';
  const framer = tableOpts ? tableFramer(tableOpts, h.now) : protobuf ? protobufFramer(h.output.schemas) : cbor ? cborFramer(h.output.schemas) : frame;
  // as=PartialObjectMetadata: each event's object reduced to its metadata. The list form cannot
  // transform a single object; upstream's watch encoder then sends the object as it is.
  const partial = h.output.partial?.kind === 'PartialObjectMetadata' ? h.output.partial : undefined;
  const toFrame = partial
    ? (e: ApiWatchEvent): Buffer => framer({ type: e.type, object: asPartialObjectMetadata(e.object, partial, info) as ApiObject | Status })
    : framer;
  // Upstream: the serializer's media type, with ";stream=watch" for all but JSON; a client that
  // accepted application/cbor gets the conformant application/cbor-seq.
  const contentType = protobuf ? `${h.output.mediaType};stream=watch` : cbor ? cborSequenceMediaType : 'application/json';
  const timeoutSeconds = wq.timeoutSeconds > 0 ? wq.timeoutSeconds : minRequestTimeoutSeconds * (1 + Math.random());
  const labels = labelsFor(info);
  const requestLabels = h.info.namespace ? labels.namespace : labels.cluster;
  const { res, req, metrics, watches } = h;
  const request = { ...wq.request, timeoutMs: timeoutSeconds * 1000 };

  await new Promise<void>((resolve, reject) => {
    const stream = new WatchStream(h, requestLabels, labels.kind, labels.resource, contentType, toFrame, resolve);
    if (!stream.register(watches)) {
      reject(refuseDuringShutdown(res));
      return;
    }
    req.on('close', stream.gone);
    res.on('close', stream.gone);
    metrics.longRunning.inc(requestLabels);
    // Periodic bookmarks come from the storage (the watch cache's schedule), which needs the timeout.
    watchObjects(store, request, stream)
      .then((w) => stream.started(w, timeoutSeconds))
      .catch((err: unknown) => {
        stream.failed();
        reject(err);
      });
  });
}
