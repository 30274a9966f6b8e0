// CustomResourceDefinitions served by the in-process server over a memory store: discovery (short
// names and the api-extensions category), OpenAPI, create and read over HTTP with defaults and the
// reset status, /status, field errors as upstream renders them, and the default Table.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { FeatureGates } from '../api';
import { alwaysAllowAuthorizer } from '../auth/authorizer';
import { loadPolicy } from '../audit';
import { MemoryStorage } from '../etcd/memory';
import { builtinStrategies } from '../registry/builtin';
import { createStores } from '../registry/stores';
import { resourceConfigFromFlag } from './runtimeConfig';
import { createApiServer } from './server';

interface Answer {
  status: number;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

let server: Server;
let closeApi: () => Promise<void>;
let port = 0;

beforeAll(async () => {
  const stores = createStores(new MemoryStorage(), builtinStrategies, '/registry', { watchCache: false });
  const api = createApiServer({
    resources: stores,
    resourceConfig: resourceConfigFromFlag('', builtinStrategies.map((s) => s.resource)),
    authenticator: { authenticate: async () => ({ name: 'admin', groups: ['system:masters', 'system:authenticated'] }) },
    authorizer: alwaysAllowAuthorizer(),
    anonymousEnabled: false,
    requestTimeoutMs: 10_000,
    audit: { policy: loadPolicy('apiVersion: audit.svc.io/v1\nkind: Policy\nrules:\n- level: None\n'), write: () => undefined },
    features: FeatureGates.parse(''),
    log: pino({ level: 'silent' }),
    maxRequestBodyBytes: 1 << 20,
    serverAddress: '127.0.0.1:6443',
    storageHealth: async () => null,
  });
  closeApi = () => api.close();
  server = createServer(api.handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  await closeApi();
});

function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { Accept: 'application/json', 'Content-Type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text, json: <T>() => JSON.parse(text) as T });
      });
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const base = '/apis/apiextensions.svc.io/v1/customresourcedefinitions';

const crd = (name = 'widgets.example.com') => ({
  apiVersion: 'apiextensions.svc.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: name.split('.')[0], kind: 'Widget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
  },
});

describe('apiextensions.svc.io/v1 served', () => {
  test('legacy discovery lists the resource, its status and the category', async () => {
    const r = await call('GET', '/apis/apiextensions.svc.io/v1');
    expect(r.status).toBe(200);
    const resources = r.json<{ resources: Record<string, unknown>[] }>().resources;
    expect(resources.map((x) => x.name)).toEqual(['customresourcedefinitions', 'customresourcedefinitions/status']);
    expect(resources[0]).toMatchObject({ singularName: 'customresourcedefinition', namespaced: false, kind: 'CustomResourceDefinition', shortNames: ['crd', 'crds'], categories: ['api-extensions'] });
    expect(resources[0].verbs).toEqual(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  });

  test('aggregated discovery carries the category too', async () => {
    const r = await call('GET', '/apis', undefined, { Accept: 'application/json;g=apidiscovery.svc.io;v=v2;as=APIGroupDiscoveryList' });
    const group = r.json<{ items: { metadata: { name: string }; versions: { resources: Record<string, unknown>[] }[] }[] }>().items.find((g) => g.metadata.name === 'apiextensions.svc.io');
    expect(group?.versions[0].resources[0]).toMatchObject({ resource: 'customresourcedefinitions', scope: 'Cluster', shortNames: ['crd', 'crds'], categories: ['api-extensions'] });
  });

  test('OpenAPI v3 has the group-version with the recursive JSONSchemaProps', async () => {
    const r = await call('GET', '/openapi/v3/apis/apiextensions.svc.io/v1');
    expect(r.status).toBe(200);
    const schemas = r.json<{ components: { schemas: Record<string, { properties?: Record<string, unknown> }> } }>().components.schemas;
    const props = schemas['io.svc.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps'];
    expect(Object.keys(props.properties ?? {})).toEqual(expect.arrayContaining(['properties', 'items', 'x-kubernetes-validations', '$ref']));
  });

  test('OpenAPI v2 has its paths, in JSON and in the protobuf kubectl ≤ 1.28 reads', async () => {
    const v2 = await call('GET', '/openapi/v2');
    expect(Object.keys(v2.json<{ paths: object }>().paths)).toContain('/apis/apiextensions.svc.io/v1/customresourcedefinitions/{name}/status');
    const pb = await call('GET', '/openapi/v2', undefined, { Accept: 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf' });
    expect(pb.status).toBe(200);
    expect(pb.body).toContain('io.svc.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps');
  });

  test('create answers the defaulted object with its reset status; GET reads it back', async () => {
    const created = await call('POST', base, { ...crd(), status: { storedVersions: ['v9'] } });
    expect(created.status).toBe(201);
    const obj = created.json<{ metadata: { generation: number }; spec: Record<string, unknown>; status: Record<string, unknown> }>();
    expect(obj.metadata.generation).toBe(1);
    expect(obj.spec.names).toEqual({ plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' });
    expect(obj.spec.conversion).toEqual({ strategy: 'None' });
    expect(obj.status).toEqual({ acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
    const got = await call('GET', `${base}/widgets.example.com`);
    expect(got.json()).toEqual(created.json());
  });

  test('an invalid CRD is a 422 with upstream field errors', async () => {
    const bad = crd('gadgets.example.com');
    bad.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size = {} as { type: string };
    const r = await call('POST', base, bad);
    expect(r.status).toBe(422);
    expect(r.json()).toMatchObject({
      reason: 'Invalid',
      message:
        'CustomResourceDefinition.apiextensions.svc.io "gadgets.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Required value: must not be empty for specified object fields',
      details: { causes: [{ reason: 'FieldValueRequired', field: 'spec.validation.openAPIV3Schema.properties[spec].properties[size].type' }] },
    });
  });

  test('/status takes conditions and keeps the spec', async () => {
    await call('POST', base, crd('things.example.com'));
    const r = await call('PATCH', `${base}/things.example.com/status`, { spec: { scope: 'Cluster' }, status: { conditions: [{ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }] } }, {
      'Content-Type': 'application/merge-patch+json',
    });
    expect(r.status).toBe(200);
    const obj = r.json<{ spec: { scope: string }; status: { conditions: unknown[] } }>();
    expect(obj.spec.scope).toBe('Namespaced');
    expect(obj.status.conditions).toEqual([{ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }]);
  });

  test('the Table is the default one: Name, Created At', async () => {
    await call('POST', base, crd('tables.example.com'));
    const r = await call('GET', `${base}/tables.example.com`, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.svc.io' });
    const table = r.json<{ columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] }>();
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Created At']);
    expect(table.rows[0].cells[0]).toBe('tables.example.com');
  });
});
