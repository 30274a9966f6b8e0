// Every write (POST, PUT, merge and JSON PATCH, apply) answers through one path: compact JSON is
// the text the serving cache found in the bytes the store wrote, never the object serialised
// again, and it is exactly what a GET of that revision serves. A GET of an unchanged revision is
// served from the cache's text (no parse, no serialisation).
import { MemoryStorage } from '../../etcd/memory';
import { builtinStrategies } from '../../registry/builtin';
import { createStores } from '../../registry/stores';
import { startInProcessServer, type InProcessServer } from '../testing/inProcessServer';

const path = '/api/v1/namespaces/default/serviceaccounts';
const json = { 'Content-Type': 'application/json' };

let storage: MemoryStorage;
let s: InProcessServer;

beforeEach(() => {
  storage = new MemoryStorage();
  s = startInProcessServer(createStores(storage, builtinStrategies, '/registry', { watchCache: false }));
});

afterEach(async () => {
  jest.restoreAllMocks();
  await s.close();
  await storage.close();
});

/** The response to a write, and the JSON.stringify calls on an object of the revision it wrote. */
async function write(method: string, url: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string; serialised: number }> {
  const stringify = jest.spyOn(JSON, 'stringify');
  const r = await s.request({ method, path: url, headers, body: Buffer.from(body) });
  const text = r.body.toString();
  const rv = (JSON.parse(text) as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
  const serialised = stringify.mock.calls.filter(([v]) => {
    const meta = (v as { metadata?: { resourceVersion?: unknown } } | null)?.metadata;
    return typeof v === 'object' && meta?.resourceVersion === rv;
  }).length;
  stringify.mockRestore();
  return { status: r.status, text, serialised };
}

async function get(name: string): Promise<string> {
  const r = await s.request({ method: 'GET', path: `${path}/${name}` });
  expect(r.status).toBe(200);
  return r.body.toString();
}

test('create, update, patch and apply answer with the written text, which the next GET serves', async () => {
  const answered = async (w: { status: number; text: string; serialised: number }): Promise<string> => {
    expect(w.status).toBeLessThan(300);
    expect(w.serialised).toBe(0);
    expect(await get('w')).toBe(w.text);
    return w.text;
  };
  const created = await answered(await write('POST', path, json, '{"metadata":{"name":"w","labels":{"a":"1"}}}'));
  const current = JSON.parse(created) as { metadata: Record<string, unknown> };
  await answered(await write('PUT', `${path}/w`, json, JSON.stringify({ ...current, metadata: { ...current.metadata, labels: { a: '2' } } })));
  await answered(await write('PATCH', `${path}/w`, { 'Content-Type': 'application/merge-patch+json' }, '{"metadata":{"labels":{"b":"3"}}}'));
  await answered(await write('PATCH', `${path}/w`, { 'Content-Type': 'application/json-patch+json' }, '[{"op":"add","path":"/metadata/labels/c","value":"4"}]'));
  const applied = await answered(
    await write(
      'PATCH',
      `${path}/w?fieldManager=tester`,
      { 'Content-Type': 'application/apply-patch+yaml' },
      '{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"w","labels":{"d":"5"}}}',
    ),
  );
  expect(JSON.parse(applied).metadata.labels).toEqual({ a: '2', b: '3', c: '4', d: '5' });
});

test('a GET of an unchanged object is served from the cached text', async () => {
  await write('POST', path, json, '{"metadata":{"name":"g"}}');
  const first = await get('g');
  const parse = jest.spyOn(JSON, 'parse');
  const stringify = jest.spyOn(JSON, 'stringify');
  expect(await get('g')).toBe(first);
  expect(parse).not.toHaveBeenCalled();
  expect(stringify).not.toHaveBeenCalled();
});

test('Tables and pretty JSON of a GET are made from the served object', async () => {
  await write('POST', path, json, '{"metadata":{"name":"t"}}');
  const compact = JSON.parse(await get('t')) as unknown;
  const pretty = await s.request({ method: 'GET', path: `${path}/t?pretty=true` });
  expect(JSON.parse(pretty.body.toString())).toEqual(compact);
  const table = await s.request({ method: 'GET', path: `${path}/t`, headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
  expect(JSON.parse(table.body.toString())).toMatchObject({ kind: 'Table', rows: [{ cells: ['t', expect.anything(), expect.anything()] }] });
});
