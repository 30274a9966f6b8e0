// Which etcd a client talks to, and whether its requested progress notifications can be
// trusted. etcd before 3.4.25 and 3.5.8 may answer a progress request while events are still
// queued for a catching-up watcher (etcd-io/etcd#15220), so a revision learnt that way does
// not prove every earlier event was delivered.
import * as http from 'node:http';
import * as https from 'node:https';
import type { TlsOptions } from './etcd3Pool';

/** The server version from etcd's /version endpoint (e.g. "3.4.23"); https with the client's TLS files. */
export async function fetchEtcdVersion(endpoint: string, timeoutMs = 2000, tls?: TlsOptions): Promise<string> {
  const url = `${endpoint.replace(/\/+$/, '')}/version`;
  const { status, text } = await get(url, timeoutMs, tls);
  if (status !== 200) throw new Error(`GET ${endpoint}/version: HTTP ${status}`);
  const body = JSON.parse(text) as { etcdserver?: unknown };
  if (typeof body.etcdserver !== 'string') throw new Error(`GET ${endpoint}/version: no etcdserver version`);
  return body.etcdserver;
}

function get(url: string, timeoutMs: number, tls?: TlsOptions): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const opts = { timeout: timeoutMs, ...(url.startsWith('https:') ? { ca: tls?.ca, cert: tls?.cert, key: tls?.key } : {}) };
    const req = (url.startsWith('https:') ? https.get : http.get)(url, opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url}: no answer in ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}

/** True when requested progress notifications are ordered after pending events. */
export function progressRequestsAreOrdered(version: string): boolean {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!m) return false;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (major !== 3) return major > 3;
  if (minor < 4) return false;
  if (minor === 4) return patch >= 25;
  if (minor === 5) return patch >= 8;
  return true;
}
