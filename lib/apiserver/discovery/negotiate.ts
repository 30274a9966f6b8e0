// Chooses between aggregated and plain discovery from the Accept header, and renders the
// aggregated response with its caching headers (discovery-and-health.md §2).
//
// Like upstream, the clauses are tried in the client's preference order: the first clause that
// names our aggregated type (application/json;g=apidiscovery.<domain>;v=v2;as=APIGroupDiscoveryList)
// selects it; the first plain clause (no g/v/as profile) selects the plain document, which the
// normal codec negotiation then encodes (or answers 406). Profiles we do not serve (another
// group such as the upstream apidiscovery.k8s.io that stock kubectl sends, v2beta1, or a
// non-JSON aggregated encoding) are skipped, so such clients fall back to the plain documents.
import { createHash } from 'node:crypto';
import { groups } from '../../api';
import { aggregatedDiscoveryKind, aggregatedDiscoveryVersion } from './aggregated';
import type { APIGroupDiscoveryList } from './types';

export const aggregatedDiscoveryMediaType = `application/json;g=${groups.apidiscovery};v=${aggregatedDiscoveryVersion};as=${aggregatedDiscoveryKind}`;

interface Clause {
  type: string;
  params: Record<string, string>;
  q: number;
}

function parseAccept(accept: string): Clause[] {
  const out: Clause[] = [];
  for (const part of accept.split(',')) {
    const [mt, ...rest] = part.split(';').map((s) => s.trim());
    if (!mt) continue;
    const params: Record<string, string> = {};
    for (const p of rest) {
      const i = p.indexOf('=');
      if (i > 0) params[p.slice(0, i).trim().toLowerCase()] = p.slice(i + 1).trim().replace(/^"(.*)"$/, '$1');
    }
    const q = params.q === undefined ? 1 : Number(params.q);
    delete params.q;
    out.push({ type: mt.toLowerCase(), params, q: Number.isFinite(q) ? q : 0 });
  }
  // Stable sort keeps the client's order among equal q values.
  return out.filter((c) => c.q > 0).sort((a, b) => b.q - a.q);
}

export type DiscoveryFormat = 'aggregated' | 'plain';

export function negotiateDiscovery(accept: string | undefined): DiscoveryFormat {
  if (!accept) return 'plain';
  for (const c of parseAccept(accept)) {
    const profiled = c.params.g !== undefined || c.params.v !== undefined || c.params.as !== undefined;
    if (!profiled) return 'plain';
    if (c.type === 'application/json' && c.params.g === groups.apidiscovery && c.params.v === aggregatedDiscoveryVersion && c.params.as === aggregatedDiscoveryKind) {
      return 'aggregated';
    }
  }
  return 'plain';
}

/** Uppercase hex SHA-512 of the JSON, the ETag value (unquoted). */
export function discoveryETag(json: string): string {
  return createHash('sha512').update(json).digest('hex').toUpperCase();
}

export interface DiscoveryHTTPResponse {
  status: 200 | 304;
  headers: Record<string, string>;
  /** Empty for 304. */
  body: string;
}

/** A pre-rendered aggregated document: JSON and ETag are computed once. */
export interface RenderedDiscovery {
  json: string;
  etag: string;
}

export function renderAggregated(doc: APIGroupDiscoveryList): RenderedDiscovery {
  const json = JSON.stringify(doc);
  return { json, etag: discoveryETag(json) };
}

/** The aggregated response; If-None-Match equal to the quoted ETag → 304 without body. */
export function aggregatedResponse(doc: RenderedDiscovery, ifNoneMatch: string | undefined): DiscoveryHTTPResponse {
  const etag = `"${doc.etag}"`;
  const headers: Record<string, string> = { ETag: etag, Vary: 'Accept', 'Cache-Control': 'public' };
  if (ifNoneMatch === etag) return { status: 304, headers, body: '' };
  return { status: 200, headers: { 'Content-Type': aggregatedDiscoveryMediaType, ...headers }, body: doc.json };
}
