// A kind installed on a running server, over real etcd, and removed again (issue 29 item 1): the
// server runs in this process (cmd/apiserver's start()) so the test reaches its resource
// registry, as custom resources will (issue 30). Installing makes the kind served everywhere at
// once: discovery, OpenAPI v2 and v3, create/get/list/watch, Table columns, metrics. Removing
// ends its open watches cleanly, lets a request in flight finish, and takes it out again: 404 as
// an unknown resource, gone from discovery, OpenAPI and the metrics.
import { mkdtempSync, rmSync } from 'node:fs';
import * as https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registeredResources, start, type RunningApiServer } from '../../cmd/apiserver/main';
import { apiserverFlags, toOptions } from '../../cmd/apiserver/options';
import { parseFlags } from '../../cmd/flagSet';
import { startEtcd, type EtcdServer } from '../../lib/etcd/testing/etcdServer';
import type { GenericStore } from '../../lib/registry/store';
import { systemContext } from '../../lib/registry/stores';
import { cronTabStrategy } from './support/cronTabs';
import { ApiServerProcess, eventually, type WatchEventLine } from './support/apiserver';

const group = 'stable.example.com';
const gv = `/apis/${group}/v1`;
const collection = `${gv}/namespaces/default/crontabs`;
const svcTable = 'application/json;as=Table;v=v1;g=meta.svc.io';
const aggregated = 'application/json;g=apidiscovery.svc.io;v=v2;as=APIGroupDiscoveryList';

let etcd: EtcdServer;
let dir: string;
let running: RunningApiServer;
let api: ApiServerProcess;
let store: GenericStore;

beforeAll(async () => {
  etcd = await startEtcd();
  dir = mkdtempSync(join(tmpdir(), 'svc-registry-'));
  const argv = [
    `--etcd-servers=${etcd.endpoint}`,
    '--bind-address=127.0.0.1',
    '--secure-port=0',
    `--cert-dir=${join(dir, 'pki')}`,
    `--write-kubeconfig=${join(dir, 'admin.kubeconfig')}`,
    '--etcd-compaction-interval=0',
  ];
  const lines: string[] = [];
  running = await start(toOptions(parseFlags(argv, apiserverFlags).values, registeredResources()), {
    logDestination: { write: (line: string) => void lines.push(line) },
  });
  await running.started;
  api = new ApiServerProcess(dir, running.address.port, etcd.endpoint);
  api.attach();
});

afterAll(async () => {
  await running?.shutdown();
  await etcd?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface OpenWatch {
  events: WatchEventLine[];
  status: Promise<number>;
  /** 'clean' when the stream ended with its terminator; else what cut it. */
  ended: Promise<string>;
}

function openWatch(path: string): OpenWatch {
  const events: WatchEventLine[] = [];
  let status!: (code: number) => void;
  let ended!: (how: string) => void;
  const watch: OpenWatch = { events, status: new Promise((r) => (status = r)), ended: new Promise((r) => (ended = r)) };
  const req = https.request(`${api.url}${path}`, { method: 'GET', ...api.adminTls() }, (res) => {
    status(res.statusCode ?? 0);
    let buf = '';
    res.on('data', (c: Buffer) => {
      buf += c.toString('utf8');
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        if (buf.slice(0, i).trim()) events.push(JSON.parse(buf.slice(0, i)) as WatchEventLine);
        buf = buf.slice(i + 1);
      }
    });
    res.on('end', () => ended('clean'));
    res.on('error', (e) => ended(`error: ${e.message}`));
    res.on('aborted', () => ended('aborted'));
  });
  req.on('error', (e) => ended(`error: ${e.message}`));
  req.end();
  return watch;
}

const cronTab = (name: string, replicas: number): Record<string, unknown> => ({
  apiVersion: `${group}/v1`,
  kind: 'CronTab',
  metadata: { name },
  spec: { cronSpec: '* * * * */5', image: 'my-cron-image', replicas },
});

async function groupNames(): Promise<string[]> {
  const list = (await api.request('GET', '/apis')).json<{ groups: { name: string }[] }>();
  return list.groups.map((g) => g.name);
}

async function aggregatedGroupNames(): Promise<string[]> {
  const list = (await api.request('GET', '/apis', { headers: { Accept: aggregated } })).json<{ items: { metadata: { name: string } }[] }>();
  return list.items.map((g) => g.metadata.name);
}

async function metricsText(): Promise<string> {
  return (await api.request('GET', '/metrics')).body;
}

const storedObjectsLine = /^apiserver_storage_objects\{resource="crontabs\.stable\.example\.com"\} (\d+)$/m;
const cacheRevisionLine = /^apiserver_watch_cache_resource_version\{group="stable\.example\.com",resource="crontabs"\} \d+$/m;

describe('a resource installed and removed while the server runs', () => {
  test('installed: discovery, OpenAPI v2 and v3, create/get/list/watch, Table columns and metrics include it', async () => {
    expect((await api.request('GET', collection)).status).toBe(404);
    expect(await groupNames()).not.toContain(group);

    store = running.resources.install(cronTabStrategy, { served: true });

    // Discovery, both forms.
    expect(await groupNames()).toContain(group);
    expect(await aggregatedGroupNames()).toContain(group);
    const resources = (await api.request('GET', gv)).json<{ resources: { name: string; kind: string; namespaced: boolean; shortNames?: string[] }[] }>();
    expect(resources.resources).toEqual([expect.objectContaining({ name: 'crontabs', kind: 'CronTab', namespaced: true, shortNames: ['ct'] })]);

    // OpenAPI v2 and v3.
    const v2 = (await api.request('GET', '/openapi/v2')).json<{ paths: Record<string, unknown>; definitions: Record<string, unknown> }>();
    expect(Object.keys(v2.paths)).toContain(`${gv}/namespaces/{namespace}/crontabs/{name}`);
    expect(Object.keys(v2.definitions)).toContain('com.example.stable.v1.CronTab');
    const v3 = (await api.request('GET', '/openapi/v3')).json<{ paths: Record<string, { serverRelativeURL: string }> }>();
    expect(Object.keys(v3.paths)).toContain(`apis/${group}/v1`);
    const v3doc = await api.request('GET', v3.paths[`apis/${group}/v1`].serverRelativeURL);
    expect(v3doc.status).toBe(200);
    expect(Object.keys(v3doc.json<{ paths: Record<string, unknown> }>().paths)).toContain(`${gv}/namespaces/{namespace}/crontabs`);

    // create, get, list, watch.
    const created = await api.request('POST', collection, { body: cronTab('ct1', 1) });
    expect(created.status).toBe(201);
    const got = await api.request('GET', `${collection}/ct1`);
    expect(got.status).toBe(200);
    expect(got.json()).toMatchObject({ apiVersion: `${group}/v1`, kind: 'CronTab', metadata: { name: 'ct1', namespace: 'default' }, spec: { replicas: 1 } });
    const list = (await api.request('GET', collection)).json<{ kind: string; items: { metadata: { name: string } }[]; metadata: { resourceVersion: string } }>();
    expect(list.kind).toBe('CronTabList');
    expect(list.items.map((i) => i.metadata.name)).toEqual(['ct1']);
    const watch = openWatch(`${collection}?watch=true&resourceVersion=${list.metadata.resourceVersion}`);
    expect(await watch.status).toBe(200);
    expect((await api.request('POST', collection, { body: cronTab('ct2', 2) })).status).toBe(201);
    await eventually(async () => watch.events.some((e) => e.type === 'ADDED' && e.object.metadata?.name === 'ct2'), 10_000, 'the watch to see ct2');

    // Table columns from the kind's strategy.
    const table = (await api.request('GET', collection, { headers: { Accept: svcTable } })).json<{ columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] }>();
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Spec', 'Replicas', 'Age']);
    expect(table.rows.map((r) => r.cells.slice(0, 3))).toEqual([
      ['ct1', '* * * * */5', 1],
      ['ct2', '* * * * */5', 2],
    ]);

    // Metrics: its stored objects and its watch cache.
    await eventually(async () => storedObjectsLine.exec(await metricsText())?.[1] === '2', 10_000, 'apiserver_storage_objects for crontabs');
    expect(await metricsText()).toMatch(cacheRevisionLine);
  });

  test('removed: its watch ends cleanly, a request in flight finishes, then it is gone from routing, discovery, OpenAPI and metrics', async () => {
    const list = (await api.request('GET', collection)).json<{ metadata: { resourceVersion: string } }>();
    const watch = openWatch(`${collection}?watch=true&resourceVersion=${list.metadata.resourceVersion}`);
    expect(await watch.status).toBe(200);

    // A GET of a resourceVersion not reached yet waits in the watch cache: in flight until a write comes.
    const inFlight = api.request('GET', `${collection}/ct1?resourceVersion=${Number(list.metadata.resourceVersion) + 1}`);
    const installed = running.resources.lookup(group, 'v1', 'crontabs')!;
    await eventually(async () => installed.requests.count === 1, 10_000, 'the GET to be in flight');

    let removed = false;
    const removal = running.resources.remove({ group, version: 'v1', resource: 'crontabs' }).then(() => (removed = true));

    // Its open watch ends with the stream's terminator, as upstream's when a CRD is deleted.
    expect(await watch.ended).toBe('clean');
    // New requests: 404 as for an unknown resource; discovery and OpenAPI no longer list it.
    expect((await api.request('GET', `${collection}/ct1`)).status).toBe(404);
    expect((await api.request('POST', collection, { body: cronTab('ct3', 3) })).status).toBe(404);
    expect((await api.request('GET', gv)).status).toBe(404);
    expect(await groupNames()).not.toContain(group);
    expect(await aggregatedGroupNames()).not.toContain(group);
    const v2 = (await api.request('GET', '/openapi/v2')).json<{ paths: Record<string, unknown>; definitions: Record<string, unknown> }>();
    expect(Object.keys(v2.paths).filter((p) => p.startsWith(gv))).toEqual([]);
    expect(Object.keys(v2.definitions)).not.toContain('com.example.stable.v1.CronTab');
    const v3 = (await api.request('GET', '/openapi/v3')).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(v3.paths)).not.toContain(`apis/${group}/v1`);
    expect((await api.request('GET', `/openapi/v3/apis/${group}/v1`)).status).toBe(404);

    // The request in flight holds the removal until it finishes; a write (in-process, the only way
    // in now) brings the revision it waits for, and it answers as if nothing had happened.
    expect(removed).toBe(false);
    await store.create(systemContext('default'), cronTab('ct3', 3));
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(answered.json()).toMatchObject({ kind: 'CronTab', metadata: { name: 'ct1' } });
    await removal;

    // Its metric series are gone with it.
    const text = await metricsText();
    expect(text).not.toMatch(storedObjectsLine);
    expect(text).not.toMatch(cacheRevisionLine);
    expect(running.resources.lookup(group, 'v1', 'crontabs')).toBeUndefined();
  });
});
