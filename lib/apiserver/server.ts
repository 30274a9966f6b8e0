// Assembles the HTTP side: express with one dispatch middleware over our route table
// (DESIGN.md §2b), discovery, OpenAPI, health and metrics. Knows stores, never etcd.
import type { ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';
import express from 'express';
import type { Logger } from 'pino';
import type { FeatureGates } from '../api/featureGates';
import type { Authenticator } from '../auth';
import type { Authorizer } from '../auth/authorizer';
import type { AuditEvent, Policy } from '../audit';
import type { CreateOnlyEndpoint } from '../registry/createOnly';
import type { GenericStore, ValidatingAdmission } from '../registry/store';
import { createDiscovery, versionInfo } from './discovery';
import { createDispatcher } from './dispatch';
import { expressHttp1Classes, type Http1Classes } from './expressPrototypes';
import { asDispatchPair, isHttp2Request, type AnyRequest, type AnyResponse } from './protocol';
import { HealthRegistry, registerDefaultChecks, DefaultChecks, HealthCheckFn } from './health';
import type { ServerLifecycle } from './lifecycle';
import { ApiServerMetrics } from './metrics';
import { nonResourceHandler } from './nonResource';
import { createOpenAPIHandler } from './openapi';
import { defaultResourceConfig, isServed, type ResourceConfig } from './resourceConfig';
import { ResourceRegistry } from './resourceRegistry';
import { ResourceTable } from './resourceTable';
import { WatchBudget } from '../machinery/watchBudget';

export interface PostStartHook {
  name: string;
  run(): Promise<void>;
}

export interface ApiServerConfig {
  /** The resources served, changing at run time; or, for tests, a fixed set of stores. */
  resources: ResourceRegistry | readonly GenericStore[];
  authenticator: Authenticator;
  authorizer: Authorizer;
  /** Validating admission, passed with each write a request makes (the store has none of its own). */
  admission?: ValidatingAdmission;
  anonymousEnabled: boolean;
  /** Virtual resources and create-only subresources (reviews, serviceaccounts/token). */
  createOnly?: readonly CreateOnlyEndpoint[];
  /** --request-timeout (ms), for every request but watches. */
  requestTimeoutMs: number;
  /** Audit policy and event sink; absent = no auditing. */
  audit?: { policy: Policy; write(ev: AuditEvent): void };
  features: FeatureGates;
  log: Logger;
  maxRequestBodyBytes: number;
  /** host:port for /api's serverAddressByClientCIDRs. */
  serverAddress: string;
  /** Storage reachability for the etcd health checks: null/undefined = ok, else a reason. */
  storageHealth: HealthCheckFn;
  /** What is wrong with storage now (an etcd outage), if anything: named in timed-out requests' log lines. */
  storageCondition?: () => string | undefined;
  postStartHooks?: readonly PostStartHook[];
  /** Served group/versions and resources (--runtime-config); absent = the defaults over every resource. */
  resourceConfig?: ResourceConfig;
  /** Metrics shared with the storage layer's hooks; created here when absent. */
  metrics?: ApiServerMetrics;
  /** Graceful shutdown: readyz fails at ShutdownInitiated, requests are refused and counted. */
  lifecycle?: ServerLifecycle;
  /** --livez-grace-period (ms): post-start hooks pass /livez this long after the server is built. */
  livezGracePeriodMs?: number;
  /** --max-watch-unsent-bytes: the bound on all watches' unsent bytes; created with the defaults when absent. */
  watchBudget?: WatchBudget;
}

export interface ApiServer {
  /** The request listener for an http(s) or http2 (allowHTTP1) server: both protocols, one dispatch. */
  handler: (req: AnyRequest, res: AnyResponse) => void;
  /**
   * The HTTP/1.1 request and response classes to serve with (http2's Http1IncomingMessage and
   * Http1ServerResponse): express then has no prototypes to change per request.
   */
  http1: Http1Classes;
  metrics: ApiServerMetrics;
  /** Runs post-start hooks; their health checks pass once each finishes. */
  startHooks(onFinished?: (name: string) => void): Promise<void>;
  /** The post-start hooks' names, in registration order. */
  hookNames(): string[];
  close(): Promise<void>;
}

/** apiserver_storage_objects: etcd's count of keys per resource installed now (a limit-1 range). */
export function storedObjectCounts(registry: Pick<ResourceRegistry, 'stores'>): () => Promise<Record<string, number>> {
  return async () => {
    const out: Record<string, number> = {};
    for (const s of registry.stores) {
      // From the watch cache when there is one (Any: no etcd range per scrape).
      const r = s.cache ? await s.cache.listFromCache(s.keys.root, { limit: 1 }) : await s.storage.list(s.keys.root, { limit: 1 });
      out[s.resource.group ? `${s.resource.resource}.${s.resource.group}` : s.resource.resource] = r.count;
    }
    return out;
  };
}

export function createApiServer(cfg: ApiServerConfig): ApiServer {
  const registry = cfg.resources instanceof ResourceRegistry ? cfg.resources : ResourceRegistry.over(cfg.resources);
  const createOnly = cfg.createOnly ?? [];
  const resourceConfig = cfg.resourceConfig ?? defaultResourceConfig([...registry.stores.map((s) => s.resource), ...createOnly.map((e) => e.resource)]);
  // Stores of unserved resources keep running for the server's own use (RBAC policy, bootstrap).
  const table = new ResourceTable(registry, createOnly, (info) => isServed(resourceConfig, info));
  const metrics = cfg.metrics ?? new ApiServerMetrics({ storageObjectCounts: storedObjectCounts(registry) });
  metrics.recordFeatures(cfg.features);
  const watchBudget = cfg.watchBudget ?? new WatchBudget();
  metrics.trackWatchBudget(watchBudget);
  // A hung check fails instead of hanging the probe. The etcd check has upstream's
  // --etcd-healthcheck-timeout (2 s) of its own and reports what it waited on; this is the backstop.
  const health = new HealthRegistry({
    checkTimeoutMs: 3000,
    livezGracePeriodMs: cfg.livezGracePeriodMs,
    // Per probe, so at debug (upstream logs them at V(2)): the cause of an outage is logged once
    // where it is found (etcd), and a failing probe's request line names the failed checks.
    onFailure: (endpoint, name, reason) => cfg.log.debug({ endpoint, check: name, reason }, 'health check failed'),
  });
  const lifecycle = cfg.lifecycle;
  const defaults: DefaultChecks = registerDefaultChecks(health, {
    etcd: cfg.storageHealth,
    shutdownInitiated: lifecycle ? () => lifecycle.signals.shutdownInitiated.signaled : undefined,
  });
  const hooks = (cfg.postStartHooks ?? []).map((h) => ({ hook: h, check: defaults.addPostStartHook(h.name) }));

  // Both documents are built from the table, again once the resources change (install, remove).
  const openapi = rebuiltOnChange(table, () => createOpenAPIHandler(table.infos, { cbor: cfg.features.isEnabled('CBORServingAndStorage') }));
  const discovery = rebuiltOnChange(table, () => createDiscovery(table.infos, { serverAddress: cfg.serverAddress }));
  const dispatch = createDispatcher({
    resources: table,
    authenticator: cfg.authenticator,
    authorizer: cfg.authorizer,
    admission: cfg.admission,
    anonymousEnabled: cfg.anonymousEnabled,
    nonResource: nonResourceHandler({
      health,
      discovery: { serve: (req) => discovery().serve(req) },
      version: versionInfo(),
      openapi: (path, query, headers) => openapi()(path, query, headers) ?? null,
      metrics,
      // Upstream lets whoever may GET /readyz/<check> read its reason there (system:monitoring does).
      mayReadHealthCheck: (user, endpoint, check) =>
        cfg.authorizer.authorize({
          user,
          verb: 'get',
          isResourceRequest: false,
          path: `/${endpoint}/${check}`,
          namespace: '',
          apiGroup: '',
          apiVersion: '',
          resource: '',
          subresource: '',
          name: '',
        }).decision === 'allow',
    }),
    metrics,
    features: cfg.features,
    log: cfg.log,
    maxRequestBodyBytes: cfg.maxRequestBodyBytes,
    requestTimeoutMs: cfg.requestTimeoutMs,
    audit: cfg.audit,
    lifecycle,
    watchBudget,
    storageCondition: cfg.storageCondition,
  });

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use((req, res) => dispatch(req, res));
  const http1 = expressHttp1Classes(app);

  return {
    // HTTP/1.1 goes through express. HTTP/2 compat objects skip it: express re-parents req/res
    // onto http.IncomingMessage/ServerResponse prototypes, which would hide the compat getters;
    // express adds nothing dispatch uses, so both reach the same dispatch (docs/decisions.md).
    handler: (req, res) => {
      if (isHttp2Request(req)) dispatch(...asDispatchPair(req, res as Http2ServerResponse));
      else app(req, res as ServerResponse);
    },
    http1,
    metrics,
    async startHooks(onFinished?: (name: string) => void): Promise<void> {
      await Promise.all(
        hooks.map(async ({ hook, check }) => {
          await hook.run();
          check.complete();
          onFinished?.(hook.name);
        }),
      );
    },
    hookNames: () => hooks.map(({ hook }) => hook.name),
    async close(): Promise<void> {
      metrics.registry.clear();
    },
  };
}

/** The value `build` gives for the table's current resources, built again only when they change. */
function rebuiltOnChange<T>(table: ResourceTable, build: () => T): () => T {
  let built: { generation: number; value: T } | undefined;
  return () => {
    if (built?.generation !== table.generation) built = { generation: table.generation, value: build() };
    return built.value;
  };
}
