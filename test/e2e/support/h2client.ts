// A node:http2 client session against the apiserver with the admin certificate: requests and
// line-delimited watch streams, all multiplexed on the one session.
import * as http2 from 'node:http2';
import { gunzipSync } from 'node:zlib';
import type { ApiServerProcess } from './apiserver';

export interface H2Response {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: Buffer;
  json<T = Record<string, unknown>>(): T;
}

export interface H2Watch {
  stream: http2.ClientHttp2Stream;
  lines: Array<{ type: string; object: { metadata?: { name?: string; resourceVersion?: string } } }>;
  status: Promise<number>;
  /** Resolves on close with the RST_STREAM code (0 = a clean end). */
  closed: Promise<number>;
}

export function connectH2(api: ApiServerProcess, opts: { anonymous?: boolean; session?: http2.SecureClientSessionOptions } = {}): http2.ClientHttp2Session {
  const creds = api.adminTls();
  // Node's client caps the head it sends at 64 KiB unless told otherwise; the server allows 1 MiB.
  const session = http2.connect(api.url, { ca: creds.ca, maxSendHeaderBlockLength: 4 << 20, ...(opts.anonymous ? {} : { cert: creds.cert, key: creds.key }), ...opts.session });
  session.on('error', () => undefined);
  return session;
}

export function h2Request(
  session: http2.ClientHttp2Session,
  method: string,
  path: string,
  opts: { body?: Buffer | string; headers?: Record<string, string>; endStream?: boolean } = {},
): Promise<H2Response> {
  return new Promise((resolve, reject) => {
    const req = session.request({ ':method': method, ':path': path, ...(opts.headers ?? {}) }, { endStream: opts.body === undefined && opts.endStream !== false });
    const chunks: Buffer[] = [];
    let headers: http2.IncomingHttpHeaders = {};
    req.on('response', (h) => (headers = h));
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
      resolve({ status: Number(headers[':status']), headers, body, json: <T>() => JSON.parse(body.toString('utf8')) as T });
    });
    req.on('error', reject);
    if (opts.body !== undefined) {
      if (opts.endStream === false) req.write(opts.body);
      else req.end(opts.body);
    }
  });
}

export function h2Watch(session: http2.ClientHttp2Session, path: string): H2Watch {
  const stream = session.request({ ':method': 'GET', ':path': path });
  const lines: H2Watch['lines'] = [];
  let buf = '';
  const status = new Promise<number>((resolve) => stream.once('response', (h) => resolve(Number(h[':status']))));
  stream.on('data', (c: Buffer) => {
    buf += c.toString('utf8');
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (line.trim()) lines.push(JSON.parse(line) as H2Watch['lines'][number]);
    }
  });
  stream.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => stream.once('close', () => resolve(stream.rstCode ?? 0)));
  return { stream, lines, status, closed };
}
