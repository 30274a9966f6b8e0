// What a request can fail with: the server answered with a Status (ClientApiError), or no usable
// answer arrived (ClientTransportError). Predicates follow apimachinery's errors package: a known
// reason decides; the HTTP code decides only when the reason is missing or unknown.
import type { Status, StatusReason } from '../api/meta';
import { ApiError } from '../machinery/errors';
import { goQuote } from '../machinery/goStrconv';

export interface RequestIdentity {
  method: string;
  /** Path and query of the request. */
  path: string;
}

export class ClientApiError extends ApiError {
  readonly request?: RequestIdentity;
  constructor(status: Status, request?: RequestIdentity) {
    super(status);
    this.name = 'ClientApiError';
    if (request) this.request = request;
  }
  get details(): Status['details'] {
    return this.status.details;
  }
}

/** Connection refused or reset, TLS failure, timeout, or an unreadable response. */
export class ClientTransportError extends Error {
  /** Node's error code when there is one (ECONNREFUSED, ECONNRESET, ETIMEDOUT, …). */
  readonly code?: string;
  readonly request?: RequestIdentity;
  constructor(message: string, opts: { code?: string; request?: RequestIdentity; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'ClientTransportError';
    if (opts.code) this.code = opts.code;
    if (opts.request) this.request = opts.request;
  }
}

const knownReasons: ReadonlySet<string> = new Set<StatusReason>([
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'AlreadyExists',
  'Conflict',
  'Gone',
  'Expired',
  'Invalid',
  'ServerTimeout',
  'StorageReadError',
  'Timeout',
  'TooManyRequests',
  'BadRequest',
  'MethodNotAllowed',
  'NotAcceptable',
  'RequestEntityTooLarge',
  'UnsupportedMediaType',
  'InternalError',
  'ServiceUnavailable',
]);

function reasonAndCode(e: unknown): { reason: string; code: number } | undefined {
  if (!(e instanceof ApiError)) return undefined;
  return { reason: e.status.reason ?? '', code: e.status.code ?? 0 };
}

/** True when the reason is `reason`, or the reason is unknown and the code is `code`. */
function matches(e: unknown, reason: StatusReason, code?: number): boolean {
  const rc = reasonAndCode(e);
  if (!rc) return false;
  if (rc.reason === reason) return true;
  return code !== undefined && !knownReasons.has(rc.reason) && rc.code === code;
}

export const isNotFound = (e: unknown): boolean => matches(e, 'NotFound', 404);
export const isConflict = (e: unknown): boolean => matches(e, 'Conflict', 409);
/** AlreadyExists has no code fallback: a bare 409 is a Conflict. */
export const isAlreadyExists = (e: unknown): boolean => matches(e, 'AlreadyExists');
export const isForbidden = (e: unknown): boolean => matches(e, 'Forbidden', 403);
export const isUnauthorized = (e: unknown): boolean => matches(e, 'Unauthorized', 401);
export const isInvalid = (e: unknown): boolean => matches(e, 'Invalid', 422);
export const isTooManyRequests = (e: unknown): boolean => matches(e, 'TooManyRequests', 429);
export const isInternalError = (e: unknown): boolean => matches(e, 'InternalError', 500);

/**
 * The resourceVersion asked for is no longer available: reason Expired or Gone, or a 410.
 * The reflector relists on either (client-go's isExpiredError = IsResourceExpired || IsGone).
 */
export function isExpired(e: unknown): boolean {
  const rc = reasonAndCode(e);
  return !!rc && (rc.reason === 'Expired' || rc.reason === 'Gone' || rc.code === 410);
}
export const isGone = isExpired;

/** The server has not yet caught up with the resourceVersion asked for (504 with cause ResourceVersionTooLarge). */
export function isTooLargeResourceVersion(e: unknown): boolean {
  if (!(e instanceof ApiError)) return false;
  if ((e.status.details?.causes ?? []).some((c) => c.reason === 'ResourceVersionTooLarge')) return true;
  return e.status.reason === 'Timeout' && (e.status.message ?? '').includes('Too large resource version');
}

export function isConnectionRefused(e: unknown): boolean {
  return e instanceof ClientTransportError && e.code === 'ECONNREFUSED';
}

/**
 * The Status for an error response whose body is not a Status (a proxy's HTML page, plain text),
 * with apimachinery's NewGenericServerResponse reasons and messages.
 */
export function genericServerResponse(
  code: number,
  method: string,
  serverMessage: string,
  target?: { group: string; resource: string; name?: string },
  retryAfterSeconds = 0,
): Status {
  let reason: StatusReason | undefined;
  let message = `the server responded with the status code ${code} but did not return more information`;
  switch (code) {
    case 409:
      reason = method === 'POST' ? 'AlreadyExists' : 'Conflict';
      message = 'the server reported a conflict';
      break;
    case 404:
      reason = 'NotFound';
      message = 'the server could not find the requested resource';
      break;
    case 400:
      reason = 'BadRequest';
      message = 'the server rejected our request for an unknown reason';
      break;
    case 401:
      reason = 'Unauthorized';
      message = 'the server has asked for the client to provide credentials';
      break;
    case 403:
      reason = 'Forbidden';
      message = serverMessage;
      break;
    case 406:
      reason = 'NotAcceptable';
      message = serverMessage === '' || serverMessage === 'unknown' ? 'the server was unable to respond with a content type that the client supports' : serverMessage;
      break;
    case 415:
      reason = 'UnsupportedMediaType';
      message = serverMessage;
      break;
    case 405:
      reason = 'MethodNotAllowed';
      message = 'the server does not allow this method on the requested resource';
      break;
    case 422:
      reason = 'Invalid';
      message = 'the server rejected our request due to an error in our request';
      break;
    case 503:
      reason = 'ServiceUnavailable';
      message = 'the server is currently unable to handle the request';
      break;
    case 504:
      reason = 'Timeout';
      message = 'the server was unable to return a response in the time allotted, but may still be processing the request';
      break;
    case 429:
      reason = 'TooManyRequests';
      message = 'the server has received too many requests and has asked us to try again later';
      break;
    default:
      if (code >= 500) {
        reason = 'InternalError';
        message = `an error on the server (${goQuote(serverMessage)}) has prevented the request from succeeding`;
      }
  }
  const details: NonNullable<Status['details']> = {};
  if (target) {
    const qualified = target.group ? `${target.resource}.${target.group}` : target.resource;
    message = target.name ? `${message} (${method.toLowerCase()} ${qualified} ${target.name})` : `${message} (${method.toLowerCase()} ${qualified})`;
    if (target.group) details.group = target.group;
    details.kind = target.resource;
    if (target.name) details.name = target.name;
  }
  details.causes = [{ reason: 'UnexpectedServerResponse', message: serverMessage }];
  if (retryAfterSeconds > 0) details.retryAfterSeconds = retryAfterSeconds;
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message };
  if (reason) status.reason = reason;
  status.details = details;
  status.code = code;
  return status;
}
