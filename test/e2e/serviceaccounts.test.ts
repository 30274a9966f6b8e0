// ServiceAccount and Namespace CRUD through the real processes, with upstream's errors.
import { startCluster, TestCluster } from './support/apiserver';

let c: TestCluster;
beforeAll(async () => {
  c = await startCluster();
  expect((await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'team' } } })).status).toBe(201);
});
afterAll(async () => {
  await c?.stop();
});

const sa = (name: string, extra: Record<string, unknown> = {}): unknown => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name }, ...extra });

describe('serviceaccounts', () => {
  test('create, get, update, merge patch, json patch, delete', async () => {
    const api = c.apiserver;
    const created = await api.request('POST', '/api/v1/namespaces/team/serviceaccounts', { body: sa('bot') });
    expect(created.status).toBe(201);
    expect(created.json()).toMatchObject({ kind: 'ServiceAccount', apiVersion: 'v1', metadata: { name: 'bot', namespace: 'team' } });

    const got = await api.request('GET', '/api/v1/namespaces/team/serviceaccounts/bot');
    expect(got.status).toBe(200);
    const obj = got.json<{ metadata: Record<string, unknown> }>();
    expect(obj.metadata.resourceVersion).toBe(created.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion);

    const put = await api.request('PUT', '/api/v1/namespaces/team/serviceaccounts/bot', { body: { ...obj, automountServiceAccountToken: false } });
    expect(put.status).toBe(200);
    expect(put.json()).toMatchObject({ automountServiceAccountToken: false });

    const merge = await api.request('PATCH', '/api/v1/namespaces/team/serviceaccounts/bot', {
      body: { metadata: { labels: { app: 'web' } } },
      contentType: 'application/merge-patch+json',
    });
    expect(merge.status).toBe(200);
    expect(merge.json()).toMatchObject({ metadata: { labels: { app: 'web' } }, automountServiceAccountToken: false });

    const jp = await api.request('PATCH', '/api/v1/namespaces/team/serviceaccounts/bot', {
      body: [
        { op: 'test', path: '/metadata/labels/app', value: 'web' },
        { op: 'add', path: '/imagePullSecrets', value: [{ name: 'pull' }] },
      ],
      contentType: 'application/json-patch+json',
    });
    expect(jp.status).toBe(200);
    expect(jp.json()).toMatchObject({ imagePullSecrets: [{ name: 'pull' }] });

    const failedTest = await api.request('PATCH', '/api/v1/namespaces/team/serviceaccounts/bot', {
      body: [{ op: 'test', path: '/metadata/labels/app', value: 'db' }],
      contentType: 'application/json-patch+json',
    });
    expect(failedTest.status).toBe(422);

    const del = await api.request('DELETE', '/api/v1/namespaces/team/serviceaccounts/bot');
    expect(del.status).toBe(200);
    expect(del.json()).toMatchObject({ kind: 'ServiceAccount', metadata: { name: 'bot' } });
    const gone = await api.request('GET', '/api/v1/namespaces/team/serviceaccounts/bot');
    expect(gone.status).toBe(404);
    expect(gone.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'serviceaccounts "bot" not found',
      reason: 'NotFound',
      details: { name: 'bot', kind: 'serviceaccounts' },
      code: 404,
    });
  });

  test.each([
    ['duplicate name', 'POST', '/api/v1/namespaces/team/serviceaccounts', sa('dup'), 409, 'AlreadyExists'],
    ['bad name', 'POST', '/api/v1/namespaces/team/serviceaccounts', sa('Bad_Name'), 422, 'Invalid'],
    ['namespace mismatch', 'POST', '/api/v1/namespaces/team/serviceaccounts', { ...(sa('x') as object), metadata: { name: 'x', namespace: 'other' } }, 400, 'BadRequest'],
    ['missing namespace', 'POST', '/api/v1/namespaces/nowhere/serviceaccounts', sa('x'), 404, 'NotFound'],
    ['resourceVersion on create', 'POST', '/api/v1/namespaces/team/serviceaccounts', { ...(sa('rv') as object), metadata: { name: 'rv', resourceVersion: '5' } }, 400, 'BadRequest'],
    ['wrong kind', 'POST', '/api/v1/namespaces/team/serviceaccounts', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'k' } }, 400, 'BadRequest'],
    ['malformed JSON', 'POST', '/api/v1/namespaces/team/serviceaccounts', '{"metadata": ', 400, 'BadRequest'],
    ['dryRun=foo', 'POST', '/api/v1/namespaces/team/serviceaccounts?dryRun=foo', sa('x'), 422, 'Invalid'],
    ['unknown resource', 'GET', '/api/v1/namespaces/team/widgets', undefined, 404, 'NotFound'],
    ['create across namespaces', 'POST', '/api/v1/serviceaccounts', sa('x'), 405, 'MethodNotAllowed'],
  ])('%s → %d', async (_what, method, path, body, code, reason) => {
    if (_what === 'duplicate name') await c.apiserver.request('POST', path, { body });
    const r = await c.apiserver.request(method, path, { body });
    expect(r.status).toBe(code);
    const s = r.json<{ kind: string; reason?: string; code: number }>();
    expect(s.kind).toBe('Status');
    expect(s.reason).toBe(reason);
    expect(s.code).toBe(code);
  });

  test('dryRun=All runs every stage and persists nothing', async () => {
    const api = c.apiserver;
    const r = await api.request('POST', '/api/v1/namespaces/team/serviceaccounts?dryRun=All', { body: sa('ghost') });
    expect(r.status).toBe(201);
    expect(r.json()).toMatchObject({ metadata: { name: 'ghost', namespace: 'team' } });
    expect((await api.request('GET', '/api/v1/namespaces/team/serviceaccounts/ghost')).status).toBe(404);
    const bad = await api.request('POST', '/api/v1/namespaces/team/serviceaccounts?dryRun=All', { body: sa('Bad!') });
    expect(bad.status).toBe(422);

    await api.request('POST', '/api/v1/namespaces/team/serviceaccounts', { body: sa('real') });
    const del = await api.request('DELETE', '/api/v1/namespaces/team/serviceaccounts/real?dryRun=All');
    expect(del.status).toBe(200);
    expect((await api.request('GET', '/api/v1/namespaces/team/serviceaccounts/real')).status).toBe(200);
    const patch = await api.request('PATCH', '/api/v1/namespaces/team/serviceaccounts/real?dryRun=All', {
      body: { automountServiceAccountToken: true },
      contentType: 'application/merge-patch+json',
    });
    expect(patch.status).toBe(200);
    expect(patch.json()).toMatchObject({ automountServiceAccountToken: true });
    expect((await api.request('GET', '/api/v1/namespaces/team/serviceaccounts/real')).json()).not.toHaveProperty('automountServiceAccountToken');
  });

  test('deletecollection with a selector answers the deleted objects; dryRun deletes nothing', async () => {
    const api = c.apiserver;
    await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'bulk' } } });
    for (const [name, tier] of [['a', 'x'], ['b', 'x'], ['c', 'y']]) {
      await api.request('POST', '/api/v1/namespaces/bulk/serviceaccounts', { body: { metadata: { name, labels: { tier } } } });
    }
    const dry = await api.request('DELETE', '/api/v1/namespaces/bulk/serviceaccounts?labelSelector=tier%3Dx&dryRun=All');
    expect(dry.status).toBe(200);
    expect((await api.request('GET', '/api/v1/namespaces/bulk/serviceaccounts')).json<{ items: unknown[] }>().items).toHaveLength(3);
    const r = await api.request('DELETE', '/api/v1/namespaces/bulk/serviceaccounts?labelSelector=tier%3Dx');
    expect(r.status).toBe(200);
    const list = r.json<{ kind: string; items: { metadata: { name: string } }[] }>();
    expect(list.kind).toBe('ServiceAccountList');
    expect(list.items.map((i) => i.metadata.name)).toEqual(['a', 'b']);
    const left = (await api.request('GET', '/api/v1/namespaces/bulk/serviceaccounts')).json<{ items: { metadata: { name: string } }[] }>();
    expect(left.items.map((i) => i.metadata.name)).toEqual(['c']);
  });

  test('update with dryRun=All returns the would-be object and stores nothing', async () => {
    const api = c.apiserver;
    const created = (await api.request('POST', '/api/v1/namespaces/team/serviceaccounts', { body: sa('dry-upd') })).json<Record<string, unknown>>();
    const r = await api.request('PUT', '/api/v1/namespaces/team/serviceaccounts/dry-upd?dryRun=All', { body: { ...created, automountServiceAccountToken: false } });
    expect(r.status).toBe(200);
    expect(r.json()).toMatchObject({ automountServiceAccountToken: false });
    expect((await api.request('GET', '/api/v1/namespaces/team/serviceaccounts/dry-upd')).json()).not.toHaveProperty('automountServiceAccountToken');
  });

  test('PUT without resourceVersion is an unconditional update; with a stale one → 409', async () => {
    const api = c.apiserver;
    const created = (await api.request('POST', '/api/v1/namespaces/team/serviceaccounts', { body: sa('uncond') })).json<{ metadata: Record<string, unknown> }>();
    const noRv = { ...created, metadata: { ...created.metadata, resourceVersion: undefined }, automountServiceAccountToken: true };
    expect((await api.request('PUT', '/api/v1/namespaces/team/serviceaccounts/uncond', { body: noRv })).status).toBe(200);
    const stale = await api.request('PUT', '/api/v1/namespaces/team/serviceaccounts/uncond', { body: created });
    expect(stale.status).toBe(409);
    expect(stale.json()).toMatchObject({ reason: 'Conflict', details: { name: 'uncond', kind: 'serviceaccounts' } });
  });

  test('PUT of a ServiceAccount that does not exist is 404, as upstream (no create on update)', async () => {
    const r = await c.apiserver.request('PUT', '/api/v1/namespaces/team/serviceaccounts/never-made', { body: sa('never-made') });
    expect(r.status).toBe(404);
    expect(r.json()).toMatchObject({ reason: 'NotFound', details: { name: 'never-made', kind: 'serviceaccounts' }, message: 'serviceaccounts "never-made" not found' });
  });

  test('removed and unknown versions are 404', async () => {
    for (const path of ['/apis/certificates.svc.io/v1beta1/certificatesigningrequests', '/api/v2/namespaces', '/apis/nope.svc.io/v1/things']) {
      const r = await c.apiserver.request('GET', path);
      expect(r.status).toBe(404);
      expect(r.json()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 });
    }
  });

  test.each([
    ['/apis/certificates.svc.io/v1/certificatesigningrequests/a%25b', 'Name parameter invalid: "a%b": may not contain \'%\''],
    ['/api/v1/namespaces/team/serviceaccounts/a%2Fb', 'Name parameter invalid: "a/b": may not contain \'/\''],
  ])('GET %s → 400', async (path, message) => {
    const r = await c.apiserver.request('GET', path);
    expect(r.status).toBe(400);
    expect(r.json()).toMatchObject({ reason: 'BadRequest', message });
  });

  test('unknown fields warn (fieldValidation=Warn): Warning headers quoted as Go does, UTF-8 on the wire', async () => {
    const r = await c.apiserver.request('POST', '/api/v1/namespaces/team/serviceaccounts?fieldValidation=Warn', { body: sa('warned', { spéc: 1, 名前: 'x', 'tab\there': true }) });
    expect(r.status).toBe(201);
    // Node hands header bytes over as Latin-1; a Go client (kubectl) reads them as UTF-8.
    const raw = r.headers.warning;
    const warnings = (Array.isArray(raw) ? raw : String(raw).split(/, (?=299 )/)).map((w) => Buffer.from(w, 'latin1').toString('utf8'));
    expect(warnings.sort()).toEqual(['299 - "unknown field \\"spéc\\""', '299 - "unknown field \\"tab\\\\there\\""', '299 - "unknown field \\"名前\\""'].sort());
    expect(r.json()).not.toHaveProperty('spéc');
  });

  test('the strategy warns of the deprecated enforce-mountable-secrets annotation: raw HTTP and kubectl, create and update', async () => {
    const text = 'metadata.annotations[svc.io/enforce-mountable-secrets]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets';
    const annotated = { annotations: { 'svc.io/enforce-mountable-secrets': 'true' } };
    const created = await c.apiserver.request('POST', '/api/v1/namespaces/team/serviceaccounts', { body: sa('enforcing', { metadata: { name: 'enforcing', ...annotated } }) });
    expect(created.status).toBe(201);
    expect(created.headers.warning).toBe(`299 - "${text}"`);
    // Kept by an update: no warning; a dry run warns as the write would.
    const kept = await c.apiserver.request('PATCH', '/api/v1/namespaces/team/serviceaccounts/enforcing', { body: { automountServiceAccountToken: false }, contentType: 'application/merge-patch+json' });
    expect(kept.status).toBe(200);
    expect(kept.headers.warning).toBeUndefined();
    const dry = await c.apiserver.request('POST', '/api/v1/namespaces/team/serviceaccounts?dryRun=All', { body: sa('dry', { metadata: { name: 'dry', ...annotated } }) });
    expect(dry.status).toBe(201);
    expect(dry.headers.warning).toBe(`299 - "${text}"`);

    expect((await c.apiserver.kubectl(['create', 'serviceaccount', 'plain', '-n', 'team'])).code).toBe(0);
    const annotate = await c.apiserver.kubectl(['annotate', 'serviceaccount', 'plain', '-n', 'team', 'svc.io/enforce-mountable-secrets=true']);
    expect(annotate.code).toBe(0);
    expect(annotate.stderr).toContain(`Warning: ${text}`);
    const manifest = JSON.stringify(sa('applied', { metadata: { name: 'applied', namespace: 'team', ...annotated } }));
    const applied = await c.apiserver.kubectl(['apply', '-f', '-'], { input: manifest });
    expect(applied.code).toBe(0);
    expect(applied.stderr).toContain(`Warning: ${text}`);
  });

  test('generateName makes a unique name', async () => {
    const r = await c.apiserver.request('POST', '/api/v1/namespaces/team/serviceaccounts', { body: { metadata: { generateName: 'worker-' } } });
    expect(r.status).toBe(201);
    expect(r.json<{ metadata: { name: string } }>().metadata.name).toMatch(/^worker-[a-z0-9]{5}$/);
  });

  test('finalizers keep an object until they are removed', async () => {
    const api = c.apiserver;
    await api.request('POST', '/api/v1/namespaces/team/serviceaccounts', { body: { metadata: { name: 'held', finalizers: ['example.com/hold'] } } });
    const del = await api.request('DELETE', '/api/v1/namespaces/team/serviceaccounts/held');
    expect(del.status).toBe(200);
    const marked = del.json<{ metadata: { deletionTimestamp?: string } }>();
    expect(marked.metadata.deletionTimestamp).toBeDefined();
    expect((await api.request('GET', '/api/v1/namespaces/team/serviceaccounts/held')).status).toBe(200);
    const patch = await api.request('PATCH', '/api/v1/namespaces/team/serviceaccounts/held', {
      body: { metadata: { finalizers: null } },
      contentType: 'application/merge-patch+json',
    });
    expect(patch.status).toBe(200);
    expect((await api.request('GET', '/api/v1/namespaces/team/serviceaccounts/held')).status).toBe(404);
  });

  test('delete preconditions', async () => {
    const api = c.apiserver;
    await api.request('POST', '/api/v1/namespaces/team/serviceaccounts', { body: sa('pre') });
    const r = await api.request('DELETE', '/api/v1/namespaces/team/serviceaccounts/pre', { body: { preconditions: { uid: 'nope' } } });
    expect(r.status).toBe(409);
    expect(r.json<{ message: string }>().message).toContain('Precondition failed: UID in precondition: nope');
    const rv = await api.request('DELETE', '/api/v1/namespaces/team/serviceaccounts/pre', { body: { preconditions: { resourceVersion: '1' } } });
    expect(rv.status).toBe(409);
    expect(rv.json<{ message: string }>().message).toContain('Precondition failed: ResourceVersion in precondition: 1');
    const bad = await api.request('DELETE', '/api/v1/namespaces/team/serviceaccounts/pre?propagationPolicy=Sideways');
    expect(bad.status).toBe(422);
    expect(bad.json<{ message: string }>().message).toBe(
      'DeleteOptions.meta.svc.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
    );
    const cur = (await api.request('GET', '/api/v1/namespaces/team/serviceaccounts/pre')).json<{ metadata: { uid: string; resourceVersion: string } }>();
    const ok = await api.request('DELETE', '/api/v1/namespaces/team/serviceaccounts/pre?gracePeriodSeconds=0&propagationPolicy=Background', {
      body: { preconditions: { uid: cur.metadata.uid, resourceVersion: cur.metadata.resourceVersion } },
    });
    expect(ok.status).toBe(200);
  });
});

describe('namespaces', () => {
  test('system namespaces exist', async () => {
    const r = await c.apiserver.request('GET', '/api/v1/namespaces/default');
    expect(r.status).toBe(200);
    expect(r.json()).toMatchObject({ status: { phase: 'Active' }, spec: { finalizers: ['svc'] } });
  });

  test('delete → Terminating; new content refused; default may not be deleted', async () => {
    const api = c.apiserver;
    await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'doomed' } } });
    await api.request('POST', '/api/v1/namespaces/doomed/serviceaccounts', { body: sa('old') });
    const del = await api.request('DELETE', '/api/v1/namespaces/doomed');
    expect(del.status).toBe(200);
    expect(del.json()).toMatchObject({ status: { phase: 'Terminating' } });
    const again = await api.request('DELETE', '/api/v1/namespaces/doomed');
    expect(again.status).toBe(409);
    const create = await api.request('POST', '/api/v1/namespaces/doomed/serviceaccounts', { body: sa('new') });
    expect(create.status).toBe(403);
    expect(create.json()).toMatchObject({
      message: 'serviceaccounts "new" is forbidden: unable to create new content in namespace doomed because it is being terminated',
      details: { causes: [{ reason: 'NamespaceTerminating', field: 'metadata.namespace' }] },
    });
    // Updates in a terminating namespace still work.
    const upd = await api.request('PATCH', '/api/v1/namespaces/doomed/serviceaccounts/old', { body: { metadata: { labels: { a: 'b' } } }, contentType: 'application/merge-patch+json' });
    expect(upd.status).toBe(200);
    const protectedNs = await api.request('DELETE', '/api/v1/namespaces/default');
    expect(protectedNs.status).toBe(403);
    expect(protectedNs.json<{ message: string }>().message).toBe('namespaces "default" is forbidden: this namespace may not be deleted');
  });

  test('/finalize clears spec.finalizers; the next delete removes the namespace', async () => {
    const api = c.apiserver;
    await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'fin' } } });
    await api.request('DELETE', '/api/v1/namespaces/fin');
    const cur = (await api.request('GET', '/api/v1/namespaces/fin')).json<{ spec: { finalizers: string[] } }>();
    cur.spec.finalizers = [];
    const fin = await api.request('PUT', '/api/v1/namespaces/fin/finalize', { body: cur });
    expect(fin.status).toBe(200);
    await api.request('DELETE', '/api/v1/namespaces/fin');
    expect((await api.request('GET', '/api/v1/namespaces/fin')).status).toBe(404);
  });
});
