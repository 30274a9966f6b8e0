// A request handed to an ApiServer's handler in-process: a real IncomingMessage and
// ServerResponse over a stand-in socket that keeps the bytes written, so express, dispatch, the
// handlers and respond.ts run exactly as for a request from the network, without a port, TLS or
// the HTTP parser. Fuzz tests send tens of thousands of requests this way in seconds.
import { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Writable } from 'node:stream';

export interface InjectedRequest {
  method: string;
  /** Path and query as on the request line. */
  path: string;
  headers?: Record<string, string>;
  body?: Uint8Array;
}

export interface InjectedResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A writable with the few socket members Node's HTTP response and dispatch touch. */
function collectingSocket(chunks: Buffer[]): Socket {
  const w = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return Object.assign(w, { remoteAddress: '127.0.0.1', encrypted: true }) as unknown as Socket;
}

function parseResponse(raw: Buffer): InjectedResponse {
  const end = raw.indexOf('\r\n\r\n');
  const lines = raw.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { status: Number(lines[0].split(' ')[1]), headers, body: raw.subarray(end + 4) };
}

/** Runs one request through handler and resolves with what it wrote once the response finished. */
export function injectRequest(handler: Handler, r: InjectedRequest): Promise<InjectedResponse> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = collectingSocket(chunks);
    const req = new IncomingMessage(socket);
    req.method = r.method;
    req.url = r.path;
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    req.httpVersion = '1.1';
    const headers: Record<string, string> = { host: 'in-process' };
    for (const [k, v] of Object.entries(r.headers ?? {})) headers[k.toLowerCase()] = v;
    if (r.body) headers['content-length'] = String(r.body.length);
    req.headers = headers;
    if (r.body?.length) req.push(Buffer.from(r.body));
    req.push(null);
    // Read to its end, an incomplete message would destroy the socket under the response.
    req.complete = true;
    const res = new ServerResponse(req);
    res.assignSocket(socket);
    res.on('finish', () => resolve(parseResponse(Buffer.concat(chunks))));
    handler(req, res);
  });
}
