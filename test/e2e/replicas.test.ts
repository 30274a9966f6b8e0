// Two apiserver replicas on one etcd share nothing but etcd: a write through one is seen by a
// watch on the other, and a continue token from one pages on the other.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { ApiServerProcess, freePort, startCluster, TestCluster } from './support/apiserver';

let c: TestCluster;
let b: ApiServerProcess;
const collection = '/api/v1/namespaces/replicas/serviceaccounts';

beforeAll(async () => {
  c = await startCluster();
  // The second replica serves the first one's PKI, as a deployment's replicas would.
  b = new ApiServerProcess(mkdtempSync(join(c.dir, 'replica-')), await freePort(), c.etcd.endpoint, [], join(c.dir, 'pki'));
  await b.start();
  await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'replicas' } } });
});
afterAll(async () => {
  await b?.stop();
  await c?.stop();
});

test('a write through one replica reaches a watch on the other, in order', async () => {
  const start = (await b.request('GET', collection)).json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
  const w = b.watch(`${collection}?watch=true&resourceVersion=${start}`);
  for (let i = 0; i < 10; i++) await c.apiserver.request('POST', collection, { body: { metadata: { name: `r${i}` } } });
  const events = await w.waitFor((e) => e.length >= 10);
  w.close();
  expect(events.map((e) => e.object.metadata?.name)).toEqual(Array.from({ length: 10 }, (_, i) => `r${i}`));
});

test('a continue token from one replica pages on the other at the same revision', async () => {
  const first = (await c.apiserver.request('GET', `${collection}?limit=4`)).json<{ metadata: { resourceVersion: string; continue: string }; items: unknown[] }>();
  const rest = await b.request('GET', `${collection}?limit=100&continue=${encodeURIComponent(first.metadata.continue)}`);
  expect(rest.status).toBe(200);
  const l = rest.json<{ metadata: { resourceVersion: string }; items: { metadata: { name: string } }[] }>();
  expect(l.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
  expect(first.items.length + l.items.length).toBe(10);
});

test('optimistic concurrency holds across replicas', async () => {
  const obj = (await c.apiserver.request('GET', `${collection}/r0`)).json<Record<string, unknown>>();
  expect((await b.request('PUT', `${collection}/r0`, { body: { ...obj, automountServiceAccountToken: true } })).status).toBe(200);
  const stale = await c.apiserver.request('PUT', `${collection}/r0`, { body: { ...obj, automountServiceAccountToken: false } });
  expect(stale.status).toBe(409);
});
