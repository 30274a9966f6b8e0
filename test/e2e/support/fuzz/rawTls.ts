// Sends exact bytes over TLS and reads back the first HTTP response, for requests an HTTP
// client would refuse or repair (mismatched Content-Length, odd Transfer-Encoding, repeated or
// oversized headers).
import * as tls from 'node:tls';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface RawTarget {
  host: string;
  port: number;
  ca: string;
  cert?: string;
  key?: string;
}

/** Where the header block ends, or -1. */
function headerEnd(buf: Buffer): number {
  return buf.indexOf('\r\n\r\n');
}

function parseHead(head: string): { status: number; headers: Record<string, string> } {
  const lines = head.split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  if (!m) throw new Error(`not an HTTP response: ${JSON.stringify(lines[0]?.slice(0, 80))}`);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) {
      const k = line.slice(0, i).trim().toLowerCase();
      const v = line.slice(i + 1).trim();
      headers[k] = headers[k] === undefined ? v : `${headers[k]}, ${v}`;
    }
  }
  return { status: Number(m[1]), headers };
}

/** Decodes a complete chunked body, or returns undefined while more bytes are needed. */
function dechunk(buf: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let pos = 0;
  for (;;) {
    const eol = buf.indexOf('\r\n', pos);
    if (eol < 0) return undefined;
    const size = parseInt(buf.subarray(pos, eol).toString('latin1').split(';')[0], 16);
    if (!Number.isFinite(size)) throw new Error('bad chunk size in response');
    if (size === 0) return Buffer.concat(parts);
    if (buf.length < eol + 2 + size + 2) return undefined;
    parts.push(buf.subarray(eol + 2, eol + 2 + size));
    pos = eol + 2 + size + 2;
  }
}

/**
 * Writes bytes and resolves with the first response once it is complete; rejects on timeout or
 * when the server closes without answering. A 2xx without a length (a stream) resolves at its headers.
 */
export function sendRaw(target: RawTarget, bytes: Buffer, opts: { halfClose?: boolean; timeoutMs: number }): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let buf = Buffer.alloc(0);
    const socket = tls.connect({ host: target.host, port: target.port, ca: target.ca, cert: target.cert, key: target.key, servername: '' });
    const timer = setTimeout(() => finish(new Error(`no complete response within ${opts.timeoutMs} ms`)), opts.timeoutMs);
    const finish = (err: Error | null, res?: RawResponse): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(res as RawResponse);
    };
    const tryParse = (closed: boolean): void => {
      const end = headerEnd(buf);
      if (end < 0) {
        if (closed) finish(new Error(buf.length ? `truncated response head: ${JSON.stringify(buf.toString('latin1').slice(0, 80))}` : 'connection closed without a response'));
        return;
      }
      let head;
      try {
        head = parseHead(buf.subarray(0, end).toString('latin1'));
      } catch (e) {
        finish(e as Error);
        return;
      }
      const rest = buf.subarray(end + 4);
      // An interim answer (100 Continue) precedes the real one.
      if (head.status >= 100 && head.status < 200 && head.status !== 101) {
        buf = rest;
        tryParse(closed);
        return;
      }
      const length = head.headers['content-length'];
      if (length !== undefined) {
        const n = Number(length);
        if (rest.length >= n) finish(null, { ...head, body: rest.subarray(0, n) });
        else if (closed) finish(new Error(`response body truncated: ${rest.length} of ${n} bytes`));
        return;
      }
      if (/chunked/i.test(head.headers['transfer-encoding'] ?? '')) {
        if (head.status < 300) {
          finish(null, { ...head, body: Buffer.alloc(0) });
          return;
        }
        try {
          const body = dechunk(rest);
          if (body) finish(null, { ...head, body });
          else if (closed) finish(new Error('chunked response truncated'));
        } catch (e) {
          finish(e as Error);
        }
        return;
      }
      // No length: the body runs to the close (Node's own parser errors are written so, empty).
      if (closed) finish(null, { ...head, body: rest });
    };
    socket.on('secureConnect', () => {
      socket.write(bytes);
      if (opts.halfClose) socket.end();
    });
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      tryParse(false);
    });
    socket.on('end', () => tryParse(true));
    socket.on('close', () => tryParse(true));
    socket.on('error', (e) => {
      // A reset after a complete response head still counts as an answer.
      if (headerEnd(buf) >= 0) tryParse(true);
      else finish(e);
    });
  });
}
