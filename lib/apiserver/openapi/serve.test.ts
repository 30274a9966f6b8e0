import { createHash } from 'node:crypto';
import { certificatesigningrequests } from '../../api/certificates/certificateSigningRequest';
import { namespaces } from '../../api/core/namespace';
import { serviceaccounts } from '../../api/core/serviceaccount';
import { OpenAPIService, serverRelativeURL } from './serve';

const fixed = new Date('2026-01-10T08:00:00Z');
const service = new OpenAPIService([namespaces, serviceaccounts, certificatesigningrequests], {}, () => fixed);
const csrPath = 'apis/certificates.svc.io/v1';
const hashOf = (b: Buffer): string => createHash('sha512').update(b).digest('hex').toUpperCase();

describe('/openapi/v3 index', () => {
  const r = service.serve('/openapi/v3', {}, {});
  it('lists every group-version with its hash', () => {
    expect(r?.status).toBe(200);
    const index = JSON.parse(r?.body.toString() ?? '') as { paths: Record<string, { serverRelativeURL: string }> };
    expect(Object.keys(index.paths)).toEqual(['api/v1', csrPath]);
    const doc = service.serve(`/openapi/v3/${csrPath}`, {}, {});
    expect(index.paths[csrPath].serverRelativeURL).toBe(`/openapi/v3/${csrPath}?hash=${hashOf(doc?.body ?? Buffer.alloc(0))}`);
    expect(r?.headers.ETag).toBe(`"${hashOf(r?.body ?? Buffer.alloc(0))}"`);
    expect(r?.headers['Content-Type']).toBe('application/json');
  });
});

describe('group-version documents', () => {
  const current = service.groupVersions().get(csrPath)?.etag ?? '';
  const cases: Array<[string, string, Record<string, string>, number, Record<string, string | undefined>]> = [
    ['no hash', `/openapi/v3/${csrPath}`, {}, 200, { 'Cache-Control': undefined, Vary: 'Accept', 'Content-Type': 'application/json' }],
    ['current hash', serverRelativeURL(csrPath, current), {}, 200, { 'Cache-Control': 'public, immutable', Expires: 'Sun, 10 Jan 2027 08:00:00 UTC', Vary: 'Accept' }],
    ['outdated hash', `/openapi/v3/${csrPath}?hash=ABC`, {}, 301, { Location: serverRelativeURL(csrPath, current) }],
    ['etag match', `/openapi/v3/${csrPath}`, { 'If-None-Match': `"${current}"` }, 304, { ETag: `"${current}"`, 'Content-Type': undefined }],
    ['weak etag match', `/openapi/v3/${csrPath}`, { 'if-none-match': `W/"${current}", "x"` }, 304, {}],
    ['etag mismatch', `/openapi/v3/${csrPath}`, { 'If-None-Match': '"x"' }, 200, {}],
    ['json accepted', `/openapi/v3/${csrPath}`, { Accept: 'application/json' }, 200, {}],
    ['wildcard accepted', `/openapi/v3/${csrPath}`, { Accept: 'application/*' }, 200, {}],
    ['protobuf only', `/openapi/v3/${csrPath}`, { Accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf' }, 406, { Vary: 'Accept' }],
    ['protobuf then json', `/openapi/v3/${csrPath}`, { Accept: 'application/com.github.proto-openapi.spec.v3.v1.0+protobuf, application/json' }, 200, {}],
    ['unknown group-version', '/openapi/v3/apis/nope/v1', {}, 404, {}],
    ['v2 json', '/openapi/v2', { Accept: 'application/json' }, 200, { Vary: 'Accept', 'Content-Type': 'application/json' }],
    ['v2 protobuf (kubectl ≤ 1.28)', '/openapi/v2', { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' }, 200, { Vary: 'Accept', 'Content-Type': 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf' }],
    ['v2 protobuf, new subtype', '/openapi/v2', { Accept: 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf' }, 200, { 'Content-Type': 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf', ETag: `"${service.swaggerV2().etag}"` }],
    ['v2 protobuf preferred over json', '/openapi/v2', { Accept: 'application/json;q=0.5, application/com.github.proto-openapi.spec.v2.v1.0+protobuf' }, 200, { 'Content-Type': 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf' }],
    ['v2 protobuf etag match', '/openapi/v2', { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf', 'If-None-Match': `"${service.swaggerV2().etag}"` }, 304, {}],
    ['v2 yaml only', '/openapi/v2', { Accept: 'application/yaml' }, 406, {}],
    ['v2 if-modified-since', '/openapi/v2', { 'If-Modified-Since': fixed.toUTCString() }, 304, {}],
  ];
  it.each(cases)('%s', (_name, url, headers, status, expected) => {
    const u = new URL(url, 'https://x.invalid');
    const r = service.serve(u.pathname, u.searchParams, headers);
    expect(r?.status).toBe(status);
    for (const [k, v] of Object.entries(expected)) expect(r?.headers[k]).toBe(v);
    if (status === 304 || status === 406 || status === 301) expect(r?.body.length).toBe(0);
  });

  it('ignores paths outside /openapi', () => {
    expect(service.serve('/api/v1', {}, {})).toBeUndefined();
  });
});
