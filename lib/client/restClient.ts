// A REST client for the API over node:https with a keep-alive agent: typed verbs on resources,
// watch streams, and raw requests for non-resource paths. Bodies are JSON. Error responses become
// ClientApiError (the server's Status, or one synthesised as client-go does for non-Status bodies);
// failures to get a response become ClientTransportError.
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as path from 'node:path';
import type { ApiList, ApiObject, DeleteOptions, Status } from '../api/meta';
import { serverVersion } from '../api/product';
import type { Clock } from './clock';
import { realClock } from './clock';
import { ClientApiError, ClientTransportError, genericServerResponse, RequestIdentity } from './errors';
import { loadKubeconfig, LoadKubeconfigOptions } from './kubeconfig';
import type { ListWatch, ListWatchScope } from './listWatch';
import {
  ListOptions,
  listQuery,
  queryString,
  ResourceDescriptor,
  resourcePath,
  WriteOptions,
  writeQuery,
} from './resourcePath';
import { ResponseWatchStream, WatchStream } from './watchStream';

export interface RestConfig {
  /** e.g. https://127.0.0.1:6443 (http: works too, for local tests). A path prefix is kept. */
  server: string;
  /** PEM of the CA bundle that signs the server's certificate; default: the system roots. */
  ca?: Buffer | string;
  /** PEM client certificate and key for x509 authentication. */
  cert?: Buffer | string;
  key?: Buffer | string;
  insecureSkipTLSVerify?: boolean;
  tlsServerName?: string;
  token?: string;
  /** Re-read at most once a minute, so rotated tokens are picked up (client-go's cached file token source). */
  tokenFile?: string;
  /** `<program>/<version>`; default `<script name>/<product version> (<os>/<arch>)`. */
  userAgent?: string;
  /** Per-request timeout of non-watch requests; default 30 s, 0 for none. */
  timeoutMs?: number;
  /** Only `now()` is used, to age the token file. */
  clock?: Pick<Clock, 'now'>;
}

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export const patchContentTypes: Record<PatchType, string> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's timeout for this request (0: none). */
  timeoutMs?: number;
}
export interface NamespaceOption {
  namespace?: string;
}
export type GetOptions = CallOptions & NamespaceOption & { subresource?: string };
export type ListCallOptions = CallOptions & NamespaceOption & ListOptions;
export type WatchCallOptions = NamespaceOption & ListOptions & { signal?: AbortSignal };
export type WriteCallOptions = CallOptions & NamespaceOption & WriteOptions & { subresource?: string };
export type CreateCallOptions = WriteCallOptions & {
  /** For subresource creates (e.g. serviceaccounts/<name>/token). */
  name?: string;
};
export type DeleteCallOptions = CallOptions &
  NamespaceOption &
  Pick<DeleteOptions, 'gracePeriodSeconds' | 'preconditions' | 'propagationPolicy'> & { dryRun?: boolean };

export interface RawRequestOptions extends CallOptions {
  /** Content type of a non-JSON body (a Buffer or string body is sent as is). */
  contentType?: string;
  accept?: string;
}

const defaultTimeoutMs = 30_000;
const tokenFileRereadMs = 60_000;
/** client-go caps the server text quoted in a synthesised error. */
const maxUnstructuredResponseBytes = 2048;

interface Prepared {
  method: string;
  /** Path and query, without the server's path prefix. */
  path: string;
  body?: Buffer;
  contentType?: string;
  accept?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** For messages of synthesised errors. */
  target?: { group: string; resource: string; name?: string };
}

function defaultUserAgent(): string {
  const program = path.basename(process.argv[1] ?? process.argv0 ?? 'node').replace(/\.[cm]?[jt]s$/, '') || 'node';
  return `${program}/${serverVersion.gitVersion} (${process.platform}/${process.arch})`;
}

function metaOf(o: ApiObject): { name?: string; namespace?: string } {
  return { name: o.metadata?.name, namespace: o.metadata?.namespace };
}

function isJsonType(contentType: string | undefined): boolean {
  return !!contentType && /^application\/([\w.+-]*\+)?json\b/i.test(contentType.trim());
}

export class RestClient {
  readonly server: URL;
  private readonly basePath: string;
  private readonly transport: typeof http | typeof https;
  private readonly agent: http.Agent;
  private readonly userAgent: string;
  private readonly timeoutMs: number;
  private readonly clock: Pick<Clock, 'now'>;
  private readonly tokenFile?: string;
  private token?: string;
  private tokenReadAt = Number.NEGATIVE_INFINITY;

  constructor(config: RestConfig) {
    this.server = new URL(config.server);
    if (this.server.protocol !== 'https:' && this.server.protocol !== 'http:') {
      throw new Error(`server ${JSON.stringify(config.server)}: scheme must be https or http`);
    }
    if (config.insecureSkipTLSVerify && config.ca) {
      // client-go's transport refuses the combination rather than silently ignoring one.
      throw new Error('specifying a root certificates file with the insecure flag is not allowed');
    }
    this.basePath = this.server.pathname.replace(/\/+$/, '');
    this.userAgent = config.userAgent ?? defaultUserAgent();
    this.timeoutMs = config.timeoutMs ?? defaultTimeoutMs;
    this.clock = config.clock ?? realClock;
    this.token = config.token;
    if (config.tokenFile) {
      this.tokenFile = config.tokenFile;
      if (config.token) this.tokenReadAt = this.clock.now();
    }
    if (this.server.protocol === 'https:') {
      this.transport = https;
      this.agent = new https.Agent({
        keepAlive: true,
        ca: config.ca,
        cert: config.cert,
        key: config.key,
        rejectUnauthorized: !config.insecureSkipTLSVerify,
        servername: config.tlsServerName,
      });
    } else {
      this.transport = http;
      this.agent = new http.Agent({ keepAlive: true });
    }
  }

  /** A client for a kubeconfig's current (or named) context. */
  static async fromKubeconfig(file: string, opts: LoadKubeconfigOptions & Omit<RestConfig, 'server'> = {}): Promise<RestClient> {
    const kc = await loadKubeconfig(file, opts);
    return new RestClient({ ...kc, ...opts, server: kc.server });
  }

  /** Closes idle keep-alive connections; open watches end. */
  close(): void {
    this.agent.destroy();
  }

  async get<T extends ApiObject = ApiObject>(r: ResourceDescriptor, name: string, o: GetOptions = {}): Promise<T> {
    return this.call<T>({
      method: 'GET',
      path: resourcePath(r, { namespace: o.namespace, name, subresource: o.subresource }),
      signal: o.signal,
      timeoutMs: o.timeoutMs,
      target: { group: r.group, resource: r.resource, name },
    });
  }

  async list<T extends ApiObject = ApiObject>(r: ResourceDescriptor, o: ListCallOptions = {}): Promise<ApiList<T>> {
    return this.call<ApiList<T>>({
      method: 'GET',
      path: resourcePath(r, { namespace: o.namespace }) + queryString(listQuery(o)),
      signal: o.signal,
      timeoutMs: o.timeoutMs,
      target: { group: r.group, resource: r.resource },
    });
  }

  /** Namespace and name default to the body's metadata. */
  async create<T extends ApiObject = ApiObject>(r: ResourceDescriptor, body: T, o: CreateCallOptions = {}): Promise<T> {
    const namespace = o.namespace ?? metaOf(body).namespace;
    return this.call<T>({
      method: 'POST',
      path: resourcePath(r, { namespace, name: o.subresource ? o.name : undefined, subresource: o.subresource }) + queryString(writeQuery(o)),
      body: Buffer.from(JSON.stringify(body)),
      contentType: 'application/json',
      signal: o.signal,
      timeoutMs: o.timeoutMs,
      target: { group: r.group, resource: r.resource },
    });
  }

  /** PUT; namespace and name come from the body's metadata. */
  async update<T extends ApiObject = ApiObject>(r: ResourceDescriptor, body: T, o: WriteCallOptions = {}): Promise<T> {
    const m = metaOf(body);
    if (!m.name) throw new Error(`${r.resource}: update needs metadata.name`);
    return this.call<T>({
      method: 'PUT',
      path: resourcePath(r, { namespace: o.namespace ?? m.namespace, name: m.name, subresource: o.subresource }) + queryString(writeQuery(o)),
      body: Buffer.from(JSON.stringify(body)),
      contentType: 'application/json',
      signal: o.signal,
      timeoutMs: o.timeoutMs,
      target: { group: r.group, resource: r.resource, name: m.name },
    });
  }

  /** `patch` is the patch document: an operation array for 'json', an object otherwise. */
  async patch<T extends ApiObject = ApiObject>(
    r: ResourceDescriptor,
    name: string,
    type: PatchType,
    patch: unknown,
    o: WriteCallOptions = {},
  ): Promise<T> {
    if (type === 'apply' && !o.fieldManager) throw new Error('apply patches require a fieldManager');
    return this.call<T>({
      method: 'PATCH',
      path: resourcePath(r, { namespace: o.namespace, name, subresource: o.subresource }) + queryString(writeQuery(o)),
      body: Buffer.from(JSON.stringify(patch)),
      contentType: patchContentTypes[type],
      signal: o.signal,
      timeoutMs: o.timeoutMs,
      target: { group: r.group, resource: r.resource, name },
    });
  }

  /** Returns what the server answers: the deleted object, the object marked for deletion, or a Status. */
  async delete<T extends ApiObject | Status = Status>(r: ResourceDescriptor, name: string, o: DeleteCallOptions = {}): Promise<T> {
    const opts: Record<string, unknown> = {};
    if (o.gracePeriodSeconds !== undefined) opts.gracePeriodSeconds = o.gracePeriodSeconds;
    if (o.preconditions) opts.preconditions = o.preconditions;
    if (o.propagationPolicy) opts.propagationPolicy = o.propagationPolicy;
    if (o.dryRun) opts.dryRun = ['All'];
    const hasBody = Object.keys(opts).length > 0;
    return this.call<T>({
      method: 'DELETE',
      path: resourcePath(r, { namespace: o.namespace, name }),
      body: hasBody ? Buffer.from(JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', ...opts })) : undefined,
      contentType: hasBody ? 'application/json' : undefined,
      signal: o.signal,
      timeoutMs: o.timeoutMs,
      target: { group: r.group, resource: r.resource, name },
    });
  }

  /** Resolves once the server accepted the watch; has no timeout (use timeoutSeconds or stop()). */
  async watch<T extends ApiObject = ApiObject>(r: ResourceDescriptor, o: WatchCallOptions = {}): Promise<WatchStream<T>> {
    const prepared: Prepared = {
      method: 'GET',
      path: resourcePath(r, { namespace: o.namespace }) + queryString(listQuery(o, true)),
      signal: o.signal,
      timeoutMs: 0,
      target: { group: r.group, resource: r.resource },
    };
    const { res, req } = await this.send(prepared);
    const identity = { method: prepared.method, path: prepared.path };
    if (res.statusCode !== 200) throw this.errorFor(prepared, res, await this.readBody(res, req, prepared));
    return new ResponseWatchStream<T>(res, () => req.destroy(), identity);
  }

  /** The transport an Informer needs, for one resource (optionally narrowed). */
  listWatch<T extends ApiObject = ApiObject>(r: ResourceDescriptor, scope: ListWatchScope = {}): ListWatch<T> {
    const merge = (opts: ListOptions): ListOptions => ({
      ...opts,
      labelSelector: opts.labelSelector ?? scope.labelSelector,
      fieldSelector: opts.fieldSelector ?? scope.fieldSelector,
    });
    return {
      list: (opts, signal) => this.list<T>(r, { ...merge(opts), namespace: scope.namespace, signal }),
      watch: (opts, signal) => this.watch<T>(r, { ...merge(opts), namespace: scope.namespace, signal }),
    };
  }

  /**
   * Any path (discovery `/apis`, `/api/v1`, `/version`, `/healthz`). A plain-object body is sent
   * as JSON. The result is parsed JSON for JSON responses, the text otherwise, undefined when empty.
   */
  async request<T = unknown>(method: string, requestPath: string, body?: unknown, o: RawRequestOptions = {}): Promise<T> {
    let payload: Buffer | undefined;
    let contentType = o.contentType;
    if (Buffer.isBuffer(body)) payload = body;
    else if (typeof body === 'string') payload = Buffer.from(body);
    else if (body !== undefined) {
      payload = Buffer.from(JSON.stringify(body));
      contentType ??= 'application/json';
    }
    return this.call<T>({
      method: method.toUpperCase(),
      path: requestPath.startsWith('/') ? requestPath : `/${requestPath}`,
      body: payload,
      contentType,
      accept: o.accept,
      signal: o.signal,
      timeoutMs: o.timeoutMs,
    });
  }

  private async call<T>(p: Prepared): Promise<T> {
    const { res, req } = await this.send(p);
    const text = await this.readBody(res, req, p);
    const code = res.statusCode ?? 0;
    if (code < 200 || code > 206) throw this.errorFor(p, res, text);
    const contentType = res.headers['content-type'];
    if (text.length === 0) return undefined as T;
    if (!isJsonType(contentType)) return text.toString('utf8') as T;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.toString('utf8'));
    } catch (e) {
      throw new ClientTransportError(`${p.method} ${p.path}: response is not valid JSON: ${(e as Error).message}`, {
        code: 'EDECODE',
        request: { method: p.method, path: p.path },
      });
    }
    // client-go: a Status that is not Success is an error whatever the HTTP code.
    const s = parsed as Partial<Status>;
    if (s && s.kind === 'Status' && s.status && s.status !== 'Success') {
      throw new ClientApiError({ ...(s as Status), code: s.code || code }, { method: p.method, path: p.path });
    }
    return parsed as T;
  }

  private errorFor(p: Prepared, res: http.IncomingMessage, text: Buffer): Error {
    const code = res.statusCode ?? 0;
    const identity: RequestIdentity = { method: p.method, path: p.path };
    if (isJsonType(res.headers['content-type'])) {
      try {
        const s = JSON.parse(text.toString('utf8')) as Partial<Status>;
        if (s && s.kind === 'Status' && s.status) return new ClientApiError({ ...(s as Status), code: s.code || code }, identity);
      } catch {
        // not a Status: fall through to the synthesised one
      }
    }
    const isText = /^text\/plain\b/i.test(res.headers['content-type'] ?? '');
    const serverMessage = isText ? text.subarray(0, maxUnstructuredResponseBytes).toString('utf8').trim() : 'unknown';
    const retryAfter = Number.parseInt(String(res.headers['retry-after'] ?? ''), 10);
    const status = genericServerResponse(code, p.method, serverMessage, p.target, Number.isFinite(retryAfter) ? retryAfter : 0);
    return new ClientApiError(status, identity);
  }

  private async bearerToken(): Promise<string | undefined> {
    if (this.tokenFile && this.clock.now() - this.tokenReadAt >= tokenFileRereadMs) {
      try {
        this.token = (await fs.readFile(this.tokenFile, 'utf8')).trim();
        this.tokenReadAt = this.clock.now();
      } catch (e) {
        // Keep the last good token, as client-go does; without one the request cannot authenticate.
        if (this.token === undefined) {
          throw new ClientTransportError(`reading token file ${this.tokenFile}: ${(e as Error).message}`, { code: (e as NodeJS.ErrnoException).code });
        }
      }
    }
    return this.token;
  }

  /** Sends the request; resolves with the response once its headers arrived. */
  private async send(p: Prepared): Promise<{ res: http.IncomingMessage; req: http.ClientRequest }> {
    const identity: RequestIdentity = { method: p.method, path: p.path };
    const headers: http.OutgoingHttpHeaders = {
      'User-Agent': this.userAgent,
      Accept: p.accept ?? 'application/json, */*',
    };
    const token = await this.bearerToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (p.body) {
      headers['Content-Type'] = p.contentType ?? 'application/json';
      headers['Content-Length'] = p.body.length;
    }
    const timeoutMs = p.timeoutMs ?? this.timeoutMs;
    return new Promise((resolve, reject) => {
      const req = this.transport.request(
        {
          protocol: this.server.protocol,
          hostname: this.server.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: this.server.port || undefined,
          path: this.basePath + p.path,
          method: p.method,
          headers,
          agent: this.agent,
          signal: p.signal,
        },
        (res) => {
          // The deadline covers reading the body too (http.Client.Timeout semantics).
          res.once('end', () => timer && clearTimeout(timer));
          res.once('close', () => timer && clearTimeout(timer));
          resolve({ res, req });
        },
      );
      const timer =
        timeoutMs > 0
          ? setTimeout(() => {
              req.destroy(new ClientTransportError(`${p.method} ${p.path}: request timed out after ${timeoutMs} ms`, { code: 'ETIMEDOUT', request: identity }));
            }, timeoutMs)
          : undefined;
      // Stays attached after the response arrived: later errors (stop, timeout) must not go unhandled.
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (timer) clearTimeout(timer);
        reject(this.transportError(err, identity));
      });
      req.end(p.body);
    });
  }

  private readBody(res: http.IncomingMessage, req: http.ClientRequest, p: Prepared): Promise<Buffer> {
    const identity: RequestIdentity = { method: p.method, path: p.path };
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('end', () => resolve(Buffer.concat(chunks)));
      res.once('error', (err: NodeJS.ErrnoException) => reject(this.transportError(err, identity)));
      // A timeout or abort while reading destroys the request; surface its reason.
      req.once('error', (err: NodeJS.ErrnoException) => reject(this.transportError(err, identity)));
      res.once('aborted', () => reject(new ClientTransportError(`${p.method} ${p.path}: response aborted`, { code: 'ECONNRESET', request: identity })));
    });
  }

  private transportError(err: NodeJS.ErrnoException, identity: RequestIdentity): ClientTransportError {
    if (err instanceof ClientTransportError) return err;
    return new ClientTransportError(`${identity.method} ${this.server.origin}${this.basePath}${identity.path}: ${err.message}`, {
      code: err.code,
      request: identity,
      cause: err,
    });
  }
}
