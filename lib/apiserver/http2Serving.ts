// HTTP/2 beside HTTP/1.1 on the one TLS port (ALPN h2, http/1.1), with upstream's limits
// (secure_serving.go): streams per connection, a 256 KiB receive window per stream and that times
// the stream limit per connection, 256 KiB frames, a header list of MaxHeaderBytes plus Go's
// allowance (with no separate cap on its number of fields), and a 90 s idle timeout that counts
// only while no stream is open. HTTP/1.1 keeps Node's parser (secureServing.ts sets its options).
import type { ServerHttp2Session, ServerHttp2Stream, Settings } from 'node:http2';
import { maxHeaderBytes } from './clientError';

/** Go's http2 default that upstream makes explicit when --http2-max-streams-per-connection is 0. */
export const defaultMaxStreamsPerConnection = 100;

/** Upstream resourceBody99Percentile: MaxUploadBufferPerStream and MaxReadFrameSize. */
export const resourceBody99Percentile = 256 * 1024;

/** Go's http2 server advertises MaxHeaderBytes plus 10 fields' worth of overhead (32 bytes each). */
export const maxHeaderListSize = maxHeaderBytes + 10 * 32;

/**
 * Go counts only the list's size, where every field costs its name, value and 32 bytes; Node also
 * resets a stream with more than maxHeaderListPairs fields (128 by default). As many as the list
 * can hold, so the size is the one limit.
 */
export const maxHeaderListPairs = Math.floor(maxHeaderListSize / 32);

/** upstream http2.Server IdleTimeout: 90 s, "matches http.DefaultTransport keep-alive timeout". */
export const idleTimeoutMs = 90_000;

export interface Http2Limits {
  maxConcurrentStreams: number;
  /** The receive window per stream (SETTINGS_INITIAL_WINDOW_SIZE). */
  streamWindowBytes: number;
  /** The connection's receive window: one stream window per allowed stream (MaxUploadBufferPerConnection). */
  connectionWindowBytes: number;
  settings: Settings;
  /** Node's cap on the fields of one request head. */
  maxHeaderListPairs: number;
  /** Node's cap on what one session may hold (MB): the connection window and the header list fit. */
  maxSessionMemoryMB: number;
}

/** The limits for --http2-max-streams-per-connection (0 = upstream's default of 100). */
export function http2Limits(maxStreamsFlag: number): Http2Limits {
  const streams = maxStreamsFlag > 0 ? maxStreamsFlag : defaultMaxStreamsPerConnection;
  const connectionWindowBytes = Math.min(resourceBody99Percentile * streams, 2 ** 31 - 1);
  return {
    maxConcurrentStreams: streams,
    streamWindowBytes: resourceBody99Percentile,
    connectionWindowBytes,
    settings: {
      maxConcurrentStreams: streams,
      initialWindowSize: resourceBody99Percentile,
      maxFrameSize: resourceBody99Percentile,
      maxHeaderListSize,
      enablePush: false,
    },
    maxHeaderListPairs,
    maxSessionMemoryMB: Math.ceil(connectionWindowBytes / 2 ** 20) + 2 * Math.ceil(maxHeaderListSize / 2 ** 20) + 10,
  };
}

/**
 * Per session: widens the connection receive window to the limit, and closes the session (GOAWAY,
 * then the socket once its streams are done) after idleMs with no open stream, as Go's IdleTimeout.
 */
export function manageSession(session: ServerHttp2Session, limits: Http2Limits, idleMs: number = idleTimeoutMs): void {
  session.once('localSettings', () => {
    if (!session.destroyed) session.setLocalWindowSize(limits.connectionWindowBytes);
  });
  let open = 0;
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    timer = setTimeout(() => {
      if (!session.closed && !session.destroyed) session.close();
    }, idleMs);
    timer.unref();
  };
  session.on('stream', (stream: ServerHttp2Stream) => {
    open++;
    if (timer) clearTimeout(timer);
    timer = undefined;
    stream.once('close', () => {
      if (--open === 0 && !session.closed) arm();
    });
  });
  session.once('close', () => {
    if (timer) clearTimeout(timer);
  });
  // A session error (protocol violation, reset socket) ends that session only.
  session.on('error', () => undefined);
  arm();
}
