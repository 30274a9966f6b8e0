// Watch: a chunked stream of newline-delimited JSON events, of length-prefixed Protobuf
// WatchEvent frames (watch-and-list.md §6, "Protobuf watch"), or of CBOR sequence items. Headers are
// flushed at once; the stream ends on timeoutSeconds, client disconnect, or an ERROR event.
// A client that does not read pauses its watcher (back-pressure); the watch cache ends a watcher
// that stays behind too long, and the stream is then dropped. During shutdown the server ends
// the stream cleanly (chunked terminator), so the client resumes from its last resourceVersion.
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

/** Without timeoutSeconds the server picks [minRequestTimeout, 2×minRequestTimeout) like upstream. */
export const minRequestTimeoutSeconds = 1800;

/** A safety net under the cache's own bound: unsent bytes beyond this drop the stream. */
export const maxBufferedBytes = 32 * 1024 * 1024;

// Watchers share decoded, frozen objects (registry decodeForWatch): each is serialised once.
function frame(e: ApiWatchEvent): Buffer {
  return Buffer.from(`{"type":"${e.type}","object":${stringifyShared(e.object)}}\n`);
}

/** The raw WatchEvent (no envelope) around the object's complete Protobuf body, length-prefixed. */
function protobufFramer(schemas: KindSchemas | undefined): (e: ApiWatchEvent) => Buffer {
  return (e) => Buffer.from(protobufWatchFrame(e.type, protobufBody(e.object, schemas)));
}

/** One `application/cbor-seq` item per event, around the object's complete CBOR body. */
function cborFramer(schemas: KindSchemas | undefined): (e: ApiWatchEvent) => Buffer {
  return (e) => cborWatchEvent(e.type, cborBody(e.object, schemas));
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
  const res = h.res;
  const timeoutSeconds = wq.timeoutSeconds > 0 ? wq.timeoutSeconds : minRequestTimeoutSeconds * (1 + Math.random());
  const scope = h.info.namespace ? 'namespace' : 'cluster';
  const labels = { verb: 'WATCH', group: info.group, version: info.version, resource: info.resource, subresource: '', scope, component: 'apiserver' };
  const kindLabels = { group: info.group, version: info.version, kind: info.kind };

  await new Promise<void>((resolve, reject) => {
    let ended = false;
    let timer: NodeJS.Timeout | undefined;
    let watch: { stop(): void } | undefined;
    let tracked: { done(): void } | null | undefined;
    const end = (reason?: 'slow'): void => {
      if (ended) return;
      ended = true;
      tracked?.done();
      if (timer) clearTimeout(timer);
      watch?.stop();
      h.metrics.longRunning.dec(labels);
      if (reason === 'slow') {
        h.metrics.terminatedWatchers.inc({ group: info.group, version: info.version, resource: info.resource });
        // Ending would wait for the backlog to drain; a client this far behind is cut off
        // (HTTP/2: this stream is reset, the connection's other streams go on).
        res.destroy();
      } else if (!res.writableEnded) {
        res.end();
      }
      resolve();
    };
    const startStream = (): void => {
      // No Content-Length: HTTP/1.1 chunks it, HTTP/2 sends DATA frames (it has no Transfer-Encoding).
      res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-cache, private' });
      res.flushHeaders();
    };
    const send = (events: ApiWatchEvent[]): boolean => {
      if (ended) return true;
      if (!res.headersSent) startStream();
      const chunks: Buffer[] = [];
      for (const e of events) {
        const line = toFrame(e);
        h.metrics.watchEvents.inc(kindLabels);
        h.metrics.watchEventSizes.observe(kindLabels, line.length);
        chunks.push(line);
      }
      const ok = res.write(Buffer.concat(chunks));
      if (bufferedBytes(res) > maxBufferedBytes) end('slow');
      return ok;
    };
    if (h.watches) {
      tracked = h.watches.register(() => end());
      if (!tracked) {
        reject(refuseDuringShutdown(res));
        return;
      }
    }
    h.req.on('close', () => end());
    res.on('close', () => end());
    h.metrics.longRunning.inc(labels);
    // Periodic bookmarks come from the storage (the watch cache's schedule), which needs the timeout.
    watchObjects(store, { ...wq.request, timeoutMs: timeoutSeconds * 1000 }, { send, onDrain: (resume) => res.once('drain', resume), end })
      .then((w) => {
        watch = w;
        if (ended) {
          w.stop();
          return;
        }
        if (!res.headersSent) startStream();
        timer = setTimeout(() => end(), timeoutSeconds * 1000);
      })
      .catch((err) => {
        if (!ended) {
          ended = true;
          tracked?.done();
          h.metrics.longRunning.dec(labels);
        }
        reject(err);
      });
  });
}
