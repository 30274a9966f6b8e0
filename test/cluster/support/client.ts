// HTTPS to the cluster as the admin of its PKI (the load balancer by default), and plain GETs of
// the members' metrics and health endpoints.
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { join } from 'node:path';

export interface Reply {
  status: number;
  body: string;
  json<T>(): T;
}

export class ClusterClient {
  readonly tls: { ca: string; cert: string; key: string };
  readonly agent = new https.Agent({ keepAlive: true, maxSockets: 16 });

  constructor(
    pkiDir: string,
    readonly base: string,
    user: 'admin' | 'monitoring' = 'admin',
  ) {
    this.tls = {
      ca: readFileSync(join(pkiDir, 'ca.crt'), 'utf8'),
      cert: readFileSync(join(pkiDir, `${user}.crt`), 'utf8'),
      key: readFileSync(join(pkiDir, `${user}.key`), 'utf8'),
    };
  }

  request(method: string, path: string, body?: unknown, opts: { base?: string; timeoutMs?: number } = {}): Promise<Reply> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = https.request(
        `${opts.base ?? this.base}${path}`,
        {
          method,
          ...this.tls,
          agent: this.agent,
          timeout: opts.timeoutMs ?? 30_000,
          headers: payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {},
        },
        (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: r.statusCode ?? 0, body: text, json: <T>() => JSON.parse(text) as T });
          });
          r.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in ${opts.timeoutMs ?? 30_000} ms`)));
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  /** A streaming GET: lines as they arrive; the returned function aborts it. */
  stream(path: string, on: { status(code: number): void; line(text: string): void; end(err?: Error): void }): () => void {
    let done = false;
    const finish = (err?: Error): void => {
      if (done) return;
      done = true;
      on.end(err);
    };
    const req = https.request(`${this.base}${path}`, { method: 'GET', ...this.tls, agent: false }, (r) => {
      on.status(r.statusCode ?? 0);
      let buf = '';
      r.on('data', (c: Buffer) => {
        buf += c.toString('utf8');
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (line.trim()) on.line(line);
        }
      });
      r.on('end', () => finish());
      r.on('error', (e) => finish(e));
      r.on('aborted', () => finish(new Error('aborted')));
    });
    req.on('error', (e) => finish(e));
    req.end();
    return () => req.destroy();
  }
}

/** A GET returning the body (no TLS verification: self-signed controller-manager certificates). */
export function getText(url: string, tls: https.RequestOptions = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const get = url.startsWith('https:') ? https.get : http.get;
    const req = get(url, { rejectUnauthorized: false, timeout: 10_000, ...tls }, (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => resolve({ status: r.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      r.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url}: timeout`)));
    req.on('error', reject);
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls until fn returns a truthy value; throws after timeoutMs. */
export async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs: number, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let v: T | undefined | null | false;
    try {
      v = await fn();
    } catch {
      v = undefined;
    }
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}
