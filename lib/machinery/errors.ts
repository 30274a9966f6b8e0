// The one error type of the API: it carries the Status that the HTTP edge writes.
// Constructors follow upstream's apimachinery errors package (messages in errors.md §3).
import type { Status, StatusCause, StatusReason } from '../api/meta';
import { FieldError, fieldErrorBody, goQuote, renderFieldErrorList } from './fieldErrors';

export interface GroupResource {
  group: string;
  resource: string;
}
export interface GroupKind {
  group: string;
  kind: string;
}

export function qualifiedResource(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}
export function qualifiedKind(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

export class ApiError extends Error {
  readonly status: Status;
  /** Extra response headers (Retry-After is derived from details). */
  constructor(status: Status) {
    super(status.message ?? status.reason ?? 'error');
    this.name = 'ApiError';
    this.status = status;
  }
  get code(): number {
    return this.status.code ?? 500;
  }
  get reason(): StatusReason | undefined {
    return this.status.reason;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

function failure(
  code: number,
  reason: StatusReason | undefined,
  message: string,
  details?: Status['details'],
  keepEmptyDetails = false,
): ApiError {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message };
  if (reason) s.reason = reason;
  if (details && (keepEmptyDetails || Object.keys(details).length)) s.details = details;
  s.code = code;
  return new ApiError(s);
}

function grDetails(gr: GroupResource, name?: string): NonNullable<Status['details']> {
  const d: NonNullable<Status['details']> = {};
  if (name) d.name = name;
  if (gr.group) d.group = gr.group;
  d.kind = gr.resource;
  return d;
}

export const errors = {
  notFound(gr: GroupResource, name: string): ApiError {
    return failure(404, 'NotFound', `${qualifiedResource(gr)} ${goQuote(name)} not found`, grDetails(gr, name));
  },
  alreadyExists(gr: GroupResource, name: string, beingDeleted = false): ApiError {
    const m = `${qualifiedResource(gr)} ${goQuote(name)} already exists`;
    return failure(409, 'AlreadyExists', beingDeleted ? `object is being deleted: ${m}` : m, grDetails(gr, name));
  },
  generateNameConflict(gr: GroupResource, name: string): ApiError {
    return failure(
      409,
      'AlreadyExists',
      `${qualifiedResource(gr)} ${goQuote(name)} already exists, the server was not able to generate a unique name for the object`,
      { ...grDetails(gr, name), retryAfterSeconds: 1 },
    );
  },
  conflict(gr: GroupResource, name: string, cause: string): ApiError {
    return failure(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualifiedResource(gr)} ${goQuote(name)}: ${cause}`,
      grDetails(gr, name),
    );
  },
  staleResourceVersion(gr: GroupResource, name: string): ApiError {
    return errors.conflict(
      gr,
      name,
      'the object has been modified; please apply your changes to the latest version and try again',
    );
  },
  invalid(gk: GroupKind, name: string, errs: readonly FieldError[]): ApiError {
    const causes: StatusCause[] = errs.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field }));
    const d: NonNullable<Status['details']> = {};
    if (name) d.name = name;
    if (gk.group) d.group = gk.group;
    d.kind = gk.kind;
    d.causes = causes;
    return failure(
      422,
      'Invalid',
      `${qualifiedKind(gk)} ${goQuote(name)} is invalid: ${renderFieldErrorList(errs)}`,
      d,
    );
  },
  forbidden(gr: GroupResource, name: string, reason: string, causes?: StatusCause[]): ApiError {
    const q = qualifiedResource(gr);
    const m = gr.resource ? (name ? `${q} ${goQuote(name)} is forbidden: ${reason}` : `${q} is forbidden: ${reason}`) : `forbidden: ${reason}`;
    const d = grDetails(gr, name);
    if (causes?.length) d.causes = causes;
    return failure(403, 'Forbidden', m, d);
  },
  methodNotSupported(gr: GroupResource, action: string): ApiError {
    const d: NonNullable<Status['details']> = {};
    if (gr.group) d.group = gr.group;
    d.kind = gr.resource;
    return failure(405, 'MethodNotAllowed', `${action} is not supported on resources of kind ${goQuote(qualifiedResource(gr))}`, d);
  },
  /** Router-level 404 for an unknown URL or resource (details present but empty). */
  routeNotFound(): ApiError {
    const e = failure(404, 'NotFound', 'the server could not find the requested resource');
    e.status.details = {};
    return e;
  },
  /** Router-level 405: the path exists but not for this method. */
  routeMethodNotAllowed(): ApiError {
    return failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
  },
  /** Upstream's NewApplyConflict: 409 Conflict whose details carry only the causes. */
  applyConflict(message: string, causes: StatusCause[]): ApiError {
    return failure(409, 'Conflict', message, { causes });
  },
  badRequest(message: string): ApiError {
    return failure(400, 'BadRequest', message);
  },
  unauthorized(message = 'Unauthorized'): ApiError {
    return failure(401, 'Unauthorized', message);
  },
  notAcceptable(message: string): ApiError {
    return failure(406, 'NotAcceptable', message);
  },
  unsupportedMediaType(contentType: string): ApiError {
    return failure(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${contentType}`);
  },
  requestEntityTooLarge(message: string): ApiError {
    return failure(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
  },
  gone(message: string): ApiError {
    return failure(410, 'Gone', message);
  },
  expired(message: string, continueToken?: string): ApiError {
    const e = failure(410, 'Expired', message);
    if (continueToken) e.status.metadata = { continue: continueToken };
    return e;
  },
  timeout(message: string, retryAfterSeconds = 0): ApiError {
    // Upstream's NewTimeoutError always sets Details, so its JSON carries "details":{}.
    return failure(504, 'Timeout', `Timeout: ${message}`, retryAfterSeconds > 0 ? { retryAfterSeconds } : {}, true);
  },
  tooLargeResourceVersion(requested: number, current: number, retryAfterSeconds: number): ApiError {
    const d: NonNullable<Status['details']> = {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    };
    if (retryAfterSeconds > 0) d.retryAfterSeconds = retryAfterSeconds;
    return failure(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, d);
  },
  serverTimeout(gr: GroupResource, operation: string, retryAfterSeconds = 2): ApiError {
    return failure(
      500,
      'ServerTimeout',
      `The ${operation} operation against ${qualifiedResource(gr)} could not be completed at this time, please try again.`,
      { name: operation, ...(gr.group ? { group: gr.group } : {}), kind: gr.resource, retryAfterSeconds },
    );
  },
  internal(text: string): ApiError {
    return failure(500, 'InternalError', `Internal error occurred: ${text}`, { causes: [{ message: text }] });
  },
  /** Upstream's StatusReasonStoreReadError (spelled "StorageReadError"): stored data that cannot be read. */
  storageReadError(message: string, details?: Status['details']): ApiError {
    return failure(500, 'StorageReadError', message, details);
  },
  /**
   * Upstream's answer when a handler panics (a Go runtime error, e.g. in strategicpatch): its
   * panic-recovery filter's text. Upstream writes it as text/plain; here it is a Status (500, no
   * reason) like every other error.
   */
  panicked(): ApiError {
    return failure(500, undefined, 'This request caused apiserver to panic. Look in the logs for details.');
  },
  /** A non-API error surfaced as upstream does: code 500, no reason, the raw text. */
  plain(code: number, message: string): ApiError {
    return failure(code, undefined, message);
  },
  tooManyRequests(message: string, retryAfterSeconds = 0): ApiError {
    return failure(429, 'TooManyRequests', message, retryAfterSeconds > 0 ? { retryAfterSeconds } : undefined);
  },
  serviceUnavailable(message: string): ApiError {
    return failure(503, 'ServiceUnavailable', message);
  },
  /**
   * Upstream's NewGenericServerResponse(422, …) as the patch handler uses it for JSON patch
   * apply failures: a fixed text (the library's own message is not returned), `details: {}`.
   */
  genericUnprocessable(): ApiError {
    return failure(422, 'Invalid', 'the server rejected our request due to an error in our request', {}, true);
  },
};

/** Turns anything thrown into an ApiError (unknown errors become InternalError). */
export function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  const text = e instanceof Error ? e.message : String(e);
  return errors.internal(text);
}
