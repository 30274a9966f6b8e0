// start()'s serving step: audit, the API server's handlers (routing, discovery, OpenAPI, health,
// metrics) over the stores, and the one TLS port with HTTP/2 and HTTP/1.1 it listens on.
import * as http from 'node:http';
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type pino from 'pino';
import { apiVersionOf, type ResourceInfo } from '../../../lib/api';
import { answerClientError } from '../../../lib/apiserver/clientError';
import { http2Limits, manageSession } from '../../../lib/apiserver/http2Serving';
import { ServerLifecycle } from '../../../lib/apiserver/lifecycle';
import type { ApiServerMetrics } from '../../../lib/apiserver/metrics';
import { isServed } from '../../../lib/apiserver/resourceConfig';
import { createSecureServer } from '../../../lib/apiserver/secureServing';
import { createApiServer, type ApiServer, type PostStartHook } from '../../../lib/apiserver/server';
import { checkEtcdHealth } from '../../../lib/etcd';
import { startAudit, type AuditBackend } from '../audit';
import type { ApiServerOptions } from '../options';
import { registeredResources } from '../registeredResources';
import type { SecurityStep, ServingCertificates } from './security';
import type { StorageStep } from './storage';

export interface ServingStep {
  server: ApiServer;
  httpsServer: http2.Http2SecureServer;
  /** Open HTTP/2 sessions, destroyed when shutdown's last grace is over. */
  sessions: Set<http2.ServerHttp2Session>;
  address: AddressInfo;
  lifecycle: ServerLifecycle;
  audit?: AuditBackend;
}

export interface ServingDeps {
  certs: ServingCertificates;
  storage: StorageStep;
  security: SecurityStep;
  metrics: ApiServerMetrics;
  postStartHooks: readonly PostStartHook[];
  log: pino.Logger;
}

export async function startServing(opts: ApiServerOptions, deps: ServingDeps): Promise<ServingStep> {
  const { storage, security, metrics, log } = deps;
  const audit = await startAudit(opts, metrics, log);
  logUnserved(opts, security.endpoints.filter((e) => !e.subresource).map((e) => e.resource), log);
  const lifecycle = new ServerLifecycle(
    { shutdownDelayMs: opts.shutdown.delayMs, sendRetryAfter: opts.shutdown.sendRetryAfter, watchTerminationGraceMs: opts.shutdown.watchTerminationGraceMs },
    log,
  );
  const { etcd } = storage;
  const server = createApiServer({
    lifecycle,
    livezGracePeriodMs: opts.livezGracePeriodMs,
    resources: storage.resources,
    metrics,
    authenticator: security.authenticator,
    authorizer: security.authorizer,
    admission: security.writes.admission,
    createOnly: security.endpoints,
    requestTimeoutMs: opts.requestTimeoutMs,
    audit,
    resourceConfig: opts.runtimeConfig,
    anonymousEnabled: opts.anonymousAuth,
    features: opts.features,
    log,
    maxRequestBodyBytes: opts.maxRequestBytes,
    watchBudget: storage.watchBudget,
    serverAddress: `${opts.bindAddress === '0.0.0.0' ? '127.0.0.1' : opts.bindAddress}:${opts.securePort}`,
    storageHealth: () => (etcd ? checkEtcdHealth(etcd) : null),
    storageCondition: () => etcd?.availability.describe(),
    postStartHooks: deps.postStartHooks,
  });

  // One TLS port, ALPN h2 and http/1.1 (upstream's NextProtos); HTTP/1.1 connections get Node's
  // HTTP/1 parser, HTTP/2 sessions upstream's limits, both the TLS handshake bound (secureServing.ts).
  const { tls } = deps.certs;
  const h2 = http2Limits(opts.http2MaxStreamsPerConnection);
  const httpsServer = createSecureServer({ cert: tls.cert, key: tls.key, ca: tls.ca, http2: h2, http1Classes: server.http1 }, server.handler);
  const sessions = new Set<http2.ServerHttp2Session>();
  httpsServer.on('session', (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
    manageSession(session, h2);
  });
  httpsServer.on('clientError', answerClientError);
  // CONNECT is not served (no proxy subresources); answer instead of dropping the socket.
  httpsServer.on('connect', (req: http.IncomingMessage | http2.Http2ServerRequest, socketOrResponse: Duplex | http2.Http2ServerResponse) => {
    if (socketOrResponse instanceof http2.Http2ServerResponse) {
      socketOrResponse.writeHead(405, { 'content-length': 0 });
      socketOrResponse.end();
      return;
    }
    socketOrResponse.end('HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    httpsServer.once('error', reject);
    httpsServer.listen(opts.securePort, opts.bindAddress, () => resolve());
  });
  const address = httpsServer.address() as AddressInfo;
  log.info({ address: `https://${address.address}:${address.port}` }, 'serving securely');
  return { server, httpsServer, sessions, address, lifecycle, audit };
}

/**
 * Says which registered group/versions are not served. Their stores still run: the RBAC policy
 * index and bootstrap, admission and the system namespaces read them in-process (docs/decisions.md).
 */
function logUnserved(opts: ApiServerOptions, virtual: readonly ResourceInfo[], log: pino.Logger): void {
  const registered = registeredResources();
  const drift = virtual.filter((v) => !registered.includes(v));
  if (drift.length) throw new Error(`create-only resources missing from the registered list: ${drift.map((r) => r.resource).join(', ')}`);
  const unserved = new Map<string, string[]>();
  for (const r of registered) {
    if (isServed(opts.runtimeConfig, r)) continue;
    const gv = apiVersionOf(r);
    unserved.set(gv, [...(unserved.get(gv) ?? []), r.resource]);
  }
  for (const [groupVersion, resources] of unserved) {
    log.info({ groupVersion, resources }, 'not served (--runtime-config or removed); storage kept for in-process use');
  }
}
