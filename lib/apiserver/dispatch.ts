// The one dispatch middleware: authenticate, classify, route to a handler, and write every error
// as a Status. Logs one line per request (verb, resource, user, code, latency) and records metrics.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { FeatureGates } from '../api/featureGates';
import type { Authenticator } from '../auth';
import { errors, toApiError, ApiError } from '../machinery/errors';
import { goQuote } from '../machinery/fieldErrors';
import { validatePathSegmentName } from '../machinery/validation/names';
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
import type { ResourceTable, ServedResource } from './resourceTable';
import { isPrettyRequested, OutputFormat, writeError } from './respond';
import { authorize } from './filters/authorization';
import type { NonResourceHandler } from './nonResource';

export interface DispatchConfig {
  resources: ResourceTable;
  authenticator: Authenticator;
  anonymousEnabled: boolean;
  nonResource: NonResourceHandler;
  metrics: ApiServerMetrics;
  features: FeatureGates;
  log: Logger;
  maxRequestBodyBytes: number;
  now?: () => Date;
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

export function createDispatcher(cfg: DispatchConfig): (req: IncomingMessage, res: ServerResponse) => void {
  const now = cfg.now ?? ((): Date => new Date());
  return (req, res) => {
    void dispatch(cfg, now, req, res);
  };
}

async function dispatch(cfg: DispatchConfig, now: () => Date, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = process.hrtime.bigint();
  // The raw path, not WHATWG URL parsing: that would resolve encoded dot segments (%2E%2E).
  const rawUrl = req.url ?? '/';
  const q = rawUrl.indexOf('?');
  const query = new URLSearchParams(q >= 0 ? rawUrl.slice(q + 1) : '');
  const info = parseRequestInfo(req.method ?? 'GET', q >= 0 ? rawUrl.slice(0, q) : rawUrl, query);
  let output: OutputFormat | null = { mediaType: 'application/json', pretty: isPrettyRequested(req, query) };
  let user: UserInfo = anonymousUser;
  let dryRun = false;
  let isApply = false;
  let served: ServedResource | undefined;
  let code = 0;
  res.on('finish', () => {
    code = res.statusCode;
  });
  try {
    const authed = await cfg.authenticator.authenticate(req);
    if (authed) user = authed;
    else if (!cfg.anonymousEnabled) throw errors.unauthorized();

    if (!info.isResourceRequest) {
      authorize(user, info);
      await cfg.nonResource(req, res, info, query, user);
      return;
    }
    served = cfg.resources.lookup(info.group, info.version, info.resource);
    if (!served) throw errors.routeNotFound();
    output = chooseOutput(req.headers.accept, isPrettyRequested(req, query));
    validateRoute(served, info);
    validateNameParameter(info);
    authorize(user, info);
    const handler = handlers[info.verb];
    if (!handler) throw errors.methodNotSupported({ group: info.group, resource: info.resource }, info.verb);
    let body: Buffer | undefined;
    const h: HandlerContext = {
      req,
      res,
      info,
      query,
      served,
      user,
      output,
      features: cfg.features,
      metrics: cfg.metrics,
      log: cfg.log,
      warnings: [],
      dryRun: false,
      isApply: false,
      now,
      readBody: async () => (body ??= await readBody(req, cfg.maxRequestBodyBytes)),
      requestContext: (dr: boolean): RequestContext => ({
        user,
        namespace: info.namespace,
        subresource: info.subresource,
        dryRun: dr,
        now,
      }),
    };
    await handler(h);
    dryRun = h.dryRun;
    isApply = h.isApply;
  } catch (e) {
    const err = toApiError(e);
    if (err.code >= 500 && !(e instanceof ApiError)) cfg.log.error({ err: e }, 'internal error');
    writeError(req, res, err, output, { compression: false });
  } finally {
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
    cfg.log.info(
      {
        verb: info.verb,
        resource: info.resource || undefined,
        subresource: info.subresource || undefined,
        namespace: info.namespace || undefined,
        name: info.name || undefined,
        path: info.isResourceRequest ? undefined : info.path,
        user: user.name,
        code: status,
        latencyMs: Math.round(seconds * 1e6) / 1e3,
        dryRun: dryRun || undefined,
      },
      'request',
    );
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

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? -1);
  if (declared > limit) throw errors.requestEntityTooLarge(`limit is ${limit}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > limit) throw errors.requestEntityTooLarge(`limit is ${limit}`);
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}
