// Watch: a chunked stream of newline-delimited JSON events (watch-and-list.md §6). Headers are
// flushed at once; the stream ends on timeoutSeconds, client disconnect, or an ERROR event.
import { watchObjects, ApiWatchEvent } from '../../registry/watch';
import type { HandlerContext } from '../handlerContext';
import { watchRequestFromQuery } from './listQuery';

/** Without timeoutSeconds the server picks [minRequestTimeout, 2×minRequestTimeout) like upstream. */
export const minRequestTimeoutSeconds = 1800;

/** A watcher whose unsent output exceeds this is closed; the client resumes from its last RV. */
export const maxBufferedBytes = 8 * 1024 * 1024;

export async function handleWatch(h: HandlerContext): Promise<void> {
  const { store, info } = h.served;
  const wr = watchRequestFromQuery(h);
  const res = h.res;
  const timeoutSeconds = wr.timeoutSeconds > 0 ? wr.timeoutSeconds : minRequestTimeoutSeconds * (1 + Math.random());
  const labels = { verb: 'WATCH', group: info.group, version: info.version, resource: info.resource, subresource: '', scope: h.info.namespace ? 'namespace' : 'cluster', component: 'apiserver' };

  await new Promise<void>((resolve, reject) => {
    let ended = false;
    let timer: NodeJS.Timeout | undefined;
    let watch: { stop(): void } | undefined;
    const end = (): void => {
      if (ended) return;
      ended = true;
      if (timer) clearTimeout(timer);
      watch?.stop();
      h.metrics.longRunning.dec(labels);
      if (!res.writableEnded) res.end();
      resolve();
    };
    const write = (events: ApiWatchEvent[]): void => {
      if (ended) return;
      if (!res.headersSent) startStream();
      let chunk = '';
      for (const e of events) chunk += `${JSON.stringify({ type: e.type, object: e.object })}\n`;
      res.write(chunk);
      // Unsent bytes wait in the response and in the TLS socket; a client this far behind is
      // dropped (the connection destroyed, since ending would wait for the backlog to drain).
      if (res.writableLength + (res.socket?.writableLength ?? 0) > maxBufferedBytes) {
        h.metrics.terminatedWatchers.inc({ group: info.group, version: info.version, resource: info.resource });
        end();
        res.destroy();
      }
    };
    const startStream = (): void => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
      res.flushHeaders();
    };
    h.req.on('close', end);
    res.on('close', end);
    h.metrics.longRunning.inc(labels);
    watchObjects(store, wr.request, { send: write, end })
      .then((w) => {
        watch = w;
        if (ended) {
          w.stop();
          return;
        }
        if (!res.headersSent) startStream();
        timer = setTimeout(end, timeoutSeconds * 1000);
      })
      .catch((err) => {
        if (!ended) {
          ended = true;
          h.metrics.longRunning.dec(labels);
        }
        reject(err);
      });
  });
}
