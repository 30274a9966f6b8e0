// start()'s lifecycle step: the post-start hooks that gate readiness, the kubeconfigs written as
// soon as the server listens, and graceful shutdown (lib/apiserver/lifecycle: readyz fails,
// delay, refuse new requests, drain, close connections), storage last.
import { rm } from 'node:fs/promises';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type pino from 'pino';
import { controllerManagerUserName, processNames } from '../../../lib/api';
import type { ResourceRegistry } from '../../../lib/apiserver/resourceRegistry';
import type { ApiServer, PostStartHook } from '../../../lib/apiserver/server';
import { ensureSystemNamespaces } from '../../../lib/registry/systemNamespaces';
import { writeKubeconfig } from '../../../lib/signing';
import type { LogDestination } from '../../logDestination';
import type { ApiServerOptions } from '../options';
import type { GeneratedPki, SecurityStep, ServingCertificates } from './security';
import type { ServingStep } from './serving';
import type { StartupState, StorageStep } from './storage';

const program = processNames.apiserver;

/** After the drain, how long connections still open may take to close (upstream: 2 s with send-retry-after). */
const finalConnectionGraceMs = 2000;

export interface RunningApiServer {
  server: ApiServer;
  /** The resources served: install() and remove() change them while the server runs (custom resources, tests). */
  resources: ResourceRegistry;
  address: AddressInfo;
  /** Post-start hooks finished (the kubeconfigs are written before start() returns). */
  started: Promise<void>;
  shutdown(): Promise<void>;
}

/** What /readyz waits for: the stored naming checked, the system namespaces, the bootstrap RBAC policy. */
export function readinessHooks(storage: StorageStep, security: SecurityStep): PostStartHook[] {
  const { namingVerified } = storage;
  const namespaces = storage.resources.stores.find((s) => s.resource.resource === 'namespaces');
  return [
    { name: 'storage/api-naming', run: () => namingVerified },
    ...(namespaces
      ? [
          {
            name: 'start-system-namespaces-controller',
            run: async () => {
              await namingVerified;
              await ensureSystemNamespaces(namespaces, security.writes);
            },
          },
        ]
      : []),
    // Upstream's hook name: ready once every CRD stored is served (names, Established, installed).
    {
      name: 'start-apiextensions-controllers',
      run: async () => {
        await namingVerified;
        await storage.customResources.start();
      },
    },
    // Upstream's hook name: /readyz fails until the policy is loaded and the bootstrap roles exist.
    {
      name: 'rbac/bootstrap-roles',
      run: async () => {
        await namingVerified;
        await security.rbacPolicy.synced;
        await security.rbacPolicy.reconcileBootstrap();
      },
    },
  ];
}

export interface LifecycleParts {
  certs: ServingCertificates;
  storage: StorageStep;
  security: SecurityStep;
  serving: ServingStep;
  startup: StartupState;
  /** --ephemeral's temporary directory, removed at shutdown. */
  ephemeralDir?: string;
  /** Stops what start() began before the steps (malloc_trim). */
  stopTrimming(): void;
  /** The batched stdout log, flushed last. */
  stdout?: LogDestination;
  log: pino.Logger;
}

export async function runLifecycle(opts: ApiServerOptions, parts: LifecycleParts): Promise<RunningApiServer> {
  const { serving, log } = parts;
  const { server, address } = serving;
  // The kubeconfigs are written as soon as the server listens, before the post-start hooks: with
  // etcd unreachable those wait, and a kubeconfig that is not there sends kubectl to localhost:8080.
  const { generated } = parts.certs;
  const kubeconfigServer = opts.writeKubeconfig && generated ? await writeKubeconfigs(opts, generated, address, log) : undefined;
  const hookNames = server.hookNames();
  const hooksStarted = Date.now();
  if (hookNames.length) log.info({ hooks: hookNames }, `waiting for the post-start hooks (${hookNames.join(', ')}; they read and write etcd): /readyz fails until they finish`);
  const started = (async (): Promise<void> => {
    await server.startHooks();
    parts.startup.hooksFinished = true;
    log.info({ ms: Date.now() - hooksStarted }, 'post-start hooks finished: ready');
    if (parts.ephemeralDir && kubeconfigServer && opts.writeKubeconfig) {
      process.stderr.write(`ephemeral ${program} ready at ${kubeconfigServer}; KUBECONFIG=${path.resolve(opts.writeKubeconfig)}\n`);
    }
  })();
  started.catch(() => undefined); // main() reports it; shutdown may cut it short

  let stopping: Promise<void> | undefined;
  const shutdown = (): Promise<void> => (stopping ??= shutDown(parts));
  return { server, resources: parts.storage.resources, address, started, shutdown };
}

async function shutDown(parts: LifecycleParts): Promise<void> {
  const { httpsServer, sessions, lifecycle, audit, server } = parts.serving;
  parts.log.info('shutting down');
  let serverStopped = false;
  const stopped = new Promise<void>((resolve) =>
    httpsServer.once('close', () => {
      serverStopped = true;
      resolve();
    }),
  );
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
  parts.stopTrimming();
  await server.close();
  parts.security.stop();
  await parts.storage.close();
  if (parts.ephemeralDir) await rm(parts.ephemeralDir, { recursive: true, force: true });
  parts.stdout?.close();
}

/** Writes the admin kubeconfig and the controller manager's beside it; returns the server URL in them. */
async function writeKubeconfigs(opts: ApiServerOptions, generated: GeneratedPki, address: AddressInfo, log: pino.Logger): Promise<string> {
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
