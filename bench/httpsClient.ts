// A lean HTTPS client for load: one keep-alive agent with the admin client certificate, bodies
// returned as bytes (the bench never parses what it does not need).
import { readFileSync } from 'node:fs';
import type { ClientRequest } from 'node:http';
import * as https from 'node:https';
import { join } from 'node:path';

export interface HttpResponse {
  status: number;
  /** The Content-Type header. */
  contentType?: string;
  body: Buffer;
  text(): string;
  json<T = Record<string, unknown>>(): T;
}

export interface Credentials {
  ca: string;
  cert: string;
  key: string;
}

export class HttpsClient {
  readonly agent: https.Agent;

  constructor(
    readonly baseUrl: string,
    readonly creds: Credentials,
    maxSockets: number,
  ) {
    this.agent = new https.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets, ...creds });
  }

  static fromPki(baseUrl: string, pkiDir: string, maxSockets: number): HttpsClient {
    return new HttpsClient(
      baseUrl,
      {
        ca: readFileSync(join(pkiDir, 'ca.crt'), 'utf8'),
        cert: readFileSync(join(pkiDir, 'admin.crt'), 'utf8'),
        key: readFileSync(join(pkiDir, 'admin.key'), 'utf8'),
      },
      maxSockets,
    );
  }

  /** The same credentials against another server (the bare node:https baseline). */
  withBase(baseUrl: string, maxSockets: number): HttpsClient {
    return new HttpsClient(baseUrl, this.creds, maxSockets);
  }

  request(method: string, path: string, body?: unknown, contentType = 'application/json', accept?: string): Promise<HttpResponse> {
    const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = https.request(
        `${this.baseUrl}${path}`,
        {
          method,
          agent: this.agent,
          headers: {
            ...(payload ? { 'Content-Type': contentType, 'Content-Length': payload.length } : {}),
            ...(accept ? { Accept: accept } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const buf = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
            resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], body: buf, text: () => buf.toString('utf8'), json: <T>() => JSON.parse(buf.toString('utf8')) as T });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Requests that must succeed with one of the expected codes. */
  async expect(method: string, path: string, codes: number[], body?: unknown, contentType?: string): Promise<HttpResponse> {
    const r = await this.request(method, path, body, contentType);
    if (!codes.includes(r.status)) throw new Error(`${method} ${path}: HTTP ${r.status}: ${r.text().slice(0, 500)}`);
    return r;
  }

  /**
   * A streaming GET (watch): its own agent so it never takes a pooled request socket. onHeaders
   * gets the status; onData every chunk with its arrival time (performance.now()).
   */
  stream(path: string, agent: https.Agent, onHeaders: (status: number) => void, onData: (chunk: Buffer) => void, onEnd: (err?: Error) => void): ClientRequest {
    const req = https.request(`${this.baseUrl}${path}`, { method: 'GET', agent }, (res) => {
      onHeaders(res.statusCode ?? 0);
      res.on('data', onData);
      res.on('end', () => onEnd());
      res.on('error', (e) => onEnd(e));
    });
    req.on('error', (e) => onEnd(e));
    req.end();
    return req;
  }
}
