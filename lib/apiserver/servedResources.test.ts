// The in-process server over a memory store: what --runtime-config leaves out disappears from
// routing, discovery and OpenAPI alike, and a deprecated version's requests are marked.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { FeatureGates, leases, type ResourceInfo } from '../api';
import { alwaysAllowAuthorizer } from '../auth/authorizer';
import { loadPolicy, type AuditEvent } from '../audit';
import { MemoryStorage } from '../etcd/memory';
import { leaseStrategy } from '../registry/leases';
import { builtinStrategies } from '../registry/builtin';
import type { Strategy } from '../registry/strategy';
import { createStores } from '../registry/stores';
import { isServed, type ResourceConfig } from './resourceConfig';
import { resourceConfigFromFlag } from './runtimeConfig';
import { createApiServer } from './server';

// A test-only beta of Lease: introduced 1.29, so deprecated in 1.32 (this release), removed in 1.35.
const leasesBeta: ResourceInfo = {
  ...leases,
  version: 'v1beta1',
  lifecycle: { introduced: { major: 1, minor: 29 }, replacement: { group: leases.group, version: 'v1', kind: 'Lease' } },
};
const strategies: Strategy[] = [...builtinStrategies, leaseStrategy.withResource(leasesBeta)];
const infos = strategies.map((s) => s.resource);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

interface Running {
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  send(method: string, path: string, body: unknown): Promise<Answer>;
  metrics(): Promise<string>;
  events: AuditEvent[];
  close(): Promise<void>;
}

async function serve(runtimeConfig: string): Promise<Running> {
  const config: ResourceConfig = resourceConfigFromFlag(runtimeConfig, infos);
  const stores = createStores(new MemoryStorage(), strategies, '/registry', { watchCache: false });
  const events: AuditEvent[] = [];
  const api = createApiServer({
    resources: stores,
    resourceConfig: config,
    authenticator: { authenticate: async () => ({ name: 'admin', groups: ['system:masters', 'system:authenticated'] }) },
    authorizer: alwaysAllowAuthorizer(),
    anonymousEnabled: false,
    requestTimeoutMs: 10_000,
    audit: { policy: loadPolicy('apiVersion: audit.svc.io/v1\nkind: Policy\nrules:\n- level: Metadata\n'), write: (ev) => events.push(ev) },
    features: FeatureGates.parse(''),
    log: pino({ level: 'silent' }),
    maxRequestBodyBytes: 1 << 20,
    serverAddress: '127.0.0.1:6443',
    storageHealth: async () => null,
  });
  const server: Server = createServer(api.handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const call = (method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json: <T>() => JSON.parse(text) as T });
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  return {
    get: (path, headers = {}) => call('GET', path, { Accept: 'application/json', ...headers }),
    send: (method, path, body) => call(method, path, { 'Content-Type': 'application/json', Accept: 'application/json' }, JSON.stringify(body)),
    metrics: async () => (await call('GET', '/metrics', {})).body,
    events,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await api.close();
    },
  };
}

const aggregatedAccept = 'application/json;g=apidiscovery.svc.io;v=v2;as=APIGroupDiscoveryList';
const groupNames = (doc: { groups: { name: string }[] }): string[] => doc.groups.map((g) => g.name);
const aggregatedGroups = (doc: { items: { metadata: { name: string }; versions: { version: string }[] }[] }): string[] =>
  doc.items.flatMap((g) => g.versions.map((v) => `${g.metadata.name}/${v.version}`));

describe('--runtime-config=certificates.svc.io/v1=false', () => {
  let s: Running;
  beforeAll(async () => {
    s = await serve('certificates.svc.io/v1=false');
  });
  afterAll(() => s.close());

  test('/apis and aggregated discovery leave the group out, the rest stays', async () => {
    const plain = await s.get('/apis');
    expect(plain.status).toBe(200);
    expect(groupNames(plain.json())).not.toContain('certificates.svc.io');
    expect(groupNames(plain.json())).toContain('coordination.svc.io');
    const agg = await s.get('/apis', { Accept: aggregatedAccept });
    expect(agg.headers['content-type']).toContain('apidiscovery.svc.io');
    expect(aggregatedGroups(agg.json())).not.toContain('certificates.svc.io/v1');
    expect(aggregatedGroups(agg.json())).toContain('coordination.svc.io/v1');
  });

  test.each(['/apis/certificates.svc.io', '/apis/certificates.svc.io/v1', '/apis/certificates.svc.io/v1/certificatesigningrequests', '/apis/certificates.svc.io/v1/certificatesigningrequests/x'])(
    '%s → 404 NotFound Status',
    async (path) => {
      const r = await s.get(path);
      expect(r.status).toBe(404);
      expect(r.json()).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404 });
    },
  );

  test('OpenAPI v2 and v3 leave it out', async () => {
    expect((await s.get('/openapi/v3/apis/certificates.svc.io/v1')).status).toBe(404);
    const v2 = await s.get('/openapi/v2');
    expect(Object.keys(v2.json<{ paths: object }>().paths).filter((p) => p.includes('certificates.svc.io'))).toEqual([]);
    expect(Object.keys(v2.json<{ paths: object }>().paths).some((p) => p.includes('coordination.svc.io/v1/'))).toBe(true);
    const v3 = await s.get('/openapi/v3');
    const paths = Object.keys(v3.json<{ paths: object }>().paths);
    expect(paths).not.toContain('apis/certificates.svc.io/v1');
    expect(paths).toContain('apis/coordination.svc.io/v1');
  });
});

describe('per resource: rbac.authorization.svc.io/v1/roles=false', () => {
  let s: Running;
  beforeAll(async () => {
    s = await serve('rbac.authorization.svc.io/v1/roles=false');
  });
  afterAll(() => s.close());

  test('the resource goes, its siblings stay', async () => {
    const list = await s.get('/apis/rbac.authorization.svc.io/v1');
    const names = list.json<{ resources: { name: string }[] }>().resources.map((r) => r.name);
    expect(names).not.toContain('roles');
    expect(names).toContain('clusterroles');
    expect((await s.get('/apis/rbac.authorization.svc.io/v1/namespaces/default/roles')).status).toBe(404);
    expect((await s.get('/apis/rbac.authorization.svc.io/v1/clusterroles')).status).toBe(200);
    const v3 = await s.get('/openapi/v3/apis/rbac.authorization.svc.io/v1');
    const paths = Object.keys(v3.json<{ paths: object }>().paths);
    expect(paths.some((p) => p.includes('/roles'))).toBe(false);
    expect(paths.some((p) => p.includes('/clusterroles'))).toBe(true);
  });
});

describe('beta versions', () => {
  test('off by default', async () => {
    const s = await serve('');
    try {
      expect((await s.get('/apis/coordination.svc.io/v1beta1/leases')).status).toBe(404);
      const group = (await s.get('/apis/coordination.svc.io')).json<{ versions: { version: string }[] }>();
      expect(group.versions.map((v) => v.version)).toEqual(['v1']);
    } finally {
      await s.close();
    }
  });
});

describe('a deprecated version (coordination.svc.io/v1beta1 enabled)', () => {
  let s: Running;
  const warning = '299 - "coordination.svc.io/v1beta1 Lease is deprecated in v1.32+, unavailable in v1.35+; use coordination.svc.io/v1 Lease"';
  beforeAll(async () => {
    s = await serve('api/beta=true');
  });
  afterAll(() => s.close());

  test('list: Warning header, audit annotations, gauge', async () => {
    const r = await s.get('/apis/coordination.svc.io/v1beta1/namespaces/default/leases');
    expect(r.status).toBe(200);
    expect(r.headers.warning).toBe(warning);
    const ev = s.events.find((e) => e.stage === 'ResponseComplete' && e.requestURI === '/apis/coordination.svc.io/v1beta1/namespaces/default/leases');
    expect(ev?.annotations).toMatchObject({ 'svc.io/deprecated': 'true', 'svc.io/removed-release': '1.35' });
    expect(await s.metrics()).toContain(
      'apiserver_requested_deprecated_apis{group="coordination.svc.io",version="v1beta1",resource="leases",subresource="",removed_release="1.35"} 1',
    );
  });

  test('errors carry the warning too, and a create keeps it beside its own warnings', async () => {
    const missing = await s.get('/apis/coordination.svc.io/v1beta1/namespaces/default/leases/nope');
    expect(missing.status).toBe(404);
    expect(missing.headers.warning).toBe(warning);
    const created = await s.send('POST', '/apis/coordination.svc.io/v1beta1/namespaces/default/leases?fieldValidation=Warn', {
      apiVersion: 'coordination.svc.io/v1beta1',
      kind: 'Lease',
      metadata: { name: 'l1' },
      bogus: 1,
    });
    expect(created.status).toBe(201);
    expect(String(created.headers.warning)).toContain(warning);
    expect(String(created.headers.warning)).toContain('unknown field \\"bogus\\"');
  });

  test('the GA version is not marked', async () => {
    const r = await s.get('/apis/coordination.svc.io/v1/namespaces/default/leases');
    expect(r.status).toBe(200);
    expect(r.headers.warning).toBeUndefined();
    const ev = s.events.find((e) => e.stage === 'ResponseComplete' && e.requestURI === '/apis/coordination.svc.io/v1/namespaces/default/leases');
    expect(ev?.annotations?.['svc.io/deprecated']).toBeUndefined();
    const gauge = (await s.metrics()).split('\n').filter((l) => l.startsWith('apiserver_requested_deprecated_apis{'));
    expect(gauge).toEqual(['apiserver_requested_deprecated_apis{group="coordination.svc.io",version="v1beta1",resource="leases",subresource="",removed_release="1.35"} 1']);
  });
});

describe('a removed version', () => {
  test('is not served even when enabled', () => {
    const gone: ResourceInfo = { ...leases, version: 'v1beta2', lifecycle: { introduced: { major: 1, minor: 20 } } };
    const config = resourceConfigFromFlag('api/all=true', [...infos, gone]);
    expect(isServed(config, gone)).toBe(false);
    expect(isServed(config, leasesBeta)).toBe(true);
  });
});
