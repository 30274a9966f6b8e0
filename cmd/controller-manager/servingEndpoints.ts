// HTTPS on --secure-port (10257) with /healthz[/<check>] and /metrics. Upstream fronts these with
// delegated authentication/authorization; here they are open (health and metrics only, nothing
// that changes state), and the certificate is --tls-cert-file or a self-signed one for
// localhost made in memory at start-up, as upstream's MaybeDefaultWithSelfSignedCerts does.
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { HealthRegistry } from '../../lib/apiserver/health';
import { generatePrivateKey, issueCertificate, loadTLSFiles, privateKeyToPem } from '../../lib/signing';

export interface ServingOptions {
  bindAddress: string;
  port: number;
  tlsCertFile?: string;
  tlsKeyFile?: string;
  health: HealthRegistry;
  metrics: Registry;
  now?: () => Date;
}

export interface ServingEndpoints {
  address: AddressInfo;
  close(): Promise<void>;
}

/** A self-signed serving certificate for localhost / 127.0.0.1, valid one year. */
export async function selfSignedServingCert(now: Date = new Date()): Promise<{ cert: string; key: string }> {
  const key = generatePrivateKey('ecdsa-p256');
  const issued = await issueCertificate({
    caKey: key,
    subject: { commonName: `localhost@${Math.floor(now.getTime() / 1000)}` },
    sans: { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] },
    usages: ['digital signature', 'server auth'],
    notBefore: new Date(now.getTime() - 60 * 60_000),
    notAfter: new Date(now.getTime() + 365 * 24 * 3600_000),
  });
  return { cert: issued.pem, key: privateKeyToPem(key) };
}

const text = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };

/** Answers one request: health checks, metrics, or 404. */
export function servingHandler(health: HealthRegistry, metrics: Registry): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'https://localhost');
    const reply = (status: number, headers: Record<string, string>, body: string): void => {
      res.writeHead(status, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, text, 'method not allowed\n');
    void (async () => {
      try {
        if (url.pathname === '/metrics') return reply(200, { 'Content-Type': metrics.contentType }, await metrics.metrics());
        const m = /^\/healthz(\/.*)?$/.exec(url.pathname);
        if (m) {
          const r = await health.handleHealth('healthz', m[1] ?? '', url.searchParams);
          return reply(r.status, r.headers, r.status === 404 ? '404 page not found\n' : r.body);
        }
        reply(404, text, '404 page not found\n');
      } catch (e) {
        reply(500, text, `internal server error: ${(e as Error).message}\n`);
      }
    })();
  };
}

export async function startServingEndpoints(opts: ServingOptions): Promise<ServingEndpoints> {
  let cert: string | Buffer;
  let key: string | Buffer;
  if (opts.tlsCertFile && opts.tlsKeyFile) {
    const files = await loadTLSFiles({ tlsCertFile: opts.tlsCertFile, tlsKeyFile: opts.tlsKeyFile });
    cert = files.cert;
    key = files.key;
  } else {
    ({ cert, key } = await selfSignedServingCert(opts.now?.()));
  }
  const server = https.createServer({ cert, key, minVersion: 'TLSv1.2' }, servingHandler(opts.health, opts.metrics));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.bindAddress, () => resolve());
  });
  return {
    address: server.address() as AddressInfo,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
