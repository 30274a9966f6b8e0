// svc-apiserver: flags → storage → registry → HTTPS. Graceful shutdown on SIGINT/SIGTERM
// (lib/apiserver/lifecycle: readyz fails, delay, refuse new requests, drain, close connections),
// and only then storage.
import { promises as fs } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import * as http from 'node:http';
import * as http2 from 'node:http2';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import type { Duplex } from 'node:stream';
import * as path from 'node:path';
import pino from 'pino';
import { apiVersionOf, controllerManagerUserName, processNames, type ResourceInfo } from '../../lib/api';
import { isServed } from '../../lib/apiserver/resourceConfig';
import { answerClientError } from '../../lib/apiserver/clientError';
import { ServerLifecycle } from '../../lib/apiserver/lifecycle';
import { ApiServerMetrics } from '../../lib/apiserver/metrics';
import { createSecureServer } from '../../lib/apiserver/secureServing';
import { http2Limits, manageSession } from '../../lib/apiserver/http2Serving';
import { createApiServer, ApiServer, storedObjectCounts } from '../../lib/apiserver/server';
import type { GenericStore } from '../../lib/registry/store';
import {
  checkEtcdHealth,
  CompactionStore,
  describeOutage,
  Etcd3Storage,
  fetchEtcdVersion,
  MemoryStorage,
  progressRequestsAreOrdered,
  startCompactor,
  Storage,
  type AvailabilityEvent,
  type TlsOptions as EtcdTls,
} from '../../lib/etcd';
import { builtinStrategies } from '../../lib/registry/builtin';
import { closeCaches, createStores, startCaches } from '../../lib/registry/stores';
import type { WatchCacheMetrics } from '../../lib/watchcache';
import { WatchBudget } from '../../lib/machinery/watchBudget';
import { ensureSystemNamespaces } from '../../lib/registry/systemNamespaces';
import { ensureStoredNaming } from '../../lib/registry/storedNaming';
import { ensureCertDir, loadTLSFiles, writeKubeconfig } from '../../lib/signing';
import { commandLineOptions, helpRequested, parseFlags } from '../flagSet';
import { LogDestination } from '../logDestination';
import { loadMallocTrim, trimAfterFullGcs } from '../freedMemory';
import { startAdmission } from './admission';
import { PolicyIndex } from '../../lib/auth/rbac';
import { startAudit } from './audit';
import { startRbacPolicy } from './rbacPolicy';
import { buildSecurity, virtualResources } from './security';
import { apiserverFlags, toOptions, ApiServerOptions } from './options';
import { servedSummary } from './servedSummary';

const program = processNames.apiserver;

/** How much longer than --request-timeout an etcd call may wait, so the request's deadline answers first. */
const etcdCallGraceMs = 1000;

/** After the drain, how long connections still open may take to close (upstream: 2 s with send-retry-after). */
const finalConnectionGraceMs = 2000;

export async function main(argv: string[]): Promise<void> {
  const opts = commandLineOptions<ApiServerOptions>(program, servedSummary(program, registeredResources()), apiserverFlags, () => {
    const { values, help } = parseFlags(argv, apiserverFlags);
    if (help) return helpRequested;
    return toOptions(values, registeredResources());
  });
  if (!opts) return;
  // Signals are handled from the start: a SIGTERM while post-start hooks still run (etcd
  // unreachable, say) shuts down as gracefully as one after, instead of killing the process.
  let running: RunningApiServer | undefined;
  let stopRequested = false;
  const shutdownAndExit = (r: RunningApiServer): void => {
    void r.shutdown().then(() => process.exit(0));
  };
  const stop = (): void => {
    if (stopRequested) return;
    stopRequested = true;
    if (running) shutdownAndExit(running);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    running = await start(opts, { trimFreedMemory: true });
    if (stopRequested) shutdownAndExit(running);
    await running.started;
  } catch (e) {
    if (stopRequested) return;
    process.stderr.write(`Error: ${(e as Error).message}\n`);
    process.exit(1);
  }
}

/** Every resource this server can serve, enabled or not: --runtime-config is checked against these. */
export function registeredResources(): ResourceInfo[] {
  return [...builtinStrategies.map((s) => s.resource), ...virtualResources];
}

/** --etcd-cafile/--etcd-certfile/--etcd-keyfile, read once at start (as upstream's client does). */
async function loadEtcdTls(opts: ApiServerOptions): Promise<EtcdTls | undefined> {
  if (!opts.etcdCAFile && !opts.etcdCertFile) return undefined;
  const read = (f: string): Promise<Buffer | undefined> => (f ? fs.readFile(f) : Promise.resolve(undefined));
  const [ca, cert, key] = await Promise.all([read(opts.etcdCAFile), read(opts.etcdCertFile), read(opts.etcdKeyFile)]);
  return { ca, cert, key };
}

/** Consistent reads come from the watch cache only on an etcd whose progress replies are ordered. */
async function etcdOrdersProgress(endpoint: string | undefined, log: pino.Logger, tls?: EtcdTls): Promise<boolean> {
  if (!endpoint) return false;
  try {
    const version = await fetchEtcdVersion(endpoint, 2000, tls);
    const ordered = progressRequestsAreOrdered(version);
    log.info({ etcdVersion: version, progressRequestsOrdered: ordered }, 'etcd version');
    return ordered;
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'etcd version unknown: consistent reads go to etcd');
    return false;
  }
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

export interface RunningApiServer {
  server: ApiServer;
  address: AddressInfo;
  /** Post-start hooks finished (the kubeconfigs are written before start() returns). */
  started: Promise<void>;
  shutdown(): Promise<void>;
}

/** At most one malloc_trim per 10 s, each within 10 s of a full GC (cmd/freedMemory.ts). */
const mallocTrimIntervalMs = 10_000;

function startTrimming(metrics: ApiServerMetrics, log: pino.Logger): () => void {
  const trimmer = loadMallocTrim();
  if (typeof trimmer === 'string') {
    log.info({ reason: trimmer }, 'freed native memory stays with malloc: no malloc_trim');
    return () => undefined;
  }
  log.info({ intervalMs: mallocTrimIntervalMs }, 'malloc_trim after full GCs');
  return trimAfterFullGcs(trimmer, mallocTrimIntervalMs, ({ released, seconds }) => {
    metrics.mallocTrims.inc({ released: String(released) });
    metrics.mallocTrimSeconds.inc(seconds);
  });
}

/** --ephemeral: the PKI and kubeconfig go to a new temporary directory, removed at shutdown. */
async function ephemeralOptions(opts: ApiServerOptions): Promise<{ opts: ApiServerOptions; dir?: string }> {
  if (!opts.ephemeral) return { opts };
  const dir = await mkdtemp(path.join(tmpdir(), `${program}-`));
  return { opts: { ...opts, storageBackend: 'memory', certDir: path.join(dir, 'pki'), writeKubeconfig: path.join(dir, 'admin.kubeconfig') }, dir };
}

export interface StartDeps {
  /** Log destination; default buffered stdout (the test server keeps its log in memory). */
  logDestination?: pino.DestinationStream;
  /**
   * malloc_trim after full GCs (cmd/freedMemory.ts): only when the process is the apiserver's
   * own (main), not in the test server's worker thread, whose process belongs to the tests.
   */
  trimFreedMemory?: boolean;
}

export async function start(given: ApiServerOptions, deps: StartDeps = {}): Promise<RunningApiServer> {
  const { opts, dir: ephemeralDir } = await ephemeralOptions(given);
  // Stdout in batches: a write per request line would cost more than the request.
  const stdout = deps.logDestination ? undefined : new LogDestination({ name: program });
  const log = pino({ name: program, level: opts.verbosity >= 4 ? 'debug' : 'info' }, deps.logDestination ?? stdout);
  for (const w of opts.features.warnings) log.warn(w);

  // TLS material: given files, or a PKI generated once under --cert-dir.
  let tlsCertFile = opts.tlsCertFile;
  let tlsKeyFile = opts.tlsPrivateKeyFile;
  let clientCAFile = opts.clientCAFile;
  let generated: Awaited<ReturnType<typeof ensureCertDir>> | undefined;
  if (!tlsCertFile) {
    generated = await ensureCertDir(opts.certDir);
    tlsCertFile = generated.tlsCertFile;
    tlsKeyFile = generated.tlsKeyFile;
    clientCAFile ||= generated.caCertFile;
  }
  const tls = await loadTLSFiles({ clientCAFile: clientCAFile || undefined, tlsCertFile, tlsKeyFile });
  if (opts.writeKubeconfig && !generated) throw new Error('--write-kubeconfig needs the PKI generated in --cert-dir (no --tls-cert-file)');

  const etcdTls = await loadEtcdTls(opts);
  let stores: GenericStore[] = [];
  const metrics = new ApiServerMetrics({ storageObjectCounts: () => storedObjectCounts(stores)() });
  const stopTrimming = deps.trimFreedMemory ? startTrimming(metrics, log) : (): void => undefined;
  // Whether the post-start hooks have finished: before, an etcd outage also holds up readiness.
  const startup = { hooksFinished: false };
  const etcd =
    opts.storageBackend === 'memory'
      ? undefined
      : new Etcd3Storage({
          endpoints: opts.etcdServers,
          tls: etcdTls,
          observe: (op, key, s) => metrics.observeEtcd(op, key, s),
          // As upstream's client: a call waits for etcd as long as the request may take
          // (--request-timeout), and the client gets the timeout filter's 504. The second more
          // lets the request's own deadline answer first (a call is not cancelled with it).
          requestTimeoutMs: opts.requestTimeoutMs + etcdCallGraceMs,
          onAvailability: (e) => logAvailability(log, e, startup.hooksFinished),
        });
  const storage: Storage & CompactionStore = etcd ?? new MemoryStorage();
  const compactor = startCompactor(storage, {
    intervalMs: opts.etcdCompactionIntervalMs,
    onCompacted: (revision) => log.info({ revision }, 'compacted etcd history'),
    onError: (err) => log.warn({ err: err.message }, 'compaction round failed'),
  });

  const progressRequestsOrdered = opts.storageBackend === 'memory' || (await etcdOrdersProgress(opts.etcdServers[0], log, etcdTls));
  // One budget for every watch's unsent bytes: the HTTP streams and the caches' direct etcd watchers.
  const watchBudget = new WatchBudget({ limitBytes: opts.maxWatchUnsentBytes });
  stores = createStores(storage, builtinStrategies, opts.etcdPrefix, {
    cacheOptions: { progressRequestsOrdered, watchBudget },
    watchCache: opts.watchCache,
    cacheMetrics: (r): WatchCacheMetrics => ({
      onEventsReceived: (n) => metrics.watchCacheEventsReceived.inc(r, n),
      onRevision: (rev) => metrics.watchCacheResourceVersion.set(r, rev),
      onConsistentRead: (success, fallback) => metrics.watchCacheConsistentReads.inc({ ...r, success: String(success), fallback: String(fallback) }),
    }),
  });
  const namespaces = stores.find((s) => s.resource.resource === 'namespaces');
  // Nothing is written before the stored naming profile is known to match this server's.
  const namingVerified = ensureStoredNaming(storage, opts.etcdPrefix);
  namingVerified.catch(() => undefined); // the hook reports it
  // The authorizer reads the RBAC index; the index is fed once admission exists for RBAC's own writes.
  const rbacIndex = new PolicyIndex();
  const security = await buildSecurity(opts, stores, rbacIndex, log);
  const admissionPlugins = startAdmission(stores, {
    authorizer: security.authorizer,
    ruleResolver: security.escalationResolver,
    observePolicyCheck: (c) => {
      const labels = { policy: c.policy, policy_binding: c.binding, error_type: c.errorType, enforcement_action: c.enforcementAction };
      metrics.policyChecks.inc(labels);
      metrics.policyCheckDuration.observe(labels, c.seconds);
    },
    onPolicyStatusError: (name, err) => log.warn({ policy: name, err: err.message }, 'validatingadmissionpolicy-status: status update failed, retrying'),
  });
  const writes = { admission: admissionPlugins.admission };
  const rbacPolicy = startRbacPolicy(stores, rbacIndex, writes, log);
  const audit = await startAudit(opts, metrics, log);
  logUnserved(opts, security.endpoints.filter((e) => !e.subresource).map((e) => e.resource), log);

  const lifecycle = new ServerLifecycle(
    { shutdownDelayMs: opts.shutdown.delayMs, sendRetryAfter: opts.shutdown.sendRetryAfter, watchTerminationGraceMs: opts.shutdown.watchTerminationGraceMs },
    log,
  );
  const server = createApiServer({
    lifecycle,
    livezGracePeriodMs: opts.livezGracePeriodMs,
    stores,
    metrics,
    authenticator: security.authenticator,
    authorizer: security.authorizer,
    admission: admissionPlugins.admission,
    createOnly: security.endpoints,
    requestTimeoutMs: opts.requestTimeoutMs,
    audit,
    resourceConfig: opts.runtimeConfig,
    anonymousEnabled: opts.anonymousAuth,
    features: opts.features,
    log,
    maxRequestBodyBytes: opts.maxRequestBytes,
    watchBudget,
    serverAddress: `${opts.bindAddress === '0.0.0.0' ? '127.0.0.1' : opts.bindAddress}:${opts.securePort}`,
    storageHealth: () => (etcd ? checkEtcdHealth(etcd) : null),
    storageCondition: () => etcd?.availability.describe(),
    postStartHooks: [
      { name: 'storage/api-naming', run: () => namingVerified },
      ...(namespaces
        ? [
            {
              name: 'start-system-namespaces-controller',
              run: async () => {
                await namingVerified;
                await ensureSystemNamespaces(namespaces, writes);
              },
            },
          ]
        : []),
      // Upstream's hook name: /readyz fails until the policy is loaded and the bootstrap roles exist.
      {
        name: 'rbac/bootstrap-roles',
        run: async () => {
          await namingVerified;
          await rbacPolicy.synced;
          await rbacPolicy.reconcileBootstrap();
        },
      },
    ],
  });
  const cachesStarted = startCaches(stores).catch((err: Error) => log.error({ err: err.message }, 'watch cache failed to start'));

  // One TLS port, ALPN h2 and http/1.1 (upstream's NextProtos); HTTP/1.1 connections get Node's
  // HTTP/1 parser, HTTP/2 sessions upstream's limits, both the TLS handshake bound (secureServing.ts).
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

  // The kubeconfigs are written as soon as the server listens, before the post-start hooks: with
  // etcd unreachable those wait, and a kubeconfig that is not there sends kubectl to localhost:8080.
  const kubeconfigServer = opts.writeKubeconfig && generated ? await writeKubeconfigs(opts, generated, address, log) : undefined;
  const hookNames = server.hookNames();
  const hooksStarted = Date.now();
  if (hookNames.length) log.info({ hooks: hookNames }, `waiting for the post-start hooks (${hookNames.join(', ')}; they read and write etcd): /readyz fails until they finish`);
  const started = (async (): Promise<void> => {
    await server.startHooks();
    startup.hooksFinished = true;
    log.info({ ms: Date.now() - hooksStarted }, 'post-start hooks finished: ready');
    if (ephemeralDir && kubeconfigServer && opts.writeKubeconfig) {
      process.stderr.write(`ephemeral ${program} ready at ${kubeconfigServer}; KUBECONFIG=${path.resolve(opts.writeKubeconfig)}\n`);
    }
  })();
  started.catch(() => undefined); // main() reports it; shutdown may cut it short

  let stopping: Promise<void> | undefined;
  const shutdown = (): Promise<void> =>
    (stopping ??= (async () => {
      log.info('shutting down');
      let serverStopped = false;
      const stopped = new Promise<void>((resolve) => httpsServer.once('close', () => {
        serverStopped = true;
        resolve();
      }));
      await lifecycle.shutdown({
        // Also sends every HTTP/2 session a GOAWAY: open streams finish, new ones go elsewhere.
        stopListening: () => httpsServer.close(),
        afterDrained: async () => {
          await audit?.close();
        },
        closeConnections: async () => {
          // Connections that turn idle (an ended watch, a finished probe) close as they do;
          // whatever is still open after the last grace is cut.
          const deadline = Date.now() + finalConnectionGraceMs;
          while (!serverStopped && Date.now() < deadline) {
            http.Server.prototype.closeIdleConnections.call(httpsServer);
            await Promise.race([stopped, new Promise((r) => setTimeout(r, 50))]);
          }
          http.Server.prototype.closeAllConnections.call(httpsServer);
          for (const session of sessions) session.destroy();
          await stopped;
        },
      });
      // Storage closes only once no request can touch it any more.
      compactor.stop();
      stopTrimming();
      await server.close();
      rbacPolicy.stop();
      admissionPlugins.stop();
      // Closing fails a start still waiting for etcd, so shutdown never waits on an unreachable etcd.
      await closeCaches(stores);
      await cachesStarted;
      await storage.close();
      if (ephemeralDir) await rm(ephemeralDir, { recursive: true, force: true });
      stdout?.close();
    })());
  return { server, address, started, shutdown };
}

/** Writes the admin kubeconfig and the controller manager's beside it; returns the server URL in them. */
async function writeKubeconfigs(opts: ApiServerOptions, generated: Awaited<ReturnType<typeof ensureCertDir>>, address: AddressInfo, log: pino.Logger): Promise<string> {
  const host = opts.bindAddress === '0.0.0.0' || opts.bindAddress === '::' ? '127.0.0.1' : opts.bindAddress;
  const serverUrl = `https://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  await writeKubeconfig(opts.writeKubeconfig, {
    server: serverUrl,
    caFile: generated.caCertFile,
    clientCertFile: generated.adminCertFile,
    clientKeyFile: generated.adminKeyFile,
    user: 'admin',
  });
  log.info({ path: path.resolve(opts.writeKubeconfig) }, 'wrote admin kubeconfig');
  // The controller manager's credentials, next to the admin's (make run points it here).
  const controllerManagerKubeconfig = path.join(path.dirname(opts.writeKubeconfig), 'controller-manager.kubeconfig');
  await writeKubeconfig(controllerManagerKubeconfig, {
    server: serverUrl,
    caFile: generated.caCertFile,
    clientCertFile: generated.controllerManagerCertFile,
    clientKeyFile: generated.controllerManagerKeyFile,
    user: controllerManagerUserName,
  });
  log.info({ path: path.resolve(controllerManagerKubeconfig) }, 'wrote controller-manager kubeconfig');
  return serverUrl;
}

/**
 * An etcd outage is logged once when it begins (warn: which endpoints, since when, each one's
 * error, and what the server waits for) and once when it ends (how long it lasted).
 */
function logAvailability(log: pino.Logger, e: AvailabilityEvent, hooksFinished: boolean): void {
  if (e.kind === 'unreachable') {
    const consequence = hooksFinished
      ? 'requests that need etcd wait for it until their deadline, then answer 504'
      : 'the server is not ready until etcd answers (the post-start hooks wait for it)';
    log.warn({ endpoints: e.outage.endpoints, since: new Date(e.outage.since).toISOString() }, `${describeOutage(e.outage, Date.now())}; ${consequence}`);
    return;
  }
  log.info({ endpoint: e.endpoint, since: new Date(e.since).toISOString(), downMs: e.downMs }, `etcd reachable again at ${e.endpoint} after ${(e.downMs / 1000).toFixed(1)} s`);
}
