// Request admission while the server shuts down (upstream filters WithRetryAfter and
// WithWaitGroup): after NotAcceptingNewRequest, --shutdown-send-retry-after answers 429 with
// `Retry-After: 5` and `Connection: close`; otherwise a request on a connection that is still
// open gets 503 `apiserver is shutting down` with `Retry-After: 1`. Health probes and /metrics
// are always served. Admitted non-long-running requests are counted so shutdown waits for them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { processNames } from '../../api';
import { errors, ApiError } from '../../machinery/errors';
import type { ServerLifecycle } from '../lifecycle';
import { closeConnectionAfter } from '../protocol';

/** Upstream's exempt path prefixes (probes and scraping keep working during shutdown). */
export const pathPrefixesExemptFromRetryAfter = ['/readyz', '/livez', '/healthz', '/metrics'] as const;

export const retryAfterMessage = 'The apiserver is shutting down, please try again later.';
export const retryAfterSeconds = 5;

/** The server's own loopback client (upstream: user agent `kube-apiserver/…`) and the exempt paths. */
export function isRequestExemptFromRetryAfter(path: string, userAgent: string | undefined): boolean {
  if ((userAgent ?? '').startsWith(`${processNames.apiserver}/`)) return true;
  return pathPrefixesExemptFromRetryAfter.some((p) => path.startsWith(p));
}

/** The 503 upstream's wait group filter writes; the caller sets `Retry-After: 1` (see refuse). */
export function shuttingDownError(): ApiError {
  return errors.serviceUnavailable('apiserver is shutting down');
}

/** Sets upstream's Retry-After: 1 and returns the 503 to throw. */
export function refuseDuringShutdown(res: ServerResponse): ApiError {
  if (!res.headersSent) res.setHeader('Retry-After', '1');
  return shuttingDownError();
}

export type Admission = { kind: 'serve'; release(): void } | { kind: 'answered' };

const noop = (): void => undefined;

/**
 * Decides before authentication. 'answered' means the 429 was written. Throws the 503 for a
 * refused request. Watches are not counted here (the watch handler registers with lifecycle.watches).
 */
export function admitDuringShutdown(lifecycle: ServerLifecycle, req: IncomingMessage, res: ServerResponse, path: string, longRunning: boolean): Admission {
  // Only asked once shutdown has begun (it matches strings: not for every request).
  const exempt = (): boolean => isRequestExemptFromRetryAfter(path, req.headers['user-agent']);
  if (lifecycle.opts.sendRetryAfter && lifecycle.signals.notAcceptingNewRequest.signaled && !exempt()) {
    const body = `${retryAfterMessage}\n`;
    closeConnectionAfter(res);
    res.writeHead(429, {
      'Retry-After': String(retryAfterSeconds),
      'Content-Type': 'text/plain; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return { kind: 'answered' };
  }
  if (longRunning) {
    if (lifecycle.signals.notAcceptingNewRequest.signaled && !exempt()) throw refuseDuringShutdown(res);
    return { kind: 'serve', release: noop };
  }
  if (!lifecycle.nonLongRunning.add()) {
    if (exempt()) return { kind: 'serve', release: noop };
    throw refuseDuringShutdown(res);
  }
  let released = false;
  return {
    kind: 'serve',
    release: () => {
      if (released) return;
      released = true;
      lifecycle.nonLongRunning.done();
    },
  };
}
