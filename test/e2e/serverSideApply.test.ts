// Field ownership (metadata.managedFields) through the real server: every write records who set
// what; GET, the watch stream and the audit log carry it.
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { startCluster, TestCluster } from './support/apiserver';
import { auditEventsOf } from './support/auditLog';
import { awaitAccess, kubectlCreate, role, roleBinding, user } from './support/rbac';
import { makeUserCert } from './support/users';
import { csrManifest, csrPath } from './support/csrs';
import { makeCsr } from './support/openssl';

let c: TestCluster;
let logPath: string;
const ns = 'ssa';
const saPath = `/api/v1/namespaces/${ns}/serviceaccounts`;

let dir: string | undefined;
beforeAll(async () => {
  const made = (dir = mkdtempSync(join(tmpdir(), 'svc-ssa-')));
  logPath = join(made, 'audit.log');
  writeFileSync(join(made, 'policy.yaml'), 'apiVersion: audit.svc.io/v1\nkind: Policy\nrules:\n- level: RequestResponse\n  resources: [{group: "", resources: ["serviceaccounts"]}]\n');
  c = await startCluster([`--audit-log-path=${logPath}`, `--audit-policy-file=${join(made, 'policy.yaml')}`]);
  expect((await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status).toBe(201);
}, 60_000);
afterAll(async () => {
  await c?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
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

  // Upstream's TestClearManagedFieldsWithUpdateEmptyList: a non-nil empty list resets too (the
  // reference and upstream's isResetManagedFields; the issue text said it should not), and the
  // object then stays untracked through later updates until an apply.
  test.each([
    ['PUT', 'application/json'],
    ['PATCH', 'application/merge-patch+json'],
    ['PATCH', 'application/strategic-merge-patch+json'],
  ])('managedFields [] through %s %s clears them, and updates then stay untracked', async (method, contentType) => {
    const api = c.apiserver;
    const name = `empty-${method.toLowerCase()}-${contentType.split('/')[1].split('-')[0]}`;
    const created = await api.request('POST', `${saPath}?fieldManager=m`, { body: { metadata: { name, labels: { a: '1' } } } });
    expect(created.json<Obj>().metadata.managedFields!.map((e) => e.manager)).toEqual(['m']);
    const keep = await api.request('PATCH', `${saPath}/${name}?fieldManager=k`, { contentType: 'application/merge-patch+json', body: { metadata: { labels: { k: '1' } } } });
    expect(keep.json<Obj>().metadata.managedFields!.map((e) => e.manager).sort()).toEqual(['k', 'm']);
    const body =
      method === 'PUT'
        ? { ...keep.json<Obj>(), metadata: { ...keep.json<Obj>().metadata, managedFields: [], labels: { a: '1', k: '1', b: '2' } } }
        : { metadata: { managedFields: [], labels: { b: '2' } } };
    const reset = await api.request(method, `${saPath}/${name}?fieldManager=r`, { contentType, body });
    expect(reset.status).toBe(200);
    expect(reset.json<Obj>().metadata.managedFields).toBeUndefined();
    expect(reset.json<{ metadata: { labels: Record<string, string> } }>().metadata.labels).toEqual({ a: '1', k: '1', b: '2' });
    const later = await api.request('PATCH', `${saPath}/${name}?fieldManager=l`, { contentType: 'application/merge-patch+json', body: { metadata: { labels: { c: '3' } } } });
    expect(later.json<Obj>().metadata.managedFields).toBeUndefined();
  });

  test('a JSON patch replacing managedFields with [] clears them', async () => {
    const api = c.apiserver;
    await api.request('POST', `${saPath}?fieldManager=m`, { body: { metadata: { name: 'empty-jsonpatch' } } });
    const r = await api.request('PATCH', `${saPath}/empty-jsonpatch`, {
      contentType: 'application/json-patch+json',
      body: [{ op: 'replace', path: '/metadata/managedFields', value: [] }],
    });
    expect(r.status).toBe(200);
    expect(r.json<Obj>().metadata.managedFields).toBeUndefined();
  });

  test('a fieldManager over 128 bytes is refused with upstream message', async () => {
    const r = await c.apiserver.request('POST', `${saPath}?fieldManager=${'x'.repeat(129)}`, { body: { metadata: { name: 'd' } } });
    expect(r.status).toBe(422);
    expect(r.json<{ message: string }>().message).toBe('CreateOptions.meta.svc.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes');
  });
});

const applyType = 'application/apply-patch+yaml';
const apply = (path: string, body: unknown, query = 'fieldManager=mgr', extra: { cert?: { cert: string; key: string } } = {}) =>
  c.apiserver.request('PATCH', `${path}?${query}`, { contentType: applyType, body, ...extra });
const sa = (name: string, rest: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name, ...meta },
  ...rest,
});
type StatusBody = { message: string; reason?: string; code: number; details?: { causes?: unknown[] } };

describe('server-side apply: request checks', () => {
  it.each<[string, () => Promise<{ status: number; body: string; json: <T>() => T }>, number, string, string | undefined]>([
    ['no fieldManager', () => apply(`${saPath}/e1`, sa('e1'), ''), 422, 'PatchOptions.meta.svc.io "" is invalid: fieldManager: Required value: is required for apply patch', 'Invalid'],
    [
      'force on a merge patch',
      () => c.apiserver.request('PATCH', `${saPath}/e1?force=true`, { contentType: 'application/merge-patch+json', body: {} }),
      422,
      'PatchOptions.meta.svc.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
      'Invalid',
    ],
    ['wrong version', () => apply(`${saPath}/e1`, { ...sa('e1'), apiVersion: 'v2' }), 400, 'Incorrect version specified in apply patch. Specified patch version: v2, expected: v1', 'BadRequest'],
    ['wrong kind', () => apply(`${saPath}/e1`, { ...sa('e1'), kind: 'Namespace' }), 400, 'invalid object type: /v1, Kind=Namespace', 'BadRequest'],
    [
      'managedFields in the body',
      () => apply(`${saPath}/e1`, sa('e1', {}, { managedFields: [] })),
      400,
      'metadata.managedFields must be nil',
      'BadRequest',
    ],
    ['undecodable YAML', () => apply(`${saPath}/e1`, 'a: [b'), 400, 'error decoding patch: ', 'BadRequest'],
    [
      'undeclared field: 500 without a reason',
      () => apply(`${saPath}/e1`, sa('e1', { foo: 1 }, { namespace: ns })),
      500,
      `failed to create typed patch object (${ns}/e1; /v1, Kind=ServiceAccount): .foo: field not declared in schema`,
      undefined,
    ],
  ])('%s', async (_n, send, code, message, reason) => {
    const r = await send();
    expect(r.status).toBe(code);
    const st = r.json<StatusBody>();
    if (message.endsWith(': ')) expect(st.message.startsWith(message)).toBe(true);
    else expect(st.message).toBe(message);
    expect(st.reason).toBe(reason);
  });

  it('lists apply-patch+yaml among the accepted patch types', async () => {
    const r = await c.apiserver.request('PATCH', `${saPath}/e1`, { contentType: 'application/xml', body: '<x/>' });
    expect(r.status).toBe(415);
    expect(r.json<StatusBody>().message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
    );
  });

  it('metadata.resourceVersion in the body is a precondition', async () => {
    expect((await apply(`${saPath}/rv`, sa('rv'))).status).toBe(201);
    const r = await apply(`${saPath}/rv`, sa('rv', {}, { resourceVersion: '1' }));
    expect(r.status).toBe(409);
    expect(r.json<StatusBody>().message).toBe(
      'Operation cannot be fulfilled on serviceaccounts "rv": the object has been modified; please apply your changes to the latest version and try again',
    );
  });
});

describe('server-side apply: merge and ownership', () => {
  it('creates a missing object (201) owned by the applier; a YAML body works', async () => {
    const r = await apply(`${saPath}/y1`, `apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: y1\n  labels:\n    a: "1"\nsecrets:\n- name: s1\n`);
    expect(r.status).toBe(201);
    expect(r.json<Obj>().metadata.managedFields).toEqual([
      {
        manager: 'mgr',
        operation: 'Apply',
        apiVersion: 'v1',
        time: expect.any(String),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { 'f:a': {} } }, 'f:secrets': { 'k:{"name":"s1"}': { '.': {}, 'f:name': {} } } },
      },
    ]);
    const again = await apply(`${saPath}/y1`, sa('y1', { secrets: [{ name: 's1' }] }, { labels: { a: '1' } }));
    expect(again.status).toBe(200);
    expect(again.json<Obj>().metadata.resourceVersion).toBe(r.json<Obj>().metadata.resourceVersion);
  });

  it('merges map lists by key, releases and removes omitted fields, keeps co-owned ones', async () => {
    expect((await apply(`${saPath}/m1`, sa('m1', { secrets: [{ name: 'a' }, { name: 'b' }] }, { labels: { x: '1', y: '2' } }), 'fieldManager=one')).status).toBe(201);
    const two = await apply(`${saPath}/m1`, sa('m1', { secrets: [{ name: 'c' }] }, { labels: { y: '2' } }), 'fieldManager=two');
    expect(two.status).toBe(200);
    expect(two.json<{ secrets: unknown[] }>().secrets).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    // one stops applying label y (co-owned by two: kept) and x (only one's: removed) and secret b.
    const one = await apply(`${saPath}/m1`, sa('m1', { secrets: [{ name: 'a' }] }), 'fieldManager=one');
    expect(one.status).toBe(200);
    const o = one.json<Obj & { secrets: unknown[] }>();
    expect(o.secrets).toEqual([{ name: 'a' }, { name: 'c' }]);
    expect((o.metadata as { labels?: unknown }).labels).toEqual({ y: '2' });
    // By manager: entries are ordered by time in seconds first (recordUpdate.test.ts), and the
    // three applies may straddle a second.
    const byManager = [...o.metadata.managedFields!].sort((a, b) => (a.manager! < b.manager! ? -1 : 1));
    expect(byManager.map((e) => [e.manager, e.operation, e.fieldsV1])).toEqual([
      ['one', 'Apply', { 'f:secrets': { 'k:{"name":"a"}': { '.': {}, 'f:name': {} } } }],
      ['two', 'Apply', { 'f:metadata': { 'f:labels': { 'f:y': {} } }, 'f:secrets': { 'k:{"name":"c"}': { '.': {}, 'f:name': {} } } }],
    ]);
  });

  it('first apply to an untracked object attributes its fields to before-first-apply', async () => {
    expect((await c.apiserver.request('POST', saPath, { body: sa('u1', {}, { labels: { old: 'x' } }) })).status).toBe(201);
    const cleared = await c.apiserver.request('PATCH', `${saPath}/u1`, { contentType: 'application/merge-patch+json', body: { metadata: { managedFields: [{}] } } });
    expect(cleared.json<Obj>().metadata.managedFields).toBeUndefined();
    const r = await apply(`${saPath}/u1`, sa('u1', {}, { labels: { new: 'y' } }));
    expect(r.json<Obj>().metadata.managedFields!.map((e) => [e.manager, e.operation, e.fieldsV1])).toEqual([
      ['mgr', 'Apply', { 'f:metadata': { 'f:labels': { 'f:new': {} } } }],
      ['before-first-apply', 'Update', { 'f:metadata': { 'f:labels': { '.': {}, 'f:old': {} } } }],
    ]);
  });
});

describe('server-side apply: conflicts', () => {
  beforeAll(async () => {
    const r = await c.apiserver.request('POST', `${saPath}?fieldManager=svcctl`, { body: sa('k1', { automountServiceAccountToken: true }, { labels: { a: '1', b: '1' } }) });
    expect(r.status).toBe(201);
  });

  it('one conflict: 409 with the exact body', async () => {
    const r = await apply(`${saPath}/k1`, sa('k1', { automountServiceAccountToken: false }));
    expect(r.status).toBe(409);
    expect(r.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "svcctl" using v1: .automountServiceAccountToken',
      reason: 'Conflict',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "svcctl" using v1', field: '.automountServiceAccountToken' }] },
      code: 409,
    });
  });

  it('several conflicts list every path under the manager', async () => {
    const r = await apply(`${saPath}/k1`, sa('k1', { automountServiceAccountToken: false }, { labels: { a: '2' } }));
    expect(r.status).toBe(409);
    expect(r.json<StatusBody>().message).toBe(
      'Apply failed with 2 conflicts: conflicts with "svcctl" using v1:\n- .automountServiceAccountToken\n- .metadata.labels.a',
    );
  });

  it('the same value is co-owned without conflict; force takes the field', async () => {
    const same = await apply(`${saPath}/k1`, sa('k1', {}, { labels: { b: '1' } }));
    expect(same.status).toBe(200);
    const forced = await apply(`${saPath}/k1`, sa('k1', { automountServiceAccountToken: false }, { labels: { b: '1' } }), 'fieldManager=mgr&force=true');
    expect(forced.status).toBe(200);
    const o = forced.json<Obj & { automountServiceAccountToken: boolean }>();
    expect(o.automountServiceAccountToken).toBe(false);
    expect(o.metadata.managedFields!.map((e) => [e.manager, e.operation, e.fieldsV1])).toEqual([
      ['mgr', 'Apply', { 'f:automountServiceAccountToken': {}, 'f:metadata': { 'f:labels': { 'f:b': {} } } }],
      ['svcctl', 'Update', { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {}, 'f:b': {} } } }],
    ]);
  });
});

// The installed kubectl minors sit beside the real kubectl binary as kubectl.1.NN.
function kubectlMinors(): { minor: string; binary: string }[] {
  const real = realpathSync(execFileSync('which', ['kubectl']).toString().trim());
  const out: { minor: string; binary: string }[] = [];
  for (let m = 27; m <= 33; m++) {
    const binary = join(dirname(real), `kubectl.1.${m}`);
    if (existsSync(binary)) out.push({ minor: `1.${m}`, binary });
  }
  return out;
}

const saYaml = (name: string, labels: Record<string, string>, extra = '') =>
  `apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: ${name}\n  namespace: ${ns}\n  labels:\n${Object.entries(labels)
    .map(([k, v]) => `    ${k}: "${v}"\n`)
    .join('')}${extra}`;

describe('kubectl apply --server-side (kubectl 1.32)', () => {
  const getSa = async (name: string) => (await c.apiserver.request('GET', `${saPath}/${name}`)).json<Obj & { metadata: { labels?: Record<string, string>; annotations?: Record<string, string> } }>();

  it('creates, updates, reports a conflict as upstream and --force-conflicts takes the field', async () => {
    const k = c.apiserver;
    const created = await k.kubectl(['apply', '--server-side', '-f', '-'], { input: saYaml('kssa', { team: 'a', tier: 'x' }) });
    expect(created).toMatchObject({ code: 0, stdout: 'serviceaccount/kssa serverside-applied\n' });
    let o = await getSa('kssa');
    expect(o.metadata.managedFields!.map((e) => [e.manager, e.operation])).toEqual([['kubectl', 'Apply']]);

    const updated = await k.kubectl(['apply', '--server-side', '-f', '-'], { input: saYaml('kssa', { team: 'b' }) });
    expect(updated).toMatchObject({ code: 0, stdout: 'serviceaccount/kssa serverside-applied\n' });
    o = await getSa('kssa');
    expect(o.metadata.labels).toEqual({ team: 'b' });

    const other = await k.request('PATCH', `${saPath}/kssa?fieldManager=svcctl`, { contentType: 'application/merge-patch+json', body: { metadata: { labels: { team: 'c' } } } });
    expect(other.status).toBe(200);
    const conflict = await k.kubectl(['apply', '--server-side', '-f', '-'], { input: saYaml('kssa', { team: 'd' }) });
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toContain('error: Apply failed with 1 conflict: conflict with "svcctl" using v1: .metadata.labels.team');
    expect(conflict.stderr).toContain('Please review the fields above--they currently have other managers.');

    const forced = await k.kubectl(['apply', '--server-side', '--force-conflicts', '-f', '-'], { input: saYaml('kssa', { team: 'd' }) });
    expect(forced).toMatchObject({ code: 0, stdout: 'serviceaccount/kssa serverside-applied\n' });
    o = await getSa('kssa');
    expect(o.metadata.labels).toEqual({ team: 'd' });
    expect(o.metadata.managedFields!.map((e) => [e.manager, e.operation, e.fieldsV1])).toEqual([
      ['kubectl', 'Apply', { 'f:metadata': { 'f:labels': { 'f:team': {} } } }],
    ]);
  });

  it('kubectl diff --server-side shows the change without writing it', async () => {
    const k = c.apiserver;
    expect((await k.kubectl(['apply', '--server-side', '-f', '-'], { input: saYaml('kdiff', { team: 'a' }) })).code).toBe(0);
    const before = (await getSa('kdiff')).metadata.resourceVersion;
    const same = await k.kubectl(['diff', '--server-side', '-f', '-'], { input: saYaml('kdiff', { team: 'a' }) });
    expect(same).toMatchObject({ code: 0, stdout: '' });
    const diff = await k.kubectl(['diff', '--server-side', '-f', '-'], { input: saYaml('kdiff', { team: 'b' }) });
    expect(diff.code).toBe(1);
    expect(diff.stdout).toMatch(/^-    team: a$/m);
    expect(diff.stdout).toMatch(/^\+    team: b$/m);
    expect((await getSa('kdiff')).metadata.resourceVersion).toBe(before);
  });

  it('client-side apply then --server-side: kubectl upgrades the client-side ownership and prunes the dropped label', async () => {
    const k = c.apiserver;
    const csa = await k.kubectl(['apply', '-f', '-'], { input: saYaml('kmig', { team: 'a', drop: 'me' }) });
    expect(csa).toMatchObject({ code: 0, stdout: 'serviceaccount/kmig created\n' });
    let o = await getSa('kmig');
    expect(o.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration']).toBeDefined();
    expect(o.metadata.managedFields!.map((e) => [e.manager, e.operation])).toEqual([['kubectl-client-side-apply', 'Update']]);

    // kubectl 1.32 applies (the server lets it take the fields the client-side record still
    // matches), records the annotation as kubectl-last-applied, folds kubectl-client-side-apply into
    // its Apply entry with a JSON patch of managedFields, and applies again: the dropped label goes.
    const ssa = await k.kubectl(['apply', '--server-side', '-f', '-'], { input: saYaml('kmig', { team: 'b' }) });
    expect(ssa).toEqual({ code: 0, stdout: 'serviceaccount/kmig serverside-applied\n', stderr: '' });
    o = await getSa('kmig');
    expect(o.metadata.labels).toEqual({ team: 'b' });
    expect(o.metadata.managedFields!.map((e) => [e.manager, e.operation])).toEqual([
      ['kubectl-last-applied', 'Apply'],
      ['kubectl', 'Apply'],
    ]);
    // The client-side record follows what kubectl applied server-side (upstream's lastAppliedUpdater).
    expect(JSON.parse(o.metadata.annotations!['kubectl.kubernetes.io/last-applied-configuration']).metadata.labels).toEqual({ team: 'b' });
  });
});

describe('kubectl client-side apply and diff (kubectl 1.32)', () => {
  it('apply records last-applied, prunes a removed label by three-way merge; diff shows pending changes', async () => {
    const k = c.apiserver;
    expect(await k.kubectl(['apply', '-f', '-'], { input: saYaml('kcsa', { keep: 'a', drop: 'b' }) })).toMatchObject({ code: 0, stdout: 'serviceaccount/kcsa created\n' });
    const diff = await k.kubectl(['diff', '-f', '-'], { input: saYaml('kcsa', { keep: 'a' }) });
    expect(diff.code).toBe(1);
    expect(diff.stdout).toMatch(/^-    drop: b$/m);
    expect(await k.kubectl(['apply', '-f', '-'], { input: saYaml('kcsa', { keep: 'a' }) })).toMatchObject({ code: 0, stdout: 'serviceaccount/kcsa configured\n' });
    const o = (await k.request('GET', `${saPath}/kcsa`)).json<{ metadata: { labels: unknown; managedFields: Entry[] } }>();
    expect(o.metadata.labels).toEqual({ keep: 'a' });
    expect(o.metadata.managedFields.map((e) => [e.manager, e.operation])).toEqual([['kubectl-client-side-apply', 'Update']]);
    expect(await k.kubectl(['diff', '-f', '-'], { input: saYaml('kcsa', { keep: 'a' }) })).toMatchObject({ code: 0, stdout: '' });
  });

  it('apply --prune -l deletes the labelled object no longer in the set', async () => {
    const k = c.apiserver;
    const args = ['apply', '--prune', '-l', 'set=p', '--prune-allowlist=core/v1/ServiceAccount', '-f', '-'];
    const both = `${saYaml('kp1', { set: 'p' })}---\n${saYaml('kp2', { set: 'p' })}`;
    expect((await k.kubectl(args, { input: both })).code).toBe(0);
    const one = await k.kubectl(args, { input: saYaml('kp1', { set: 'p' }) });
    expect(one).toMatchObject({ code: 0, stdout: 'serviceaccount/kp1 unchanged\nserviceaccount/kp2 pruned\n' });
    expect((await k.request('GET', `${saPath}/kp2`)).status).toBe(404);
  });
});

describe.each(kubectlMinors())('kubectl $minor apply --server-side', ({ minor, binary }) => {
  it('creates, updates and reports a conflict', async () => {
    const k = c.apiserver;
    const name = `kv${minor.replace('.', '-')}`;
    const created = await k.kubectl(['apply', '--server-side', '-f', '-'], { input: saYaml(name, { team: 'a' }), binary });
    expect(created).toMatchObject({ code: 0, stdout: `serviceaccount/${name} serverside-applied\n` });
    const updated = await k.kubectl(['apply', '--server-side', '-f', '-'], { input: saYaml(name, { team: 'b' }), binary });
    expect(updated.code).toBe(0);
    expect((await c.apiserver.request('GET', `${saPath}/${name}`)).json<{ metadata: { labels: unknown } }>().metadata.labels).toEqual({ team: 'b' });
    await k.request('PATCH', `${saPath}/${name}?fieldManager=svcctl`, { contentType: 'application/merge-patch+json', body: { metadata: { labels: { team: 'c' } } } });
    const conflict = await k.kubectl(['apply', '--server-side', '-f', '-'], { input: saYaml(name, { team: 'd' }), binary });
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "svcctl" using v1: .metadata.labels.team');
  });
});

describe('server-side apply: permissions, dryRun, fieldValidation', () => {
  it('creating through apply needs create as well as patch; patching an existing object does not', async () => {
    const api = c.apiserver;
    await kubectlCreate(api, [
      role(ns, 'patcher', [{ verbs: ['patch', 'get'], apiGroups: [''], resources: ['serviceaccounts'] }]),
      roleBinding(ns, 'patcher', { kind: 'Role', name: 'patcher' }, [user('patcher')]),
    ]);
    await awaitAccess(api, [{ user: 'patcher', verb: 'patch', resource: 'serviceaccounts', namespace: ns }]);
    const cert = makeUserCert(api, 'patcher');
    const denied = await apply(`${saPath}/p1`, sa('p1'), 'fieldManager=mgr', { cert });
    expect(denied.status).toBe(403);
    expect(denied.json<StatusBody>()).toMatchObject({ reason: 'Forbidden', message: 'serviceaccounts "p1" is forbidden: ' });
    expect((await api.request('GET', `${saPath}/p1`)).status).toBe(404);
    expect((await apply(`${saPath}/p1`, sa('p1'))).status).toBe(201);
    const allowed = await apply(`${saPath}/p1`, sa('p1', {}, { labels: { a: 'b' } }), 'fieldManager=mgr', { cert });
    expect(allowed.status).toBe(200);
  });

  it('dryRun=All answers what would be stored and writes nothing', async () => {
    const created = await apply(`${saPath}/dry1`, sa('dry1', {}, { labels: { l: '1' } }), 'fieldManager=mgr&dryRun=All');
    expect(created.status).toBe(201);
    expect(created.json<Obj>().metadata.managedFields!.map((e) => e.manager)).toEqual(['mgr']);
    expect((await c.apiserver.request('GET', `${saPath}/dry1`)).status).toBe(404);
    const real = await apply(`${saPath}/dry1`, sa('dry1'));
    const changed = await apply(`${saPath}/dry1`, sa('dry1', {}, { labels: { x: 'y' } }), 'fieldManager=mgr&dryRun=All');
    expect(changed.status).toBe(200);
    expect(changed.json<{ metadata: { labels: unknown; resourceVersion: string } }>().metadata).toMatchObject({ labels: { x: 'y' }, resourceVersion: real.json<Obj>().metadata.resourceVersion });
    expect((await c.apiserver.request('GET', `${saPath}/dry1`)).json<{ metadata: { labels?: unknown } }>().metadata.labels).toBeUndefined();
  });

  it.each<[string, string, number, string | undefined]>([
    ['Strict', 'fieldValidation=Strict', 400, 'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "a" already set in map'],
    ['Warn', 'fieldValidation=Warn', 200, undefined],
    ['Ignore', 'fieldValidation=Ignore', 200, undefined],
  ])('duplicate keys under fieldValidation=%s', async (mode, q, code, message) => {
    await apply(`${saPath}/fv1`, sa('fv1'));
    const dupBody = 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: fv1\n  labels:\n    a: "1"\n    a: "2"\n';
    const r = await apply(`${saPath}/fv1`, dupBody, `fieldManager=mgr&${q}`);
    expect(r.status).toBe(code);
    if (message) expect(r.json<StatusBody>().message).toBe(message);
    else expect(r.json<{ metadata: { labels: unknown } }>().metadata.labels).toEqual({ a: '2' });
    const warned = String(r.headers['warning'] ?? '');
    expect(warned.includes('already set in map')).toBe(mode === 'Warn');
    // Upstream warns once per repeated key, without the "yaml: unmarshal errors:" heading.
    if (mode === 'Warn') expect(warned).toBe('299 - "line 7: key \\"a\\" already set in map"');
  });

  it('a conflict is answered before repeated keys are refused (upstream checks strict decoding after the merge)', async () => {
    await apply(`${saPath}/fv2`, sa('fv2', {}, { labels: { a: '1' } }), 'fieldManager=owner');
    const dupBody = 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: fv2\n  labels:\n    a: "2"\n    a: "3"\n';
    const r = await apply(`${saPath}/fv2`, dupBody, 'fieldManager=other&fieldValidation=Strict');
    expect(r.status).toBe(409);
    expect(r.json<StatusBody>().message).toBe('Apply failed with 1 conflict: conflict with "owner": .metadata.labels.a');
  });

  it('a configuration naming a uid cannot create: 409 uid mismatch; on an existing object a different uid is immutable', async () => {
    const r = await apply(`${saPath}/uid1`, sa('uid1', {}, { uid: '6d3c1a5e-0000-4000-8000-000000000001' }));
    expect(r.status).toBe(409);
    expect(r.json<StatusBody>()).toMatchObject({
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on serviceaccounts "uid1": uid mismatch: the provided object specified uid 6d3c1a5e-0000-4000-8000-000000000001, and no existing object was found',
    });
    expect((await c.apiserver.request('GET', `${saPath}/uid1`)).status).toBe(404);
    const created = await apply(`${saPath}/uid1`, sa('uid1'));
    const uid = created.json<{ metadata: { uid: string } }>().metadata.uid;
    expect((await apply(`${saPath}/uid1`, sa('uid1', {}, { uid }))).status).toBe(200);
    const other = await apply(`${saPath}/uid1`, sa('uid1', {}, { uid: '6d3c1a5e-0000-4000-8000-000000000002' }));
    expect(other.status).toBe(422);
    expect(other.json<StatusBody>().message).toContain('metadata.uid: Invalid value: "6d3c1a5e-0000-4000-8000-000000000002": field is immutable');
  });
});

describe('server-side apply: subresources', () => {
  it('csr /status and /approval track ownership per subresource; the main endpoint tracks metadata only; conflicts name the subresource', async () => {
    const api = c.apiserver;
    const req = makeCsr('ecdsa', '/CN=ssa-user');
    const manifest = csrManifest('ssa-csr', { request: req.csrPem, signerName: 'example.com/nobody' });
    const created = await apply(`${csrPath}/ssa-csr`, { ...manifest, metadata: { name: 'ssa-csr', labels: { a: '1' } } });
    expect(created.status).toBe(201);
    expect(created.json<Obj>().metadata.managedFields!.map((e) => [e.manager, e.operation, e.fieldsV1, e.subresource ?? ''])).toEqual([
      ['mgr', 'Apply', { 'f:metadata': { 'f:labels': { 'f:a': {} } } }, ''],
    ]);
    const cond = { type: 'Approved', status: 'True', reason: 'ByApply', message: 'ok' };
    const approved = await apply(`${csrPath}/ssa-csr/approval`, {
      apiVersion: 'certificates.svc.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'ssa-csr' },
      status: { conditions: [cond] },
    }, 'fieldManager=approver');
    expect(approved.status).toBe(200);
    const a = approved.json<Obj & { status: { conditions: { type: string; reason: string }[] } }>();
    expect(a.status.conditions.map((x) => [x.type, x.reason])).toEqual([['Approved', 'ByApply']]);
    const entry = a.metadata.managedFields!.find((e) => e.manager === 'approver')!;
    expect(entry).toMatchObject({ operation: 'Apply', subresource: 'approval' });
    expect(entry.fieldsV1).toEqual({
      'f:status': { 'f:conditions': { 'k:{"type":"Approved"}': { '.': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {}, 'f:type': {} } } },
    });
    const cert = await apply(`${csrPath}/ssa-csr/status`, {
      apiVersion: 'certificates.svc.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'ssa-csr' },
      status: { certificate: '' },
    }, 'fieldManager=signer');
    expect(cert.status).toBe(200);
    const s2 = cert.json<Obj>().metadata.managedFields!.find((e) => e.manager === 'signer');
    expect(s2).toMatchObject({ operation: 'Apply', subresource: 'status', fieldsV1: { 'f:status': { 'f:certificate': {} } } });
    // Another manager changing the approval's reason through /approval conflicts, naming the subresource.
    const conflict = await apply(`${csrPath}/ssa-csr/approval`, {
      apiVersion: 'certificates.svc.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'ssa-csr' },
      status: { conditions: [{ ...cond, reason: 'Other' }] },
    }, 'fieldManager=other');
    expect(conflict.status).toBe(409);
    expect(conflict.json<StatusBody>().message).toBe(
      'Apply failed with 1 conflict: conflict with "approver" with subresource "approval": .status.conditions[type="Approved"].reason',
    );
  });

  it('namespaces/status apply is tracked on the status subresource', async () => {
    expect((await apply('/api/v1/namespaces/ssa-ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ssa-ns' } })).status).toBe(201);
    const r = await apply('/api/v1/namespaces/ssa-ns/status', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ssa-ns' }, status: { phase: 'Active' } }, 'fieldManager=st');
    expect(r.status).toBe(200);
    expect(r.json<Obj>().metadata.managedFields!.find((e) => e.manager === 'st')).toMatchObject({
      operation: 'Apply',
      subresource: 'status',
      fieldsV1: { 'f:status': { 'f:phase': {} } },
    });
  });
});
