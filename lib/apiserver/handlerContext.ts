// What every resource handler receives: the classified request, the served resource, the
// authenticated user and the negotiated output. Built once per request by the dispatcher.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { FeatureGates } from '../api/featureGates';
import type { Authorizer } from '../auth/authorizer';
import type { AdmissionOptions } from '../registry/store';
import type { RequestContext, UserInfo } from '../registry/strategy';
import type { AuditContext } from '../audit';
import type { RequestInfo } from './requestInfo';
import type { StoredResource } from './resourceTable';
import type { OutputFormat } from './respond';
import type { ApiServerMetrics } from './metrics';
import type { WatchRegistrar } from './lifecycle';
import type { WatchBudget } from '../machinery/watchBudget';

/** What every resource request handler receives. */
export interface RequestHandlerContext {
  req: IncomingMessage;
  res: ServerResponse;
  info: RequestInfo;
  query: URLSearchParams;
  user: UserInfo;
  output: OutputFormat;
  features: FeatureGates;
  /** For checks a handler makes beyond the request's own verb (the unsafe delete's extra verb). */
  authorizer: Authorizer;
  metrics: ApiServerMetrics;
  log: Logger;
  /** Warning header texts collected while handling (e.g. unknown fields under fieldValidation=Warn). */
  warnings: string[];
  /** Set by write handlers so metrics and logs report dry_run. */
  dryRun: boolean;
  /** Set by patch when the body was an apply patch (metric verb APPLY). */
  isApply: boolean;
  /** The request's audit record, when auditing is on. */
  audit?: AuditContext;
  /** Where watches register so shutdown can end them cleanly; absent = not tracked. */
  watches?: WatchRegistrar;
  /** The server-wide bound on watches' unsent bytes (lib/machinery/watchBudget.ts). */
  watchBudget: WatchBudget;
  readBody(): Promise<Buffer>;
  requestContext(dryRun: boolean): RequestContext;
  /** What the request's writes are admitted with: the server's admission chain, per call. */
  admission: AdmissionOptions;
  now(): Date;
}

/** A handler of a stored resource's verb. */
export interface HandlerContext extends RequestHandlerContext {
  served: StoredResource;
}
