// A request whose body never finishes arriving: the handler cannot complete, so only the
// server's deadline can answer it. Deterministic where a fast handler would race the timer.
import { readFileSync } from 'node:fs';
import * as https from 'node:https';
import { join } from 'node:path';
import type { ApiServerProcess } from './apiserver';

export interface StalledResponse {
  status: number;
  body: string;
  /** From sending the headers to the end of the response. */
  elapsedMs: number;
}

/** Sends the headers and half of `body` as the admin, then waits (up to giveUpMs) for the server to answer. */
export function requestWithStalledBody(server: ApiServerProcess, method: string, path: string, body: unknown, giveUpMs = 15_000): Promise<StalledResponse> {
  const pki = join(server.dir, 'pki');
  const payload = Buffer.from(JSON.stringify(body));
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = https.request(`${server.url}${path}`, {
      method,
      ca: server.caPem,
      cert: readFileSync(join(pki, 'admin.crt')),
      key: readFileSync(join(pki, 'admin.key')),
      headers: { 'Content-Type': 'application/json', 'Content-Length': payload.length },
    });
    const giveUp = setTimeout(() => {
      req.destroy();
      reject(new Error(`no response within ${giveUpMs} ms`));
    }, giveUpMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(giveUp);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), elapsedMs: Date.now() - started });
        req.destroy();
      });
    });
    req.on('error', (e) => {
      clearTimeout(giveUp);
      reject(e);
    });
    req.write(payload.subarray(0, Math.floor(payload.length / 2)));
  });
}
