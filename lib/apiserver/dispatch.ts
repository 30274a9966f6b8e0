// The one dispatch middleware: authenticate, impersonate, classify, route to a handler, and write
// every error as a Status. Logs one line per request (verb, resource, user, code, latency) and records metrics.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { FeatureGates } from '../api/featureGates';
import type { Authenticator } from '../auth';
import type { Authorizer } from '../auth/authorizer';
import { AuditContext, auditAnnotationKeys, type AuditEvent, type Policy, type Stage } from '../audit';
import type { JsonValue } from '../machinery/jsonValue';
import type { Status } from '../api';
import { errors, toApiError, ApiError } from '../machinery/errors';
import { goQuote } from '../machinery/fieldErrors';
import { validatePathSegmentName } from '../machinery/validation/names';
import type { AdmissionOptions, ValidatingAdmission } from '../registry/store';
import type { RequestContext, UserInfo } from '../registry/strategy';
import type { HandlerContext } from './handlerContext';
import { handleCreate } from './handlers/create';
import { handleDelete } from './handlers/delete';
import { handleDeleteCollection } from './handlers/deleteCollection';
import { handleGet } from './handlers/get';
import { handleList } from './handlers/list';
import { handlePatch } from './handlers/patch';
import { handleUpdate } from './handlers/update';
import { handleWatch } from './handlers/watch';
import type { ApiServerMetrics } from './metrics';
import { metricVerb } from './metrics';
import { chooseOutput } from './negotiation';
import { parseRequestInfo, RequestInfo } from './requestInfo';
import { isStored, ResourceTable, ServedResource, type StoredResource } from './resourceTable';
import { describeCause, failureCauseOf, noteFailureCause } from './failureCause';
import { isPrettyRequested, jsonOutput, OutputFormat, writeError, writeInternalErrorText, writtenObject } from './respond';
import { authorizationAttributes, forbiddenFor } from './filters/authorization';
import { deprecationOf, recordDeprecatedRequest } from './filters/deprecation';
import { impersonate } from './filters/impersonation';
import { armRequestTimeout, requestDeadlineMs, timeoutError } from './filters/timeout';
import { handleCreateOnly } from './handlers/createOnly';
import type { RequestHandlerContext } from './handlerContext';
import type { NonResourceHandler } from './nonResource';
import { bothRegistrars, type RequestWaitGroup, type ServerLifecycle } from './lifecycle';
import { admitDuringShutdown } from './filters/shutdown';
import { managerOrUserAgent } from './fieldManagerName';
import { readBody } from './readBody';
import { closeConnectionAfter, protocolOf } from './protocol';
import { WatchBudget } from '../machinery/watchBudget';
import { requestLogLevel } from './probeLogLevel';

export interface DispatchConfig {
  resources: ResourceTable;
  /** Validating admission for every write a request makes; absent = none. */
  admission?: ValidatingAdmission;
  authenticator: Authenticator;
  authorizer: Authorizer;
  anonymousEnabled: boolean;
  nonResource: NonResourceHandler;
  metrics: ApiServerMetrics;
  features: FeatureGates;
  log: Logger;
  maxRequestBodyBytes: number;
  /** --request-timeout for everything but watches (ms). */
  requestTimeoutMs: number;
  /** Audit policy and where events go; absent = no auditing. */
  audit?: { policy: Policy; write(ev: AuditEvent): void };
  now?: () => Date;
  /** Graceful shutdown state: refuses new requests once not accepting, counts in-flight ones. */
  lifecycle?: ServerLifecycle;
  /** The bound on all watches' unsent bytes together; default a budget of its own with the defaults. */
  watchBudget?: WatchBudget;
  /**
   * What is wrong with storage now (an etcd outage), if anything: the log line of a request that
   * timed out names it as what the request was most likely waiting on.
   */
  storageCondition?: () => string | undefined;
}

type Handler = (h: HandlerContext) => Promise<void>;

const handlers: Record<string, Handler> = {
  get: handleGet,
  list: handleList,
  watch: handleWatch,
  create: handleCreate,
  update: handleUpdate,
  patch: handlePatch,
  delete: handleDelete,
  deletecollection: handleDeleteCollection,
};


const anonymousUser: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

/** The log line's user for a request that never got past authentication (401, shutdown refusals). */
export const unauthenticatedLogUser = '(unauthenticated)';

export function createDispatcher(cfg: DispatchConfig): (req: IncomingMessage, res: ServerResponse) => void {
  const resolved: ResolvedConfig = { ...cfg, watchBudget: cfg.watchBudget ?? new WatchBudget(), admissionOptions: { admission: cfg.admission } };
  const now = cfg.now ?? ((): Date => new Date());
  return (req, res) => {
    void dispatch(resolved, now, req, res);
  };
}

type ResolvedConfig = DispatchConfig & { watchBudget: WatchBudget; admissionOptions: AdmissionOptions };

async function dispatch(cfg: ResolvedConfig, now: () => Date, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = process.hrtime.bigint();
  // The raw path, not WHATWG URL parsing: that would resolve encoded dot segments (%2E%2E).
  const rawUrl = req.url ?? '/';
  const q = rawUrl.indexOf('?');
  const query = new URLSearchParams(q >= 0 ? rawUrl.slice(q + 1) : '');
  const info = parseRequestInfo(req.method ?? 'GET', q >= 0 ? rawUrl.slice(0, q) : rawUrl, query);
  // Errors before routing (401, 403, 404) are written in the type the client accepts, as
  // upstream's ErrorNegotiated does; the endpoint's own negotiation below refines it.
  const pretty = isPrettyRequested(req, query);
  // Worked out when an error needs it before the endpoint's own negotiation (below) ran.
  let output: OutputFormat | null = null;
  const outputForError = (): OutputFormat => (output ??= info.isResourceRequest ? errorOutput(cfg, req, pretty) : jsonOutput(pretty));
  let user: UserInfo = anonymousUser;
  // Set once authentication (or the anonymous fallback) succeeded; a 401 is not system:anonymous.
  let authenticated = false;
  // The authenticated user when the request runs as another one (Impersonate-* headers).
  let impersonatedBy: UserInfo | undefined;
  let dryRun = false;
  let isApply = false;
  let served: ServedResource | undefined;
  let code = 0;
  let failure: Status | undefined;
  let audit: AuditContext | undefined;
  const emit = (stage: Stage): void => {
    const ev = audit?.event(stage, now());
    if (ev) cfg.audit?.write(ev);
  };
  const startAudit = (u: UserInfo): void => {
    if (!cfg.audit) return;
    audit = AuditContext.forRequest(cfg.audit.policy, {
      attributes: { ...authorizationAttributes(u, info), group: info.group, user: u },
      requestURI: rawUrl,
      sourceIPs: sourceIPs(req),
      userAgent: String(req.headers['user-agent'] ?? ''),
      auditID: String(req.headers['audit-id'] ?? ''),
      receivedAt: receivedAt,
    });
    if (!res.headersSent) res.setHeader('Audit-Id', audit.auditID);
    emit('RequestReceived');
  };
  const receivedAt = now();
  res.on('finish', () => {
    code = res.statusCode;
  });
  let disarmTimeout = (): void => {};
  let release = (): void => {};
  let inFlight: RequestWaitGroup | undefined;
  try {
    if (cfg.lifecycle) {
      // Once the listener is closed, connections still open end after this response (Go's Shutdown).
      if (cfg.lifecycle.signals.httpServerStoppedListening.signaled) closeConnectionAfter(res);
      const admitted = admitDuringShutdown(cfg.lifecycle, req, res, q >= 0 ? rawUrl.slice(0, q) : rawUrl, info.verb === 'watch');
      if (admitted.kind === 'answered') return;
      release = admitted.release;
    }
    let authed: UserInfo | null;
    try {
      authed = await cfg.authenticator.authenticate(req);
      if (!authed && !cfg.anonymousEnabled) throw errors.unauthorized();
    } catch (e) {
      startAudit({ name: '', groups: [] });
      throw e;
    }
    if (authed) user = authed;
    authenticated = true;
    startAudit(user);

    // Impersonation: audit keeps the requestor as the event's user; everything after runs as the new one.
    const acting = impersonate(req, user, cfg.authorizer);
    if (acting.kind === 'malformed') {
      noteFailureCause(res, acting.message);
      writeInternalErrorText(res, rawUrl, acting.message);
      return;
    }
    if (acting.kind === 'impersonating') {
      impersonatedBy = user;
      user = acting.user;
      audit?.setImpersonatedUser(user);
    }

    // Authorization comes before routing, as upstream: a caller without rights learns nothing
    // about which resources exist (403, not 404).
    const attrs = authorizationAttributes(user, info);
    const decision = cfg.authorizer.authorize(attrs);
    audit?.addAnnotation(auditAnnotationKeys.authorizationDecision, decision.decision === 'allow' ? 'allow' : 'forbid');
    audit?.addAnnotation(auditAnnotationKeys.authorizationReason, decision.reason);
    if (decision.decision !== 'allow') throw forbiddenFor(attrs, decision.reason);
    if (info.verb !== 'watch') {
      const deadline = requestDeadlineMs(query, cfg.requestTimeoutMs);
      disarmTimeout = armRequestTimeout(res, deadline, () => {
        const condition = cfg.storageCondition?.();
        noteFailureCause(res, `the handler had not finished after ${deadline} ms${condition ? `; ${condition}` : ''}`);
        writeError(req, res, timeoutError(), outputForError(), { compression: false });
        // Answered: shutdown stops waiting for it, as upstream's wait group wraps the timeout
        // filter (a handler stuck on a stalled body would otherwise hold the drain forever).
        release();
      });
    }
    if (!info.isResourceRequest) {
      await cfg.nonResource(req, res, info, query, user);
      return;
    }
    served = cfg.resources.lookup(info.group, info.version, info.resource);
    if (!served) throw errors.routeNotFound();
    // A resource removed at run time lets its requests in flight finish before its cache stops;
    // one removed since the lookup is gone (its watches are ended by its own tracker instead).
    if (served.requests && info.verb !== 'watch') {
      if (!served.requests.add()) throw errors.routeNotFound();
      inFlight = served.requests;
    }
    // Every verb of a stored resource converts (Table, PartialObjectMetadata) as upstream's
    // TableConvertor-backed scopes do; create-only subresources (TokenRequest) have none.
    // chooseOutput returns a copy of its own: completed in place.
    const chosen = chooseOutput(req.headers.accept, pretty, {
      tables: isStored(served) && !(info.verb === 'create' && info.subresource !== ''),
      watch: info.verb === 'watch',
      cbor: cfg.features.isEnabled('CBORServingAndStorage'),
      // A subresource with a typed kind of its own (a custom resource's Scale) has Protobuf.
      protobufObjects: !served.info.unstructured || !!served.info.subresources.find((s) => s.name === info.subresource)?.schema,
    });
    chosen.schemas = cfg.resources.schemaForKind;
    output = chosen;
    const createOnly = info.verb === 'create' ? cfg.resources.createOnlyEndpoint(served.info, info.subresource) : undefined;
    validateRoute(served, info);
    validateNameParameter(info);
    let body: Buffer | undefined;
    // The handler's context is this object with `served` added (not a copy of it per request).
    const base: RequestHandlerContext & { served?: StoredResource } = {
      req,
      res,
      info,
      query,
      user,
      output,
      features: cfg.features,
      authorizer: cfg.authorizer,
      metrics: cfg.metrics,
      log: cfg.log,
      warnings: [],
      dryRun: false,
      isApply: false,
      now,
      audit,
      watches: info.verb === 'watch' && served.watches ? bothRegistrars(cfg.lifecycle?.watches, served.watches) : cfg.lifecycle?.watches,
      watchBudget: cfg.watchBudget,
      admission: cfg.admissionOptions,
      readBody: async () => (body ??= await readBody(req, cfg.maxRequestBodyBytes)),
      requestContext: (dr: boolean): RequestContext => ({
        user,
        namespace: info.namespace,
        subresource: info.subresource,
        dryRun: dr,
        now,
        fieldManager: managerOrUserAgent(query.get('fieldManager') ?? '', String(req.headers['user-agent'] ?? '')),
        warn: (text) => base.warnings.push(text),
        addAuditAnnotation: (key, value) => audit?.addAnnotation(key, value),
      }),
    };
    const deprecation = deprecationOf(served.info);
    if (deprecation) {
      recordDeprecatedRequest(
        deprecation,
        { group: info.group, version: info.version, resource: info.resource, subresource: info.subresource },
        { res, warnings: base.warnings, audit, metrics: cfg.metrics },
      );
    }
    if (createOnly) {
      await handleCreateOnly(base, createOnly);
      dryRun = base.dryRun;
      return;
    }
    if (info.verb === 'watch') emit('ResponseStarted');
    const handler = handlers[info.verb];
    // A create on a subresource exists only as a create-only endpoint (serviceaccounts/x/token).
    if (!handler || !isStored(served) || (info.verb === 'create' && info.subresource)) throw errors.methodNotSupported({ group: info.group, resource: info.resource }, info.verb);
    base.served = served;
    const h = base as HandlerContext;
    await handler(h);
    dryRun = h.dryRun;
    isApply = h.isApply;
  } catch (e) {
    const err = toApiError(e);
    failure = err.status;
    if (err.code >= 500 && !(e instanceof ApiError)) cfg.log.error({ err: e }, 'internal error');
    if (err.code >= 500) noteFailureCause(res, describeCause(e));
    writeError(req, res, err, outputForError(), { compression: false });
  } finally {
    disarmTimeout();
    release();
    inFlight?.done();
    if (audit) {
      audit.setResponse(code || res.statusCode, failure, failure ? undefined : (writtenObject(res) as JsonValue | undefined));
      emit('ResponseComplete');
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const status = code || res.statusCode;
    const scope = !info.isResourceRequest ? '' : info.name && info.verb !== 'list' ? 'resource' : info.namespace ? 'namespace' : 'cluster';
    cfg.metrics.observeRequest(
      {
        verb: info.isResourceRequest ? metricVerb(info.verb, isApply) : (req.method ?? 'GET'),
        dryRun,
        group: info.group,
        version: info.version,
        resource: served ? info.resource : '',
        subresource: info.subresource,
        scope,
      },
      status,
      seconds,
    );
    cfg.log[requestLogLevel(info.isResourceRequest, info.path, status)](
      {
        verb: info.verb,
        resource: info.resource || undefined,
        subresource: info.subresource || undefined,
        namespace: info.namespace || undefined,
        name: info.name || undefined,
        path: info.isResourceRequest ? undefined : info.path,
        user: authenticated ? user.name : unauthenticatedLogUser,
        impersonatedBy: impersonatedBy?.name,
        code: status,
        // Every 5xx line names its cause (handlers and filters record it with noteFailureCause).
        cause: status >= 500 ? (failureCauseOf(res) ?? 'not recorded') : undefined,
        latencyMs: Math.round(seconds * 1e6) / 1e3,
        dryRun: dryRun || undefined,
        protocol: protocolOf(req),
      },
      'request',
    );
  }
}

/** The output for errors written before the endpoint is known: JSON when nothing else fits. */
function errorOutput(cfg: DispatchConfig, req: IncomingMessage, pretty: boolean): OutputFormat {
  try {
    return { ...chooseOutput(req.headers.accept, pretty, { cbor: cfg.features.isEnabled('CBORServingAndStorage') }), schemas: cfg.resources.schemaForKind };
  } catch {
    return jsonOutput(pretty);
  }
}

/** Routes that exist but do not take this verb answer 405/404 as upstream's router does. */
function validateRoute(served: ServedResource, info: RequestInfo): void {
  const r = served.info;
  const gr = { group: r.group, resource: r.resource };
  if (info.parts.length) throw errors.routeNotFound();
  if (info.subresource) {
    const sub = r.subresources.find((s) => s.name === info.subresource);
    if (!sub) throw errors.routeNotFound();
    if (!sub.verbs.includes(info.verb)) throw errors.routeMethodNotAllowed();
    return;
  }
  if (!r.namespaced && info.namespace && info.resource !== 'namespaces') throw errors.routeNotFound();
  if (r.namespaced && !info.namespace && !['list', 'watch'].includes(info.verb)) {
    // Only list and watch exist across all namespaces.
    throw info.name ? errors.routeNotFound() : errors.routeMethodNotAllowed();
  }
  if (!r.verbs.includes(info.verb)) throw errors.methodNotSupported(gr, info.verb);
}

/** Names in the URL must be usable as a storage key (errors.md §3). */
function validateNameParameter(info: RequestInfo): void {
  for (const name of [info.name, info.namespace]) {
    if (!name) continue;
    const msgs = validatePathSegmentName(name, false);
    if (msgs.length) throw errors.badRequest(`Name parameter invalid: ${goQuote(name)}: ${msgs.join(';')}`);
  }
}

/** The client address, then any X-Forwarded-For and X-Real-Ip entries (upstream utilnet.SourceIPs). */
function sourceIPs(req: IncomingMessage): string[] {
  const out: string[] = [];
  const add = (ip: string | undefined): void => {
    const v = ip?.trim();
    if (v && !out.includes(v)) out.push(v);
  };
  for (const ip of String(req.headers['x-forwarded-for'] ?? '').split(',')) add(ip);
  add(String(req.headers['x-real-ip'] ?? ''));
  add(req.socket.remoteAddress?.replace(/^::ffff:/, ''));
  return out;
}
