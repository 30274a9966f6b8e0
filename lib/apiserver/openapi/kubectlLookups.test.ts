// Re-implements, from reading upstream, the two lookups stock kubectl 1.32 performs on
// /openapi/v3, and checks our documents satisfy them:
// - cli-runtime's queryParamVerifierV3 (kubectl create/apply/replace --validate=strict):
//   index → group-version document → for each path (Go map order, i.e. any order) the
//   first PATCH operation whose x-kubernetes-group-version-kind object equals the GVK
//   decides: supported iff one of its own inline `parameters` is named fieldValidation.
// - kubectl explain (explain/v2 template): GVK from an operation on the list or item path
//   (get, post, put, patch, delete), then the components.schemas entry whose
//   x-kubernetes-group-version-kind list contains exactly that {group, kind, version}.
import { certificatesigningrequests } from '../../api/certificates/certificateSigningRequest';
import { namespaces } from '../../api/core/namespace';
import { serviceaccounts } from '../../api/core/serviceaccount';
import type { ResourceInfo } from '../../api/resource';
import { OpenAPIService } from './serve';

type Json = Record<string, unknown>;
const resources = [namespaces, serviceaccounts, certificatesigningrequests];
const service = new OpenAPIService(resources);

function get(url: string, accept = 'application/json'): { status: number; json: Json; headers: Record<string, string> } {
  const u = new URL(url, 'https://server.invalid');
  const r = service.serve(u.pathname, u.searchParams, { Accept: accept });
  if (!r) throw new Error(`no handler for ${url}`);
  return { status: r.status, headers: r.headers, json: r.body.length ? (JSON.parse(r.body.toString('utf8')) as Json) : {} };
}

function gvPath(gv: { group: string; version: string }): string {
  return gv.group ? `apis/${gv.group}/${gv.version}` : `api/${gv.version}`;
}

/** The group-version document as the openapi3 client fetches it (index, then serverRelativeURL). */
function gvSpec(gv: { group: string; version: string }): Json {
  const index = get('/openapi/v3').json as { paths: Record<string, { serverRelativeURL: string }> };
  const entry = index.paths[gvPath(gv)];
  if (!entry) throw new Error(`GroupVersionNotFound ${gvPath(gv)}`);
  const r = get(entry.serverRelativeURL);
  expect(r.status).toBe(200);
  return r.json;
}

/** hasGVKExtensionV3: GetObject into map[string]string, then compare the three keys. */
function hasGVK(op: Json, gvk: { group: string; version: string; kind: string }): boolean {
  const ext = op['x-kubernetes-group-version-kind'];
  if (typeof ext !== 'object' || ext === null || Array.isArray(ext)) return false;
  const m = ext as Record<string, unknown>;
  if (!Object.values(m).every((v) => typeof v === 'string')) return false;
  return m.group === gvk.group && m.version === gvk.version && m.kind === gvk.kind;
}

/** supportsQueryParamV3 for one iteration order of doc.Paths. */
function supportsQueryParam(doc: Json, gvk: { group: string; version: string; kind: string }, param: string, order: string[]): boolean {
  const paths = doc.paths as Record<string, Json>;
  for (const p of order) {
    const op = paths[p].patch as Json | undefined;
    if (!op || !hasGVK(op, gvk)) continue;
    // ParameterProps.Name is empty for a {$ref} parameter.
    const ps = (op.parameters ?? []) as Json[];
    return ps.some((x) => x.name === param && x.$ref === undefined);
  }
  return false;
}

describe('kubectl queryParamVerifierV3 (fieldValidation)', () => {
  it.each(resources.map((r) => [`${r.group || 'core'}/${r.kind}`, r] as const))('%s supports fieldValidation in any path order', (_n, r: ResourceInfo) => {
    const doc = gvSpec(r);
    expect(doc.paths).toBeTruthy();
    const keys = Object.keys(doc.paths as Json).filter((k) => k.startsWith('/'));
    const gvk = { group: r.group, version: r.version, kind: r.kind };
    const matching = keys.filter((k) => {
      const op = (doc.paths as Record<string, Json>)[k].patch as Json | undefined;
      return op !== undefined && hasGVK(op, gvk);
    });
    expect(matching.length).toBeGreaterThan(0);
    // Every matching PATCH must carry it, since Go's map order decides which one is read.
    for (const first of matching) expect(supportsQueryParam(doc, gvk, 'fieldValidation', [first, ...keys])).toBe(true);
    expect(supportsQueryParam(doc, gvk, 'noSuchParam', keys)).toBe(false);
  });
});

describe('kubectl explain (v3)', () => {
  it.each(resources.map((r) => [r.resource, r] as const))('%s resolves GVK and schema', (_n, r: ResourceInfo) => {
    const doc = gvSpec(r);
    const prefix = r.group ? `/apis/${r.group}` : '/api';
    const search = [
      `${prefix}/${r.version}/${r.resource}`,
      `${prefix}/${r.version}/${r.resource}/{name}`,
      `${prefix}/${r.version}/namespaces/{namespace}/${r.resource}`,
      `${prefix}/${r.version}/namespaces/{namespace}/${r.resource}/{name}`,
    ];
    let gvk: unknown;
    for (const p of search) {
      const item = (doc.paths as Record<string, Json>)[p];
      if (!item) continue;
      for (const m of ['get', 'post', 'put', 'patch', 'delete']) {
        const op = item[m] as Json | undefined;
        if (op?.['x-kubernetes-group-version-kind']) {
          gvk ??= op['x-kubernetes-group-version-kind'];
        }
      }
    }
    expect(gvk).toEqual({ group: r.group, kind: r.kind, version: r.version });
    const schemas = (doc.components as Json).schemas as Record<string, Json>;
    const found = Object.entries(schemas).filter(([, s]) => {
      const list = s['x-kubernetes-group-version-kind'];
      return Array.isArray(list) && list.some((x) => JSON.stringify(x) === JSON.stringify(gvk));
    });
    expect(found.map(([n]) => n)).toEqual([r.schema.name]);
    // Fields resolve through $ref / allOf like the template does.
    const props = found[0][1].properties as Record<string, Json>;
    expect(props.metadata.allOf ?? props.metadata.$ref).toBeDefined();
  });
});
