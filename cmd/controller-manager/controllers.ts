// The registration table: how each controller named by --controllers is built from the shared
// pieces (client, shared informers, logger, metrics, the signing CA), and how the enabled ones
// run together (upstream's NewControllerDescriptors + StartControllers).
import type pino from 'pino';
import type { CertificateSigningRequest, Namespace, ServiceAccount } from '../../lib/api';
import { certificatesigningrequests, namespaces, serviceaccounts } from '../../lib/api';
import type { Clock, ResourceDescriptor, RestClient } from '../../lib/client';
import type { Controller, ControllerLog } from '../../lib/controllers/controller';
import { errorMessage } from '../../lib/controllers/controller';
import { newCsrController } from '../../lib/controllers/csr';
import { NamespaceController } from '../../lib/controllers/namespaces';
import { ServiceAccountsController } from '../../lib/controllers/serviceaccounts';
import type { CsrSigner } from '../../lib/signing/signer';
import { resourceKey } from './availableResources';
import type { SharedInformers } from './informers';
import type { ControllerManagerMetrics } from './metrics';
import type { ControllerManagerOptions, ControllerName } from './options';

export interface ControllerContext {
  client: RestClient;
  informers: Pick<SharedInformers, 'for' | 'start'>;
  options: ControllerManagerOptions;
  metrics: ControllerManagerMetrics;
  /** Present when signing CA files were given; without one csrsigning does not start (as upstream). */
  signer?: CsrSigner;
  clock?: Clock;
  logFor(controller: string): ControllerLog;
  /** Resources the apiserver serves (resourceKey); absent = assume every one. */
  availableResources?: ReadonlySet<string>;
}

/** Builds a controller, or returns a reason it is skipped. Throws when it cannot be built. */
export type ControllerInitializer = (ctx: ControllerContext) => Controller | { skipped: string };

const csrInformer = (ctx: ControllerContext) => ctx.informers.for<CertificateSigningRequest>(certificatesigningrequests);

export const controllerInitializers: Readonly<Record<ControllerName, ControllerInitializer>> = {
  csrsigning: (ctx) => {
    if (!ctx.signer) return { skipped: 'Skipping CSR signer controller because no csr cert/key was specified' };
    return newCsrController('csrsigning', {
      client: ctx.client,
      informer: csrInformer(ctx),
      clock: ctx.clock,
      log: ctx.logFor('csrsigning'),
      signer: ctx.signer,
      metrics: ctx.metrics.csrSigning,
      queueMetrics: ctx.metrics.workqueue,
    });
  },
  csrapproving: (ctx) =>
    newCsrController('csrapproving', { client: ctx.client, informer: csrInformer(ctx), clock: ctx.clock, log: ctx.logFor('csrapproving'), queueMetrics: ctx.metrics.workqueue }),
  csrcleaner: (ctx) => newCsrController('csrcleaner', { client: ctx.client, informer: csrInformer(ctx), clock: ctx.clock, log: ctx.logFor('csrcleaner'), ...ctx.options.csrCleaner }),
  serviceaccount: (ctx) =>
    new ServiceAccountsController({
      client: ctx.client,
      namespaces: ctx.informers.for<Namespace>(namespaces),
      serviceAccounts: ctx.informers.for<ServiceAccount>(serviceaccounts),
      clock: ctx.clock,
      log: ctx.logFor('serviceaccount'),
      queueMetrics: ctx.metrics.workqueue,
    }),
  namespace: (ctx) =>
    new NamespaceController({
      client: ctx.client,
      namespaces: ctx.informers.for<Namespace>(namespaces),
      workers: ctx.options.concurrentNamespaceSyncs,
      resyncPeriodMs: ctx.options.namespaceSyncPeriodMs,
      clock: ctx.clock,
      log: ctx.logFor('namespace'),
      queueMetrics: ctx.metrics.workqueue,
    }),
};

/** What each controller reads and writes: without all of them served, it is skipped (upstream's AvailableResources checks). */
export const controllerResources: Readonly<Record<ControllerName, readonly ResourceDescriptor[]>> = {
  csrsigning: [certificatesigningrequests],
  csrapproving: [certificatesigningrequests],
  csrcleaner: [certificatesigningrequests],
  serviceaccount: [namespaces, serviceaccounts],
  namespace: [namespaces],
};

/**
 * A pino logger seen through the controllers' logging interface, every line tagged with the
 * controller. Fields are merged (not child bindings) so a controller's own `controller` field
 * does not repeat the key, and a `name` field cannot shadow pino's process name.
 */
export function controllerLog(log: pino.Logger, controller: string): ControllerLog {
  const merged = (fields: Record<string, unknown> | undefined): Record<string, unknown> => {
    const out: Record<string, unknown> = { controller, ...fields };
    if ('name' in out) {
      if (out.name !== controller) out.objectName = out.name;
      delete out.name;
    }
    return out;
  };
  return {
    debug: (msg, fields) => log.debug(merged(fields), msg),
    info: (msg, fields) => log.info(merged(fields), msg),
    error: (msg, fields) => log.error(merged(fields), msg),
  };
}

export interface RunControllersOptions {
  log: pino.Logger;
  /** Told of each controller once built (e.g. to add its /healthz check). */
  onStarted?: (name: ControllerName) => void;
  table?: Readonly<Record<ControllerName, ControllerInitializer>>;
  requires?: Readonly<Record<ControllerName, readonly ResourceDescriptor[]>>;
}

export async function runControllers(ctx: ControllerContext, names: readonly ControllerName[], signal: AbortSignal, opts: RunControllersOptions): Promise<void> {
  const { log } = opts;
  const table = opts.table ?? controllerInitializers;
  const requires = opts.requires ?? controllerResources;
  const controllers: Controller[] = [];
  for (const name of names) {
    const available = ctx.availableResources;
    const missing = available ? requires[name].filter((r) => !available.has(resourceKey(r))).map(resourceKey) : [];
    if (missing.length) {
      log.info({ controller: name, notServed: missing }, 'Warning: skipping controller');
      continue;
    }
    let built: Controller | { skipped: string };
    try {
      built = table[name](ctx);
    } catch (e) {
      throw new Error(`error starting controller ${JSON.stringify(name)}: ${errorMessage(e)}`);
    }
    if ('skipped' in built) {
      log.info({ controller: name }, built.skipped);
      continue;
    }
    log.info({ controller: name }, 'Started controller');
    controllers.push(built);
    opts.onStarted?.(name);
  }
  ctx.informers.start();
  await Promise.all(
    controllers.map((c) =>
      c.run(signal).catch((e: unknown) => {
        log.error({ controller: c.name, err: errorMessage(e) }, 'controller stopped with an error');
      }),
    ),
  );
}
