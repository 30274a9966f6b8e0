// --request-timeout for non-long-running requests (upstream WithTimeoutForNonLongRunningRequests):
// a handler still running at the deadline gets its response replaced by a 504 Timeout Status, and
// whatever it writes afterwards is dropped. A `?timeout=` query value may shorten the deadline.
import type { ServerResponse } from 'node:http';
import { errors } from '../../machinery/errors';
import { DurationError, parseGoDuration } from '../../machinery/goDuration';

export const timeoutMessage = 'request did not complete within requested timeout - context deadline exceeded';

/** The deadline in ms: the ?timeout= value when shorter than the server's limit. */
export function requestDeadlineMs(query: URLSearchParams, serverLimitMs: number): number {
  const raw = query.get('timeout');
  if (raw === null || raw === '') return serverLimitMs;
  let ms: number;
  try {
    ms = parseGoDuration(raw);
  } catch (e) {
    if (e instanceof DurationError) throw errors.badRequest(`invalid timeout specified in the request URL - ${e.message}`);
    throw e;
  }
  // Upstream: a non-positive or longer value leaves the server's deadline in place.
  return ms > 0 && ms < serverLimitMs ? ms : serverLimitMs;
}

/**
 * Arms the deadline. `onTimeout` must write the 504 (it is called only if nothing was sent yet);
 * afterwards the response ignores the handler's writes. Returns the disarm function.
 */
export function armRequestTimeout(res: ServerResponse, ms: number, onTimeout: () => void): () => void {
  const fire = (): void => {
    if (res.headersSent || res.writableEnded) return;
    onTimeout();
    silence(res);
  };
  // A deadline under a millisecond has passed by the time the handler waits on anything; timers
  // would round it up to 1 ms and let fast reads win, so it fires on the next turn instead.
  if (ms < 1) {
    const immediate = setImmediate(fire);
    return () => clearImmediate(immediate);
  }
  const timer = setTimeout(fire, ms);
  timer.unref();
  return () => clearTimeout(timer);
}

/** After the timeout reply the handler may still finish; its output has nowhere to go. */
function silence(res: ServerResponse): void {
  const drop = Object.assign(res, {
    writeHead: () => drop,
    setHeader: () => drop,
    write: () => true,
    end: () => drop,
  });
}

export function timeoutError(): ReturnType<typeof errors.timeout> {
  return errors.timeout(timeoutMessage);
}
