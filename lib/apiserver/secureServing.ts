// The one TLS server's options, as upstream's secure serving sets its http.Server: a client still
// sending its request headers after ReadHeaderTimeout (32 s, "just shy of
// requestTimeoutUpperBound") is answered 408 and disconnected (clientError.ts writes the answer),
// and a connection that has not finished its TLS handshake by then is closed (Go's net/http bounds
// the handshake by the smallest of ReadHeaderTimeout, ReadTimeout and WriteTimeout). HTTP/1.1 and
// HTTP/2 share the listener, so the handshake bound covers both; HTTP/2 sessions get
// http2Serving.ts's limits.
import type * as http from 'node:http';
import * as http2 from 'node:http2';
import { maxHeaderBytes } from './clientError';
import type { Http1Classes } from './expressPrototypes';
import type { Http2Limits } from './http2Serving';
import type { AnyRequest, AnyResponse } from './protocol';

/** Upstream secure_serving.go: ReadHeaderTimeout 32 * time.Second. */
export const readHeaderTimeoutMs = 32_000;

/**
 * Go reads at most MaxHeaderBytes + 4096 bytes ("bufio slop", Server.initialReadLimitSize) before
 * an HTTP/1.1 head must be complete, and answers 431 past that. Node counts the head's target,
 * names and values against maxHeaderSize, so the same head passes here by a few bytes more.
 */
export const http1MaxHeaderSize = maxHeaderBytes + 4096;

export interface ServingTimeouts {
  /** Node's headersTimeout: the whole head must arrive within this. */
  headersTimeout: number;
  /**
   * How often Node checks for expired heads. Its default (30 s) would let a 32 s timeout fire
   * anywhere up to 62 s; a 32nd of the timeout keeps the answer within ~3% of it.
   */
  connectionsCheckingInterval: number;
}

/** HTTP/1.1 server options for a head timeout of `ms` (the server's default unless a test shortens it). */
export function servingTimeouts(ms: number = readHeaderTimeoutMs): ServingTimeouts {
  return { headersTimeout: ms, connectionsCheckingInterval: Math.max(10, Math.floor(ms / 32)) };
}

/**
 * Go's Server.tlsHandshakeTimeout: the smallest positive of ReadHeaderTimeout, ReadTimeout and
 * WriteTimeout, 0 (none) when none is set. Upstream sets only ReadHeaderTimeout.
 */
export function tlsHandshakeTimeoutMs(readHeaderMs: number, readMs = 0, writeMs = 0): number {
  const set = [readHeaderMs, readMs, writeMs].filter((v) => v > 0);
  return set.length ? Math.min(...set) : 0;
}

export interface SecureServing {
  cert: Buffer | string;
  key: Buffer | string;
  /** Client CAs: certificates are asked for, and checked by the authenticator, not by TLS. */
  ca?: Buffer | string | Array<Buffer | string>;
  http2: Http2Limits;
  /** ReadHeaderTimeout in ms; upstream's 32 s unless a test shortens it. */
  readHeaderTimeoutMs?: number;
  /** The classes of HTTP/1.1 requests and responses (express's prototypes). */
  http1Classes?: Http1Classes;
}

/** Options for http2.createSecureServer: ALPN h2 and http/1.1 on the one port. */
export function secureServerOptions(s: SecureServing): http2.SecureServerOptions {
  const headerMs = s.readHeaderTimeoutMs ?? readHeaderTimeoutMs;
  // HTTP/1.1 connections keep Node's parser with these options.
  const http1Options: http.ServerOptions = { maxHeaderSize: http1MaxHeaderSize, keepAliveTimeout: 65_000, ...servingTimeouts(headerMs) };
  return {
    cert: s.cert,
    key: s.key,
    ca: s.ca,
    requestCert: true,
    rejectUnauthorized: false,
    minVersion: 'TLSv1.2',
    // Node's default is 120 s; Go's bound, for both protocols.
    handshakeTimeout: tlsHandshakeTimeoutMs(headerMs),
    allowHTTP1: true,
    ...(s.http1Classes ? { Http1IncomingMessage: s.http1Classes.IncomingMessage, Http1ServerResponse: s.http1Classes.ServerResponse } : {}),
    settings: s.http2.settings,
    maxHeaderListPairs: s.http2.maxHeaderListPairs,
    maxSessionMemory: s.http2.maxSessionMemoryMB,
    http1Options,
  };
}

/**
 * The TLS server: secureServerOptions, and no cap on the number of HTTP/1.1 header fields (Node
 * answers 431 past about a thousand, its maxHeadersCount; Go counts only the head's bytes). The
 * property is read by Node's HTTP/1 connection listener, which http2's fallback calls with this
 * server; http1Options does not carry it.
 */
export function createSecureServer(s: SecureServing, handler: (req: AnyRequest, res: AnyResponse) => void): http2.Http2SecureServer {
  const server = http2.createSecureServer(secureServerOptions(s), handler);
  (server as unknown as { maxHeadersCount: number }).maxHeadersCount = 0;
  return server;
}
