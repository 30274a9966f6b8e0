// Serving the documents like kube-openapi's handlers: JSON, and for v2 also gnostic's
// protobuf (kubectl ≤ 1.28 reads only that; the v3 protobuf form is not implemented, so an
// Accept asking only for it gets 406 with an empty body), a quoted
// ETag (uppercase hex SHA-512 of the body) with If-None-Match → 304, Last-Modified; for
// v3 group-versions `?hash=` equal to the ETag adds immutable caching headers and an
// outdated hash redirects (301) to the current URL.
import { createHash } from 'node:crypto';
import type { ResourceInfo } from '../../api/resource';
import { marshalJSON } from '../../codec/encode';
import { parseAccept } from '../../codec/mediaType';
import { buildOpenAPIV3, buildSwaggerV2, OpenAPIBuildOptions } from './documents';
import { swaggerToProto } from './swaggerProto';

export interface OpenAPIResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type HeaderBag = Record<string, string | readonly string[] | undefined>;
export type QueryBag = URLSearchParams | Record<string, string | readonly string[] | undefined>;

export interface Rendered {
  body: Buffer;
  etag: string;
}

export const openapiV2Path = '/openapi/v2';
export const openapiV3Path = '/openapi/v3';

function render(doc: unknown): Rendered {
  const body = Buffer.from(marshalJSON(doc), 'utf8');
  return { body, etag: createHash('sha512').update(body).digest('hex').toUpperCase() };
}

/** "/openapi/v3/" + gv with the hash query upstream builds (url.Values encoding). */
export function serverRelativeURL(gvPath: string, hash: string): string {
  return `${openapiV3Path}/${gvPath}?${new URLSearchParams({ hash }).toString()}`;
}

function header(h: HeaderBag, name: string): string | undefined {
  const key = Object.keys(h).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : h[key];
  return Array.isArray(v) ? v.join(', ') : (v as string | undefined);
}

function queryValue(q: QueryBag, name: string): string | undefined {
  if (q instanceof URLSearchParams) return q.get(name) ?? undefined;
  const v = q[name];
  return Array.isArray(v) ? v[0] : (v as string | undefined);
}

/** The v2 forms in kube-openapi's order; the first one an Accept clause matches is sent. */
const v2Forms = ['json', 'com.github.proto-openapi.spec.v2@v1.0+protobuf', 'com.github.proto-openapi.spec.v2.v1.0+protobuf'] as const;

/** kube-openapi's loop over Accept clauses (in preference order) against the offered subtypes. */
function negotiate<T extends string>(accept: string | undefined, offered: readonly T[]): T | undefined {
  for (const c of parseAccept(accept || '*/*')) {
    if (c.type !== 'application' && c.type !== '*') continue;
    const hit = offered.find((sub) => c.subType === '*' || c.subType === sub);
    if (hit) return hit;
  }
  return undefined;
}

function acceptsJSON(accept: string | undefined): boolean {
  return negotiate(accept, ['json']) !== undefined;
}

/** http.ServeContent's conditional GET: If-None-Match (weak match, "*"), else If-Modified-Since. */
function notModified(h: HeaderBag, etag: string, lastModified: Date): boolean {
  const inm = header(h, 'if-none-match');
  if (inm !== undefined) {
    return inm.split(',').some((t) => {
      const tag = t.trim().replace(/^W\//, '');
      return tag === '*' || tag === etag;
    });
  }
  const ims = header(h, 'if-modified-since');
  if (ims) {
    const t = Date.parse(ims);
    if (!Number.isNaN(t)) return Math.floor(lastModified.getTime() / 1000) * 1000 <= t;
  }
  return false;
}

/** Go's time.RFC1123 layout in UTC ("Mon, 02 Jan 2006 15:04:05 UTC"). */
function rfc1123(d: Date): string {
  return d.toUTCString().replace(/GMT$/, 'UTC');
}

/** The documents of one server (static, so built once, on first use) and their handler. */
export class OpenAPIService {
  private v2?: Rendered;
  private v2Proto?: Rendered;
  private v3?: Map<string, Rendered>;
  private index?: Rendered;
  private readonly lastModified: Date;

  constructor(
    private readonly resources: readonly ResourceInfo[],
    private readonly opts: OpenAPIBuildOptions = {},
    private readonly now: () => Date = () => new Date(),
  ) {
    this.lastModified = now();
  }

  swaggerV2(): Rendered {
    this.v2 ??= render(buildSwaggerV2(this.resources, this.opts));
    return this.v2;
  }

  /** The protobuf form keeps the JSON form's ETag, as kube-openapi derives one cache from the other. */
  swaggerV2Proto(): Rendered {
    if (!this.v2Proto) {
      const json = this.swaggerV2();
      this.v2Proto = { body: Buffer.from(swaggerToProto(JSON.parse(json.body.toString('utf8')) as Record<string, unknown>)), etag: json.etag };
    }
    return this.v2Proto;
  }

  groupVersions(): Map<string, Rendered> {
    if (!this.v3) {
      this.v3 = new Map();
      for (const [gv, doc] of buildOpenAPIV3(this.resources, this.opts)) this.v3.set(gv, render(doc));
    }
    return this.v3;
  }

  v3Index(): Rendered {
    if (!this.index) {
      const paths: Record<string, { serverRelativeURL: string }> = {};
      const gvs = this.groupVersions();
      for (const gv of [...gvs.keys()].sort()) paths[gv] = { serverRelativeURL: serverRelativeURL(gv, (gvs.get(gv) as Rendered).etag) };
      this.index = render({ paths });
    }
    return this.index;
  }

  private content(doc: Rendered, h: HeaderBag, extra: Record<string, string>, contentType = 'application/json'): OpenAPIResponse {
    const headers: Record<string, string> = {
      ...extra,
      'Content-Type': contentType,
      ETag: JSON.stringify(doc.etag),
      'Last-Modified': this.lastModified.toUTCString(),
    };
    if (notModified(h, headers.ETag, this.lastModified)) {
      delete headers['Content-Type'];
      delete headers['Last-Modified'];
      return { status: 304, headers, body: Buffer.alloc(0) };
    }
    return { status: 200, headers, body: doc.body };
  }

  /** Answers a GET under /openapi/; undefined when the path is not an OpenAPI path. */
  serve(path: string, query: QueryBag, headers: HeaderBag): OpenAPIResponse | undefined {
    if (path === openapiV2Path) {
      const form = negotiate(header(headers, 'accept'), v2Forms);
      if (form === undefined) return { status: 406, headers: { Vary: 'Accept' }, body: Buffer.alloc(0) };
      if (form === 'json') return this.content(this.swaggerV2(), headers, { Vary: 'Accept' });
      // Both protobuf subtypes answer with the one Go's mime parser accepts ('@' is a tspecial).
      return this.content(this.swaggerV2Proto(), headers, { Vary: 'Accept' }, `application/${v2Forms[2]}`);
    }
    if (path === openapiV3Path || path === `${openapiV3Path}/`) return this.content(this.v3Index(), headers, {});
    if (!path.startsWith(`${openapiV3Path}/`)) return undefined;
    const gv = path.slice(openapiV3Path.length + 1);
    const doc = this.groupVersions().get(gv);
    if (!doc) return { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: Buffer.from('404 page not found\n') };
    if (!acceptsJSON(header(headers, 'accept'))) return { status: 406, headers: { Vary: 'Accept' }, body: Buffer.alloc(0) };
    const hash = queryValue(query, 'hash');
    if (hash) {
      if (hash !== doc.etag) {
        return {
          status: 301,
          headers: { Vary: 'Accept', 'Content-Type': 'application/json', ETag: JSON.stringify(doc.etag), Location: serverRelativeURL(gv, doc.etag) },
          body: Buffer.alloc(0),
        };
      }
      const expires = new Date(this.now().getTime());
      expires.setUTCFullYear(expires.getUTCFullYear() + 1);
      return this.content(doc, headers, { Vary: 'Accept', 'Cache-Control': 'public, immutable', Expires: rfc1123(expires) });
    }
    return this.content(doc, headers, { Vary: 'Accept' });
  }
}

/** The request helper: `serveOpenAPI(service, path, query, headers)`. */
export function serveOpenAPI(service: OpenAPIService, path: string, query: QueryBag, headers: HeaderBag): OpenAPIResponse | undefined {
  return service.serve(path, query, headers);
}

/** A handler bound to one server's resources: `(path, query, headers) → response`. */
export function createOpenAPIHandler(
  resources: readonly ResourceInfo[],
  opts: OpenAPIBuildOptions = {},
): (path: string, query: QueryBag, headers: HeaderBag) => OpenAPIResponse | undefined {
  const service = new OpenAPIService(resources, opts);
  return (path, query, headers) => service.serve(path, query, headers);
}
