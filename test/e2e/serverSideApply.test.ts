// Field ownership (metadata.managedFields) through the real server: every write records who set
// what; GET, the watch stream and the audit log carry it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster, TestCluster } from './support/apiserver';
import { auditEventsOf } from './support/auditLog';

let c: TestCluster;
let logPath: string;
const ns = 'ssa';
const saPath = `/api/v1/namespaces/${ns}/serviceaccounts`;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-ssa-'));
  logPath = join(dir, 'audit.log');
  writeFileSync(join(dir, 'policy.yaml'), 'apiVersion: audit.svc.io/v1\nkind: Policy\nrules:\n- level: RequestResponse\n  resources: [{group: "", resources: ["serviceaccounts"]}]\n');
  c = await startCluster([`--audit-log-path=${logPath}`, `--audit-policy-file=${join(dir, 'policy.yaml')}`]);
  expect((await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status).toBe(201);
}, 60_000);
afterAll(async () => {
  await c?.stop();
});

interface Entry {
  manager: string;
  operation: string;
  apiVersion: string;
  time: string;
  fieldsType: string;
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}
type Obj = { metadata: { resourceVersion: string; managedFields?: Entry[] } } & Record<string, unknown>;

describe('managedFields on non-apply writes', () => {
  test('create records an Update entry for fieldManager; GET, watch and audit log show it', async () => {
    const api = c.apiserver;
    const watch = api.watch(`${saPath}?watch=1`);
    const created = await api.request('POST', `${saPath}?fieldManager=creator`, {
      body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'a', labels: { team: 'x' } }, secrets: [{ name: 'reg' }] },
    });
    expect(created.status).toBe(201);
    const mf = created.json<Obj>().metadata.managedFields!;
    expect(mf).toEqual([
      {
        manager: 'creator',
        operation: 'Update',
        apiVersion: 'v1',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:team': {} } }, 'f:secrets': { '.': {}, 'k:{"name":"reg"}': { '.': {}, 'f:name': {} } } },
      },
    ]);
    const got = await api.request('GET', `${saPath}/a`);
    expect(got.json<Obj>().metadata.managedFields).toEqual(mf);
    const events = await watch.waitFor((evs) => evs.some((e) => e.object.metadata?.name === 'a'));
    expect((events.find((e) => e.object.metadata?.name === 'a')!.object as unknown as Obj).metadata.managedFields).toEqual(mf);
    watch.close();
    const audit = await auditEventsOf(logPath, String(created.headers['audit-id']));
    expect((audit.find((e) => e.stage === 'ResponseComplete')!.responseObject as Obj).metadata.managedFields).toEqual(mf);
  });

  test('the User-Agent product names the manager; a changed field moves to its writer', async () => {
    const api = c.apiserver;
    const created = await api.request('POST', saPath, {
      headers: { 'User-Agent': 'my-tool/v1.2.3 (linux/amd64)' },
      body: { metadata: { name: 'b', labels: { a: '1', b: '2' } } },
    });
    expect(created.status).toBe(201);
    expect(created.json<Obj>().metadata.managedFields!.map((e) => e.manager)).toEqual(['my-tool']);
    const patched = await api.request('PATCH', `${saPath}/b?fieldManager=other`, {
      contentType: 'application/merge-patch+json',
      body: { metadata: { labels: { a: 'changed' } } },
    });
    expect(patched.status).toBe(200);
    const mf = patched.json<Obj>().metadata.managedFields!;
    expect(mf.map((e) => [e.manager, e.fieldsV1])).toEqual([
      ['my-tool', { 'f:metadata': { 'f:labels': { '.': {}, 'f:b': {} } } }],
      ['other', { 'f:metadata': { 'f:labels': { 'f:a': {} } } }],
    ]);
  });

  test('managedFields [{}] in an update clears them; invalid ones in a body are ignored', async () => {
    const api = c.apiserver;
    expect((await api.request('POST', `${saPath}?fieldManager=m`, { body: { metadata: { name: 'c', labels: { a: '1' } } } })).status).toBe(201);
    const bad = await api.request('PATCH', `${saPath}/c?fieldManager=m2`, {
      contentType: 'application/merge-patch+json',
      body: { metadata: { labels: { b: '1' }, managedFields: [{ manager: 'x', operation: 'Bogus', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }] } },
    });
    expect(bad.status).toBe(200);
    expect(bad.json<Obj>().metadata.managedFields!.map((e) => e.manager)).toEqual(['m', 'm2']);
    const reset = await api.request('PATCH', `${saPath}/c`, { contentType: 'application/merge-patch+json', body: { metadata: { managedFields: [{}] } } });
    expect(reset.status).toBe(200);
    expect(reset.json<Obj>().metadata.managedFields).toBeUndefined();
  });

  test('a fieldManager over 128 bytes is refused with upstream message', async () => {
    const r = await c.apiserver.request('POST', `${saPath}?fieldManager=${'x'.repeat(129)}`, { body: { metadata: { name: 'd' } } });
    expect(r.status).toBe(422);
    expect(r.json<{ message: string }>().message).toBe('CreateOptions.meta.svc.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes');
  });
});
