// ConfigMaps through the real processes: raw HTTPS and kubectl, upstream's validation messages,
// list/watch, and removal with their namespace by the controller manager's namespace controller.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, startCluster, TestCluster } from './support/apiserver';
import { type ControllerManagerProcess, startControllerManager } from './support/controllerManager';

let c: TestCluster;
let cm: ControllerManagerProcess;
beforeAll(async () => {
  c = await startCluster();
  cm = await startControllerManager(c);
  expect((await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'conf' } } })).status).toBe(201);
}, 60_000);
afterAll(async () => {
  await cm?.stop();
  await c?.stop();
});

const base = '/api/v1/namespaces/conf/configmaps';
const configMap = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, ...extra });
const immutableMsg = 'field is immutable when `immutable` is set';

async function kubectl(args: string[], input?: string): Promise<string> {
  const r = await c.apiserver.kubectl(args, { input });
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

describe('configmaps over HTTPS', () => {
  test('create with data and base64 binaryData, get, update, delete answers a Status', async () => {
    const api = c.apiserver;
    const bytes = Buffer.from([0, 1, 0xfe, 0xff]).toString('base64');
    const created = await api.request('POST', base, { body: configMap('app', { data: { 'app.conf': 'x=1' }, binaryData: { blob: bytes } }) });
    expect(created.status).toBe(201);
    expect(created.json()).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'app', namespace: 'conf' }, data: { 'app.conf': 'x=1' }, binaryData: { blob: bytes } });

    const got = await api.request('GET', `${base}/app`);
    expect(got.json()).toMatchObject({ binaryData: { blob: bytes } });
    // PUT without a resourceVersion is allowed (unconditional), as upstream.
    const put = await api.request('PUT', `${base}/app`, { body: configMap('app', { data: { 'app.conf': 'x=2' } }) });
    expect(put.status).toBe(200);
    expect(put.json()).toMatchObject({ data: { 'app.conf': 'x=2' } });
    expect(put.json()).not.toHaveProperty('binaryData');
    // PUT never creates.
    expect((await api.request('PUT', `${base}/nothing`, { body: configMap('nothing') })).status).toBe(404);

    const del = await api.request('DELETE', `${base}/app`);
    expect(del.status).toBe(200);
    expect(del.json()).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'app', kind: 'configmaps' } });
  });

  test.each([
    [
      'a bad key',
      configMap('bad', { data: { 'bad key': 'v' } }),
      `ConfigMap "bad" is invalid: data[bad key]: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
      'data[bad key]',
    ],
    ['a key in both bags', configMap('dup', { data: { k: 'v' }, binaryData: { k: 'dg==' } }), 'ConfigMap "dup" is invalid: data[k]: Invalid value: "k": duplicate of key present in binaryData', 'data[k]'],
    ['.. as a key', configMap('dots', { binaryData: { '..': '' } }), `ConfigMap "dots" is invalid: binaryData[..]: Invalid value: "..": must not be '..'`, 'binaryData[..]'],
    ['more than 1 MiB', configMap('big', { data: { a: 'x'.repeat(1024 * 1024), b: 'y' } }), 'ConfigMap "big" is invalid: []: Too long: may not be more than 1048576 bytes', '[]'],
  ])('%s is refused with 422 and upstream’s message', async (_name, body, message, field) => {
    const r = await c.apiserver.request('POST', base, { body });
    expect(r.status).toBe(422);
    expect(r.json()).toMatchObject({ reason: 'Invalid', code: 422, message, details: { kind: 'ConfigMap', causes: [{ field }] } });
  });

  test('an immutable ConfigMap keeps its data and stays immutable; metadata still changes', async () => {
    const api = c.apiserver;
    expect((await api.request('POST', base, { body: configMap('frozen', { immutable: true, data: { a: 'b' } }) })).status).toBe(201);
    const changed = await api.request('PATCH', `${base}/frozen`, { body: { data: { a: 'c' } }, contentType: 'application/merge-patch+json' });
    expect(changed.status).toBe(422);
    expect(changed.json()).toMatchObject({ reason: 'Invalid', message: `ConfigMap "frozen" is invalid: data: Forbidden: ${immutableMsg}` });
    const thawed = await api.request('PATCH', `${base}/frozen`, { body: { immutable: false }, contentType: 'application/merge-patch+json' });
    expect(thawed.status).toBe(422);
    expect(thawed.json()).toMatchObject({ message: `ConfigMap "frozen" is invalid: immutable: Forbidden: ${immutableMsg}` });
    const labelled = await api.request('PATCH', `${base}/frozen`, { body: { metadata: { labels: { tier: 'x' } } }, contentType: 'application/merge-patch+json' });
    expect(labelled.status).toBe(200);
    expect(labelled.json()).toMatchObject({ immutable: true, data: { a: 'b' }, metadata: { labels: { tier: 'x' } } });
  });

  test('list and watch', async () => {
    const api = c.apiserver;
    const list = await api.request('GET', base);
    expect(list.json()).toMatchObject({ kind: 'ConfigMapList', apiVersion: 'v1' });
    const rv = list.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
    const w = api.watch(`${base}?watch=true&resourceVersion=${rv}`);
    try {
      expect((await api.request('POST', base, { body: configMap('watched', { data: { a: '1' } }) })).status).toBe(201);
      expect((await api.request('DELETE', `${base}/watched`)).status).toBe(200);
      const events = await w.waitFor((ev) => ev.some((e) => e.type === 'DELETED' && e.object.metadata?.name === 'watched'));
      expect(events.filter((e) => e.object.metadata?.name === 'watched').map((e) => [e.type, e.object.kind])).toEqual([
        ['ADDED', 'ConfigMap'],
        ['DELETED', 'ConfigMap'],
      ]);
    } finally {
      w.close();
    }
    const all = await api.request('GET', '/api/v1/configmaps?labelSelector=tier%3Dx');
    expect(all.json<{ items: { metadata: { name: string } }[] }>().items.map((i) => i.metadata.name)).toEqual(['frozen']);
  });
});

describe('configmaps with kubectl', () => {
  test('api-resources lists configmaps with the short name cm', async () => {
    expect(await kubectl(['api-resources'])).toMatch(/configmaps\s+cm\s+v1\s+true\s+ConfigMap/);
  });

  test('create --from-literal and --from-file, get cm, apply -f', async () => {
    await kubectl(['create', 'configmap', 'lit', '-n', 'conf', '--from-literal=a=b', '--from-literal=c=d']);
    const file = join(c.dir, 'settings.ini');
    writeFileSync(file, '[main]\nx=1\n');
    await kubectl(['create', 'configmap', 'file', '-n', 'conf', `--from-file=${file}`]);
    expect(JSON.parse(await kubectl(['get', 'cm', 'lit', '-n', 'conf', '-o', 'json']))).toMatchObject({ data: { a: 'b', c: 'd' } });
    expect(JSON.parse(await kubectl(['get', 'configmap', 'file', '-n', 'conf', '-o', 'json']))).toMatchObject({ data: { 'settings.ini': '[main]\nx=1\n' } });
    const table = await kubectl(['get', 'cm', '-n', 'conf']);
    // Upstream's columns: NAME, DATA (keys of data and binaryData), AGE.
    expect(table).toMatch(/^NAME\s+DATA\s+AGE\n/);
    expect(table).toMatch(/^lit\s+2\s+\S+$/m);
    expect(table).toMatch(/^file\s+1\s+\S+$/m);
    const names = (await kubectl(['get', 'cm', '-n', 'conf', '-o', 'name'])).trim().split('\n');
    expect(names).toEqual(expect.arrayContaining(['configmap/lit', 'configmap/file']));

    const manifest = (v: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  namespace: conf\ndata:\n  key: ${v}\n`;
    expect(await kubectl(['apply', '-f', '-'], manifest('one'))).toContain('configmap/applied created');
    expect(await kubectl(['apply', '-f', '-'], manifest('two'))).toContain('configmap/applied configured');
    expect(JSON.parse(await kubectl(['get', 'cm', 'applied', '-n', 'conf', '-o', 'json']))).toMatchObject({ data: { key: 'two' } });
  });

  test('kubectl shows the immutable refusal', async () => {
    await kubectl(['create', 'configmap', 'locked', '-n', 'conf', '--from-literal=a=b']);
    await kubectl(['patch', 'cm', 'locked', '-n', 'conf', '--type=merge', '-p', '{"immutable":true}']);
    const r = await c.apiserver.kubectl(['patch', 'cm', 'locked', '-n', 'conf', '--type=merge', '-p', '{"data":{"a":"z"}}']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`The ConfigMap "locked" is invalid: data: Forbidden: ${immutableMsg}`);
  });
});

test('deleting the namespace removes its ConfigMaps', async () => {
  const api = c.apiserver;
  expect((await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'doomed' } } })).status).toBe(201);
  for (const name of ['one', 'two']) {
    expect((await api.request('POST', '/api/v1/namespaces/doomed/configmaps', { body: configMap(name, { data: { a: name } }) })).status).toBe(201);
  }
  expect((await api.request('DELETE', '/api/v1/namespaces/doomed')).status).toBe(200);
  await eventually(async () => (await api.request('GET', '/api/v1/namespaces/doomed')).status === 404, 30_000, 'the namespace and its ConfigMaps to be removed');
  const left = await api.request('GET', '/api/v1/configmaps');
  expect(left.json<{ items: { metadata: { namespace: string } }[] }>().items.filter((i) => i.metadata.namespace === 'doomed')).toEqual([]);
}, 40_000);
