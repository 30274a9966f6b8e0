// Non-resource URLs: health, /version, discovery, OpenAPI and /metrics.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors } from '../machinery/errors';
import type { UserInfo } from '../registry/strategy';
import type { Discovery } from './discovery';
import { noteFailureCause } from './failureCause';
import type { HealthEndpoint, HealthRegistry } from './health';
import type { ApiServerMetrics } from './metrics';
import { chooseOutput } from './negotiation';
import type { RequestInfo } from './requestInfo';
import { isPrettyRequested, jsonOutput, writeBody, writeObject } from './respond';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

export interface NonResourceRoutes {
  health: HealthRegistry;
  discovery: Discovery;
  version: unknown;
  /** OpenAPI documents: a response, or null when the path is not an OpenAPI path. */
  openapi(path: string, query: URLSearchParams, headers: IncomingMessage['headers']): RawResponse | null;
  metrics: ApiServerMetrics;
  /** May the user read `/<endpoint>/<check>`? Such a caller sees failing checks' reasons in `?verbose` listings too. */
  mayReadHealthCheck?: (user: UserInfo, endpoint: HealthEndpoint, check: string) => boolean;
}

export type NonResourceHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  info: RequestInfo,
  query: URLSearchParams,
  user: UserInfo,
) => Promise<void>;

const healthRe = /^\/(livez|readyz|healthz)(?:\/(.*))?$/;

function writeRaw(req: IncomingMessage, res: ServerResponse, r: RawResponse): void {
  const body = typeof r.body === 'string' ? Buffer.from(r.body) : r.body;
  const { 'Content-Type': ct, ...rest } = r.headers;
  if (r.status === 304) {
    // No Content-Type or Content-Length: HTTP caches (kubectl's) merge a 304's headers into the
    // stored response, and a plain application/json would turn cached aggregated discovery into
    // a document client-go reads as the legacy format (upstream's 304s carry neither).
    res.writeHead(304, rest);
    res.end();
    return;
  }
  writeBody(req, res, r.status, body, ct ?? 'application/json', { compression: false }, rest);
}

export function nonResourceHandler(routes: NonResourceRoutes): NonResourceHandler {
  return async (req, res, info, query, user) => {
    const path = info.path.length > 1 ? info.path.replace(/\/+$/, '') : info.path;
    const method = (req.method ?? 'GET').toUpperCase();
    const pretty = isPrettyRequested(req, query);

    const h = healthRe.exec(path);
    if (h) {
      if (method !== 'GET' && method !== 'HEAD') throw errors.routeMethodNotAllowed();
      const mayRead = routes.mayReadHealthCheck;
      const r = await routes.health.handleHealth(h[1] as HealthEndpoint, h[2] ?? '', query, mayRead ? (endpoint, name) => mayRead(user, endpoint, name) : undefined);
      if (r.status === 404) throw errors.routeNotFound();
      if (r.failed?.length) noteFailureCause(res, `${h[1]} check failed: ${r.failed.map((f) => `${f.name}: ${f.reason}`).join('; ')}`);
      writeRaw(req, res, { status: r.status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', ...r.headers }, body: r.body });
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') throw errors.routeMethodNotAllowed();
    if (path === '/version') {
      writeObject(req, res, 200, routes.version, jsonOutput(true), { compression: false });
      return;
    }
    if (path === '/metrics') {
      const text = await routes.metrics.registry.metrics();
      writeBody(req, res, 200, Buffer.from(text), routes.metrics.registry.contentType, { compression: false });
      return;
    }
    if (path === '/openapi/v2' || path.startsWith('/openapi/v3')) {
      const r = routes.openapi(path, query, req.headers);
      if (!r) throw errors.routeNotFound();
      writeRaw(req, res, r);
      return;
    }
    if (path === '/api' || path === '/apis' || path.startsWith('/api/') || path.startsWith('/apis/')) {
      const d = routes.discovery.serve({ path, accept: req.headers.accept, ifNoneMatch: req.headers['if-none-match'] });
      if (!d) throw errors.routeNotFound();
      if (d.format === 'aggregated') {
        writeRaw(req, res, { status: d.response.status, headers: d.response.headers, body: d.response.body });
        return;
      }
      writeObject(req, res, 200, d.object, chooseOutput(req.headers.accept, pretty, { protobuf: false }), { compression: false });
      return;
    }
    throw errors.routeNotFound();
  };
}
