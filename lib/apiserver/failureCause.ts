// Why a request was answered with a 5xx, for its log line: every 5xx request line names its
// cause (a storage error behind a Status, the outage a timed-out request waited on, the health
// checks that failed), since the Status a client gets often must not (upstream's texts say
// "please try again" or "reason withheld").
import type { ServerResponse } from 'node:http';
import { ApiError } from '../machinery/errors';

const causes = new WeakMap<ServerResponse, string>();

/** Records the cause of the response's failure; the first one recorded stays. */
export function noteFailureCause(res: ServerResponse, cause: string): void {
  if (!causes.has(res)) causes.set(res, cause);
}

export function failureCauseOf(res: ServerResponse): string | undefined {
  return causes.get(res);
}

/** What a thrown error says about its cause: the error behind an ApiError, else its own text. */
export function describeCause(e: unknown): string {
  if (e instanceof ApiError) {
    const behind = e.cause;
    if (behind instanceof Error) return behind.message;
    if (typeof behind === 'string') return behind;
    return e.status.message ?? e.status.reason ?? `${e.code}`;
  }
  return e instanceof Error ? e.message : String(e);
}
