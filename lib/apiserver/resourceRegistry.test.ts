// The resource registry through the in-process HTTP side: install() serves a kind at once
// (routing, discovery, OpenAPI), remove() takes it out again, ends its watches, waits for its
// requests in flight and drops its metric series. The e2e counterpart (test/e2e/resourceRegistry)
// does the same against etcd on the running binary's start().
import pino from 'pino';
import { configmaps, FeatureGates } from '../api';
import { alwaysAllowAuthorizer } from '../auth/authorizer';
import { MemoryStorage } from '../etcd/memory';
import { builtinStrategies } from '../registry/builtin';
import { configMapStrategy } from '../registry/configmaps';
import { storeFactory } from '../registry/stores';
import { ApiServerMetrics } from './metrics';
import { ResourceRegistry } from './resourceRegistry';
import { createApiServer, storedObjectCounts, type ApiServer } from './server';
import { injectRequest, type InjectedResponse } from './testing/injectRequest';

// A built-in strategy served under a group of its own: a kind no configuration knows.
const notes = { ...configmaps, group: 'notes.example.com', kind: 'Note', listKind: 'NoteList', resource: 'notes', singular: 'note', shortNames: [] };
const noteStrategy = configMapStrategy.withResource(notes);
const key = { group: notes.group, version: 'v1', resource: 'notes' };
const collection = '/apis/notes.example.com/v1/namespaces/default/notes';

let registry: ResourceRegistry;
let metrics: ApiServerMetrics;
let api: ApiServer;

beforeEach(() => {
  metrics = new ApiServerMetrics();
  registry = new ResourceRegistry({ createStore: storeFactory(new MemoryStorage(), '/registry'), metrics });
  for (const s of builtinStrategies) registry.install(s);
  metrics.trackStoredObjects(storedObjectCounts(registry));
  api = createApiServer({
    resources: registry,
    metrics,
    authenticator: { authenticate: async () => ({ name: 'admin', groups: ['system:masters', 'system:authenticated'] }) },
    authorizer: alwaysAllowAuthorizer(),
    anonymousEnabled: false,
    requestTimeoutMs: 10_000,
    features: FeatureGates.parse(''),
    log: pino({ level: 'silent' }),
    maxRequestBodyBytes: 3 << 20,
    serverAddress: '127.0.0.1:6443',
    storageHealth: async () => null,
  });
});

afterEach(async () => {
  await api.close();
  await registry.close();
});

const get = (path: string): Promise<InjectedResponse> => injectRequest(api.handler, { method: 'GET', path });
const groupsListed = async (): Promise<string[]> => (JSON.parse((await get('/apis')).body.toString()) as { groups: { name: string }[] }).groups.map((g) => g.name);

describe('ResourceRegistry', () => {
  test('install serves a kind at once: routing, discovery and OpenAPI; remove takes it out of all three', async () => {
    expect((await get(collection)).status).toBe(404);
    const generation = registry.generation;
    registry.install(noteStrategy, { served: true });
    expect(registry.generation).not.toBe(generation);
    expect((await get(collection)).status).toBe(200);
    expect(await groupsListed()).toContain('notes.example.com');
    expect((await get('/openapi/v2')).body.toString()).toContain('/apis/notes.example.com/v1/namespaces/{namespace}/notes');

    await registry.remove(key);
    expect((await get(collection)).status).toBe(404);
    expect(await groupsListed()).not.toContain('notes.example.com');
    expect((await get('/openapi/v2')).body.toString()).not.toContain('notes.example.com');
    expect(registry.lookup(key.group, key.version, key.resource)).toBeUndefined();
  });

  test('a kind the resource configuration does not know is served only when install says so', async () => {
    registry.install(noteStrategy);
    expect(registry.stores.some((s) => s.resource === notes)).toBe(true);
    expect((await get(collection)).status).toBe(404);
  });

  test('one resource is installed once; removing one that is not installed fails', async () => {
    registry.install(noteStrategy, { served: true });
    expect(() => registry.install(noteStrategy)).toThrow('notes.example.com/v1/notes is already installed');
    await registry.remove(key);
    await expect(registry.remove(key)).rejects.toThrow('notes.example.com/v1/notes is not installed');
  });

  test('remove ends the open watches, then waits for the requests in flight before it stops the cache', async () => {
    const store = registry.install(noteStrategy, { served: true });
    let cacheClosed = false;
    const close = store.cache!.close.bind(store.cache);
    store.cache!.close = async () => {
      cacheClosed = true;
      await close();
    };
    const installed = registry.lookup(key.group, key.version, key.resource)!;
    let watchEnded = false;
    installed.watches.register(() => (watchEnded = true));
    expect(installed.requests.add()).toBe(true);
    let removed = false;
    const removal = registry.remove(key).then(() => (removed = true));
    expect(watchEnded).toBe(true);
    await new Promise((r) => setImmediate(r));
    // Refused from now on: a request that looked the resource up just before gets 404.
    expect(installed.requests.add()).toBe(false);
    expect(removed).toBe(false);
    expect(cacheClosed).toBe(false);
    installed.requests.done();
    await removal;
    expect(cacheClosed).toBe(true);
  });

  test("remove drops the resource's metric series", async () => {
    registry.install(noteStrategy, { served: true });
    metrics.watchCacheResourceVersion.set({ group: notes.group, resource: 'notes' }, 7);
    metrics.watchCacheEventsReceived.inc({ group: notes.group, resource: 'notes' }, 1);
    const scrape = async (): Promise<string> => metrics.registry.metrics();
    expect(await scrape()).toMatch(/apiserver_storage_objects\{resource="notes\.notes\.example\.com"\} 0/);
    expect(await scrape()).toContain('apiserver_watch_cache_resource_version{group="notes.example.com",resource="notes"} 7');
    await registry.remove(key);
    const text = await scrape();
    expect(text).not.toContain('notes.example.com');
    expect(text).toMatch(/apiserver_storage_objects\{resource="configmaps"\}/);
  });
});
