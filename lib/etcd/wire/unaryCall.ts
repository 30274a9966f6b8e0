// One gRPC unary call on an HTTP/2 session: POST the framed request with grpc-timeout, read the
// framed response, take the status from the trailers (or from the headers of a trailers-only
// response), and end the call at the deadline ourselves too (a cut-off server never answers).
import { constants, type IncomingHttpHeaders } from 'node:http2';
import { FRAME_PREFIX } from './grpcFrame';
import { GrpcError, GrpcStatus, statusFromClose, statusFromHttp, statusFromTrailers } from './grpcStatus';
import type { Http2Connection, Live } from './http2Connection';
import { decodeMessage, type EtcdReader } from './etcdReader';

const REQUEST_OPTIONS = { endStream: false } as const;

export function unaryCall<Res>(
  conn: Http2Connection,
  path: string,
  /** The framed request (frameMessage). */
  body: Buffer,
  decode: (r: EtcdReader) => Res,
  deadline: number,
  /** Handed the call's cancel function once the request is sent: it fails the call UNAVAILABLE with these details (not unprocessed). */
  onCancel?: (cancel: (details: string) => void) => void,
): Promise<Res> {
  return new Promise((resolve, reject) => {
    const live: Live | undefined = conn.readySession();
    if (!live) return reject(new GrpcError(GrpcStatus.UNAVAILABLE, 'No connection established', true));
    const timeoutMs = Math.ceil(deadline - Date.now());
    if (timeoutMs <= 0) return reject(new GrpcError(GrpcStatus.DEADLINE_EXCEEDED, 'Deadline exceeded before the call started'));
    let stream;
    try {
      // A raw header list skips node:http2's per-name validation and lower-casing of an object.
      stream = live.session.request(
        [':method', 'POST', ':path', path, 'content-type', 'application/grpc', 'te', 'trailers', 'grpc-timeout', `${Math.min(timeoutMs, 99_999_999)}m`],
        REQUEST_OPTIONS,
      );
    } catch (err) {
      // The session refused a new stream (closing, GOAWAY): nothing was sent.
      return reject(new GrpcError(GrpcStatus.UNAVAILABLE, `No connection established: ${(err as Error).message}`, true));
    }
    const untrack = conn.track(live);
    let status: GrpcError | null | undefined; // null: OK; undefined: none received
    let httpStatus = 0;
    let data: Buffer | undefined;
    let more: Buffer[] | undefined;
    let streamError: NodeJS.ErrnoException | undefined;
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      reject(new GrpcError(GrpcStatus.DEADLINE_EXCEEDED, 'Deadline exceeded'));
      stream.close(constants.NGHTTP2_CANCEL);
    }, timeoutMs);
    onCancel?.((details) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new GrpcError(GrpcStatus.UNAVAILABLE, details));
      stream.close(constants.NGHTTP2_CANCEL);
    });
    stream.on('response', (headers: IncomingHttpHeaders, flags: number) => {
      live.pinger.heard();
      httpStatus = Number(headers[':status']);
      if (flags & constants.NGHTTP2_FLAG_END_STREAM) status = statusFromTrailers(headers);
    });
    stream.on('trailers', (headers: IncomingHttpHeaders) => {
      status = statusFromTrailers(headers);
    });
    stream.on('data', (chunk: Buffer) => {
      live.pinger.heard();
      if (!data) data = chunk;
      else (more ??= [data]).push(chunk);
    });
    stream.on('error', (err: NodeJS.ErrnoException) => {
      streamError = err;
    });
    stream.on('close', () => {
      untrack();
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      if (status === null) {
        const msg = more ? Buffer.concat(more) : data;
        try {
          resolve(decodeOne(msg, decode));
        } catch (err) {
          reject(err);
        }
      } else if (status) reject(status);
      else if (httpStatus !== 0 && httpStatus !== 200) reject(statusFromHttp(httpStatus));
      else reject(statusFromClose(stream.rstCode ?? 0, live.session.destroyed, streamError ?? live.error));
    });
    stream.end(body);
  });
}

function decodeOne<Res>(msg: Buffer | undefined, decode: (r: EtcdReader) => Res): Res {
  if (!msg || msg.length < FRAME_PREFIX) throw new GrpcError(GrpcStatus.INTERNAL, 'No message received');
  if (msg[0] !== 0) throw new GrpcError(GrpcStatus.INTERNAL, 'Compressed message received, but no compression was negotiated');
  const len = msg.readUInt32BE(1);
  if (msg.length !== FRAME_PREFIX + len) throw new GrpcError(GrpcStatus.INTERNAL, 'Response framing does not match its length');
  try {
    return decodeMessage(decode, msg, FRAME_PREFIX, FRAME_PREFIX + len);
  } catch (err) {
    throw new GrpcError(GrpcStatus.INTERNAL, `Failed to parse server response: ${(err as Error).message}`);
  }
}
