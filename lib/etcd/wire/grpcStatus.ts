// gRPC status codes and the error a call ends with, mapped as grpc-js maps them (so the pool's
// retry rules and toStorageError see what they saw with grpc-js): grpc-status from trailers, else
// the HTTP status, else the HTTP/2 stream's RST code; a dropped connection is UNAVAILABLE.
import { constants } from 'node:http2';

export const GrpcStatus = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

const names: Record<number, string> = Object.fromEntries(Object.entries(GrpcStatus).map(([k, v]) => [v, k]));

export class GrpcError extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
    /** The request surely never reached etcd (no connection, or the server refused the stream): safe to send again. */
    readonly unprocessed = false,
  ) {
    super(`${code} ${names[code] ?? 'UNKNOWN'}: ${details}`);
    this.name = 'GrpcError';
  }
}

/** The status a response's grpc-status/grpc-message headers (trailers) carry; undefined without grpc-status. */
export function statusFromTrailers(headers: Record<string, string | string[] | undefined>): GrpcError | null | undefined {
  const raw = headers['grpc-status'];
  if (raw === undefined) return undefined;
  const code = Number(Array.isArray(raw) ? raw[0] : raw);
  if (code === GrpcStatus.OK) return null;
  const msg = headers['grpc-message'];
  return new GrpcError(Number.isInteger(code) ? code : GrpcStatus.UNKNOWN, decodeMessage(Array.isArray(msg) ? msg[0] : (msg ?? '')));
}

/** grpc-message is percent-encoded (gRPC over HTTP/2 spec). */
function decodeMessage(m: string): string {
  if (!m.includes('%')) return m;
  try {
    return decodeURIComponent(m);
  } catch {
    return m;
  }
}

/** A non-200 HTTP status without grpc-status (a proxy's answer), as the gRPC spec maps it. */
export function statusFromHttp(status: number): GrpcError {
  const details = `Received HTTP status code ${status}`;
  switch (status) {
    case 400:
      return new GrpcError(GrpcStatus.INTERNAL, details);
    case 401:
      return new GrpcError(GrpcStatus.UNAUTHENTICATED, details);
    case 403:
      return new GrpcError(GrpcStatus.PERMISSION_DENIED, details);
    case 404:
      return new GrpcError(GrpcStatus.UNIMPLEMENTED, details);
    case 429:
    case 502:
    case 503:
    case 504:
      return new GrpcError(GrpcStatus.UNAVAILABLE, details);
    default:
      return new GrpcError(GrpcStatus.UNKNOWN, details);
  }
}

/**
 * A stream that closed without a gRPC status. `dropped`: its connection went away (etcd killed,
 * keepalive timeout, socket error). `socketError`: the Node error the stream or session saw.
 */
export function statusFromClose(rstCode: number, dropped: boolean, socketError?: NodeJS.ErrnoException): GrpcError {
  // The server did not process the stream (RST_STREAM, or GOAWAY below our stream id).
  if (rstCode === constants.NGHTTP2_REFUSED_STREAM) return new GrpcError(GrpcStatus.UNAVAILABLE, 'Stream refused by server', true);
  if (dropped) return new GrpcError(GrpcStatus.UNAVAILABLE, socketError ? `Connection dropped: ${socketError.message}` : 'Connection dropped');
  switch (rstCode) {
    case constants.NGHTTP2_CANCEL:
      return new GrpcError(GrpcStatus.CANCELLED, 'Call cancelled');
    case constants.NGHTTP2_ENHANCE_YOUR_CALM:
      return new GrpcError(GrpcStatus.RESOURCE_EXHAUSTED, 'Bandwidth exhausted or memory limit exceeded');
    case constants.NGHTTP2_INADEQUATE_SECURITY:
      return new GrpcError(GrpcStatus.PERMISSION_DENIED, 'Protocol not secure enough');
    case constants.NGHTTP2_INTERNAL_ERROR:
      if (socketError && (socketError.code === 'ECONNRESET' || socketError.code === 'ETIMEDOUT')) {
        return new GrpcError(GrpcStatus.UNAVAILABLE, socketError.message);
      }
      return new GrpcError(GrpcStatus.INTERNAL, `Received RST_STREAM with code ${rstCode} (Internal server error)`);
    case constants.NGHTTP2_NO_ERROR:
      return new GrpcError(GrpcStatus.INTERNAL, `Received RST_STREAM with code ${rstCode} (Call ended without gRPC status)`);
    default:
      return new GrpcError(GrpcStatus.INTERNAL, `Received RST_STREAM with code ${rstCode}`);
  }
}
