// A gRPC bidirectional stream on an HTTP/2 session (etcd's Watch): framed requests written as
// they come, responses deframed and decoded as they arrive, and one onEnd when the stream ends
// for any reason other than close() (status from trailers, HTTP status, RST code or a dropped
// connection, mapped as for unary calls).
import { constants, type ClientHttp2Stream, type IncomingHttpHeaders } from 'node:http2';
import { Deframer, frameMessage } from './grpcFrame';
import { GrpcError, GrpcStatus, statusFromClose, statusFromHttp, statusFromTrailers } from './grpcStatus';
import type { Http2Connection } from './http2Connection';
import { decodeMessage, type EtcdReader } from './etcdReader';
import type { ProtoWriter } from '../../protowire/writer';

export interface BidiHandlers<Res> {
  onMessage(res: Res): void;
  /** The stream ended by itself: err says why (an OK status without error is possible too). */
  onEnd(err: GrpcError | undefined): void;
}

export class BidiStream<Req, Res> {
  private readonly stream: ClientHttp2Stream | undefined;
  private ended = false;

  constructor(
    conn: Http2Connection,
    path: string,
    private readonly encode: (w: ProtoWriter, m: Req) => void,
    decode: (r: EtcdReader) => Res,
    private readonly handlers: BidiHandlers<Res>,
  ) {
    const live = conn.sessionForStream();
    let stream: ClientHttp2Stream | undefined;
    let refused: Error | undefined;
    if (live) {
      try {
        stream = live.session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers' }, { endStream: false });
      } catch (err) {
        refused = err as Error;
      }
    }
    this.stream = stream;
    if (!stream || !live) {
      const why = refused ? `: ${refused.message}` : ' (reconnecting after a failed attempt)';
      // Asynchronously, as a failing stream would: the caller has not stored us yet.
      setImmediate(() => this.end(new GrpcError(GrpcStatus.UNAVAILABLE, `No connection established${why}`, true)));
      return;
    }
    const untrack = conn.track(live);
    const deframer = new Deframer();
    let status: GrpcError | null | undefined;
    let httpStatus = 0;
    let streamError: NodeJS.ErrnoException | undefined;
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
      if (this.ended) return;
      try {
        deframer.push(chunk, (msg) => {
          if (this.ended) return;
          let res: Res;
          try {
            res = decodeMessage(decode, msg);
          } catch (err) {
            throw new GrpcError(GrpcStatus.INTERNAL, `Failed to parse server response: ${(err as Error).message}`);
          }
          this.handlers.onMessage(res);
        });
      } catch (err) {
        this.end(err instanceof GrpcError ? err : new GrpcError(GrpcStatus.INTERNAL, (err as Error).message));
        stream.close(constants.NGHTTP2_CANCEL);
      }
    });
    stream.on('error', (err: NodeJS.ErrnoException) => {
      streamError = err;
    });
    stream.on('close', () => {
      untrack();
      if (status === null) this.end(undefined);
      else if (status) this.end(status);
      else if (httpStatus !== 0 && httpStatus !== 200) this.end(statusFromHttp(httpStatus));
      else this.end(statusFromClose(stream.rstCode ?? 0, live.session.destroyed, streamError ?? live.error));
    });
  }

  write(req: Req): void {
    if (this.ended || !this.stream || this.stream.destroyed) return;
    this.stream.write(frameMessage(this.encode, req));
  }

  /** Ends the stream from our side (half-close, then cancel); onEnd is not called. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    const s = this.stream;
    if (s && !s.destroyed) {
      s.end();
      s.close(constants.NGHTTP2_CANCEL);
    }
  }

  private end(err: GrpcError | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.handlers.onEnd(err);
  }
}
