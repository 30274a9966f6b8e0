// The one dispatch serves HTTP/1.1 (express's req/res) and HTTP/2 (node:http2's compatibility
// request/response) alike. The compat objects implement the IncomingMessage / ServerResponse
// surface dispatch and the handlers use (headers, url, method, socket for TLS facts, writeHead,
// setHeader, write/end with back-pressure and 'drain', 'finish'/'close', destroy); the few
// places where the protocols differ ask here instead of branching on their own.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse, Http2Session, Http2Stream } from 'node:http2';

export type AnyRequest = IncomingMessage | Http2ServerRequest;
export type AnyResponse = ServerResponse | Http2ServerResponse;

export function isHttp2Request(req: AnyRequest): req is Http2ServerRequest {
  return req.httpVersionMajor === 2;
}

/** The HTTP/2 stream under a compat response, undefined for HTTP/1.x. */
function streamOf(res: ServerResponse | Http2ServerResponse): Http2Stream | undefined {
  const s = (res as { stream?: unknown }).stream;
  return s && typeof s === 'object' ? (s as Http2Stream) : undefined;
}

export function isHttp2Response(res: ServerResponse): boolean {
  return streamOf(res) !== undefined;
}

/** The HTTP/2 session (the connection) of a request, undefined for HTTP/1.x. */
export function sessionOf(req: { stream?: unknown }): Http2Session | undefined {
  const s = req.stream as Http2Stream | undefined;
  return s && typeof s === 'object' ? s.session : undefined;
}

/**
 * Bytes written but not yet sent for this response. HTTP/1.1: the response's writableLength,
 * which Node counts with its socket's buffer (the socket is the response's alone; adding the
 * socket's again counted every byte twice once it reached the socket). HTTP/2: the stream's own
 * buffer only; the socket is shared, and flow control holds a stalled stream's data in its stream.
 */
export function bufferedBytes(res: ServerResponse): number {
  const stream = streamOf(res);
  if (stream) return stream.writableLength;
  return res.writableLength;
}

/**
 * "Connection: close" (HTTP/1.1) or, on HTTP/2 where connection headers do not exist, a graceful
 * GOAWAY: the session takes no new streams and closes when its open ones end. Go's http2 server
 * maps a handler's Connection: close the same way.
 */
export function closeConnectionAfter(res: ServerResponse): void {
  const stream = streamOf(res);
  if (stream) {
    const session = stream.session;
    if (session && !session.closed && !session.destroyed) session.close();
    return;
  }
  if (!res.headersSent) res.setHeader('Connection', 'close');
}

/** The request's protocol as Go's Request.Proto names it (upstream's httplog "protocol"). */
export function protocolOf(req: IncomingMessage): string {
  return `HTTP/${req.httpVersion}`;
}

/**
 * The HTTP/2 compat pair as the request/response dispatch takes. The cast is the one place the
 * two protocols meet; the differences that matter are answered by the functions above.
 */
export function asDispatchPair(req: Http2ServerRequest, res: Http2ServerResponse): [IncomingMessage, ServerResponse] {
  return [req as unknown as IncomingMessage, res as unknown as ServerResponse];
}
