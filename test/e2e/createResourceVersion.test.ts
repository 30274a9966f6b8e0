// A create carrying metadata.resourceVersion, through the real server: "" and "0" mean unset,
// dry-run does not check, anything else is 400 BadRequest with upstream's message (never a 500).
import { startCluster, TestCluster } from './support/apiserver';

let c: TestCluster;
const collection = '/api/v1/namespaces/default/serviceaccounts';

beforeAll(async () => {
  c = await startCluster();
});
afterAll(async () => {
  await c?.stop();
});

test.each<[string, string, string, number]>([
  ['a numeric resourceVersion', 'rv-5', '5', 400],
  ['a non-numeric resourceVersion', 'rv-abc', 'abc', 400],
  ['a huge resourceVersion', 'rv-huge', '99999999999999999999999', 400],
  ['resourceVersion "0" (unset)', 'rv-0', '0', 201],
  ['an empty resourceVersion (unset)', 'rv-empty', '', 201],
])('create with %s (%s)', async (_n, name, resourceVersion, want) => {
  const r = await c.apiserver.request('POST', collection, { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, resourceVersion } } });
  expect(r.status).toBe(want);
  if (want === 400) {
    expect(r.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'resourceVersion should not be set on objects to be created',
      reason: 'BadRequest',
      code: 400,
    });
    expect((await c.apiserver.request('GET', `${collection}/${name}`)).status).toBe(404);
  } else {
    expect(r.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion).toMatch(/^[1-9][0-9]*$/);
  }
});

test('dry-run skips the check and stores nothing', async () => {
  const r = await c.apiserver.request('POST', `${collection}?dryRun=All`, { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'rv-dry', resourceVersion: '5' } } });
  expect(r.status).toBe(201);
  expect((await c.apiserver.request('GET', `${collection}/rv-dry`)).status).toBe(404);
});
