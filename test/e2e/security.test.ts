// Authorization end to end with --authorization-mode=RBAC: a matrix of users × requests over raw
// HTTPS, escalation prevention, the access reviews, AlwaysAllow, and the bootstrap policy
// (aggregation, reconcile at start, autoupdate "false").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiServerProcess, eventually, freePort, startCluster, TestCluster } from './support/apiserver';
import { b64, makeCsr } from './support/openssl';
import {
  awaitAccess,
  clusterGrant,
  clusterRoleBinding,
  group,
  kubectlCreate,
  rbacApi,
  rbacGroup,
  role,
  roleBinding,
  serviceAccount,
  toYaml,
  user,
  type Rule,
} from './support/rbac';
import { callerOptions, makeUserCert, type Caller } from './support/users';

const csrApi = '/apis/certificates.svc.io/v1/certificatesigningrequests';
const csrGroup = 'certificates.svc.io';
const saApi = (ns: string): string => `/api/v1/namespaces/${ns}/serviceaccounts`;

let c: TestCluster;
let s: ApiServerProcess;
/** Callers by name; filled in beforeAll. */
const callers: Record<string, Caller> = { admin: 'admin', anonymous: 'anonymous' };

function csrBody(name: string, signerName = 'svc.io/svc-apiserver-client'): Record<string, unknown> {
  const made = makeCsr('ecdsa', `/CN=${name}`);
  return {
    apiVersion: `${csrGroup}/v1`,
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { request: b64(made.csrPem), signerName, usages: ['digital signature', 'client auth'] },
  };
}

async function create(path: string, body: unknown): Promise<Record<string, unknown>> {
  const r = await s.request('POST', path, { body });
  if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${r.body}`);
  return r.json();
}

async function send(who: string, method: string, path: string, body?: unknown, contentType?: string): Promise<{ status: number; message?: string; json: () => Record<string, unknown> }> {
  const r = await s.request(method, path, { ...callerOptions(callers[who]), body, contentType });
  // Watch streams are several JSON documents; only single documents are parsed.
  const parsed = (): Record<string, unknown> => {
    try {
      return r.json();
    } catch {
      return {};
    }
  };
  return { status: r.status, message: parsed().message as string | undefined, json: parsed };
}

beforeAll(async () => {
  c = await startCluster(['--authorization-mode=RBAC']);
  s = c.apiserver;
  callers.alice = { cert: makeUserCert(s, 'alice') };
  callers.bob = { cert: makeUserCert(s, 'bob', ['team-bob']) };
  callers.carol = { cert: makeUserCert(s, 'carol') };
  callers.dave = { cert: makeUserCert(s, 'dave', ['system:masters']) };
  callers.erin = { cert: makeUserCert(s, 'erin') };
  for (const ns of ['team-bob', 'team-other', 'team-robot']) await create('/api/v1/namespaces', { metadata: { name: ns } });
  for (const [ns, name] of [['team-bob', 'worker'], ['team-bob', 'disposable'], ['team-other', 'worker'], ['team-robot', 'robot']]) {
    await create(saApi(ns), { metadata: { name } });
  }
  await create(csrApi, csrBody('probe'));
  await create(csrApi, csrBody('doomed'));
  const tr = await create(`${saApi('team-robot')}/robot/token`, { apiVersion: 'authentication.svc.io/v1', kind: 'TokenRequest', spec: {} });
  callers.robot = { token: (tr.status as { token: string }).token };

  // Everyone but alice gets their policy up front, through kubectl as an administrator would.
  const saRead: Rule = { verbs: ['get', 'list', 'watch', 'create'], apiGroups: [''], resources: ['serviceaccounts'] };
  await kubectlCreate(s, [
    role('team-bob', 'sa-keeper', [
      saRead,
      { verbs: ['delete'], apiGroups: [''], resources: ['serviceaccounts'], resourceNames: ['disposable'] },
      { verbs: ['create'], apiGroups: [''], resources: ['serviceaccounts/token'] },
    ]),
    roleBinding('team-bob', 'sa-keeper', { kind: 'Role', name: 'sa-keeper' }, [user('bob')]),
    clusterRoleBinding('carol-bootstrapper', 'system:node-bootstrapper', [user('carol')]),
    roleBinding('team-robot', 'robot-view', { kind: 'ClusterRole', name: 'view' }, [serviceAccount('team-robot', 'robot')]),
  ]);
  await awaitAccess(s, [
    { user: 'bob', verb: 'list', resource: 'serviceaccounts', namespace: 'team-bob' },
    { user: 'carol', verb: 'create', group: csrGroup, resource: 'certificatesigningrequests' },
    { user: 'system:serviceaccount:team-robot:robot', verb: 'list', resource: 'serviceaccounts', namespace: 'team-robot' },
  ]);
}, 60_000);
afterAll(async () => {
  await c?.stop();
});

const forbidden = (who: string, verb: string, resource: string, group: string, scope: string, qualified: string): string =>
  `${qualified} is forbidden: User "${who}" cannot ${verb} resource "${resource}" in API group "${group}" ${scope}`;
const csrForbidden = (verb: string, name?: string): string =>
  forbidden('alice', verb, 'certificatesigningrequests', csrGroup, 'at the cluster scope', `certificatesigningrequests.${csrGroup}${name ? ` "${name}"` : ''}`);

describe('alice before any grant', () => {
  test.each([
    ['get', 'GET', `${csrApi}/probe`, undefined, 'probe'],
    ['list', 'GET', csrApi, undefined, undefined],
    ['watch', 'GET', `${csrApi}?watch=true`, undefined, undefined],
    ['create', 'POST', csrApi, 'csr', undefined],
    ['update', 'PUT', `${csrApi}/probe`, 'csr', 'probe'],
    ['patch', 'PATCH', `${csrApi}/probe`, { metadata: { labels: { a: 'b' } } }, 'probe'],
    ['delete', 'DELETE', `${csrApi}/probe`, undefined, 'probe'],
    ['deletecollection', 'DELETE', csrApi, undefined, undefined],
  ])('%s → 403', async (verb, method, path, body, name) => {
    const r = await send('alice', method, path, body === 'csr' ? csrBody('probe') : body, method === 'PATCH' ? 'application/merge-patch+json' : undefined);
    expect(r.status).toBe(403);
    expect(r.json()).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403, message: csrForbidden(verb, name) });
  });

  test('allowed once her ClusterRoleBinding reaches the authorizer', async () => {
    await kubectlCreate(s, clusterGrant('alice-csr-list', [{ verbs: ['list'], apiGroups: [csrGroup], resources: ['certificatesigningrequests'] }], [user('alice')]));
    await eventually(async () => (await send('alice', 'GET', csrApi)).status === 200, 10_000, 'alice may list CSRs');
    // list is not get or watch
    expect((await send('alice', 'GET', `${csrApi}/probe`)).status).toBe(403);
    expect((await send('alice', 'GET', `${csrApi}?watch=true`)).status).toBe(403);
  });
});

describe('authorization matrix', () => {
  interface Row {
    who: string;
    method: string;
    path: string;
    body?: unknown;
    status: number;
    message?: string;
  }
  const robotName = 'system:serviceaccount:team-robot:robot';
  const rows: Row[] = [
    // alice: list on CSRs cluster-wide, nothing else
    { who: 'alice', method: 'GET', path: csrApi, status: 200 },
    { who: 'alice', method: 'GET', path: `${csrApi}/probe`, status: 403, message: csrForbidden('get', 'probe') },
    {
      who: 'alice',
      method: 'GET',
      path: saApi('default'),
      status: 403,
      message: forbidden('alice', 'list', 'serviceaccounts', '', 'in the namespace "default"', 'serviceaccounts'),
    },
    { who: 'alice', method: 'GET', path: '/metrics', status: 403, message: 'forbidden: User "alice" cannot get path "/metrics"' },
    // bob: a Role in team-bob only
    { who: 'bob', method: 'GET', path: saApi('team-bob'), status: 200 },
    { who: 'bob', method: 'GET', path: `${saApi('team-bob')}/worker`, status: 200 },
    { who: 'bob', method: 'POST', path: saApi('team-bob'), body: { metadata: { name: 'made-by-bob' } }, status: 201 },
    {
      who: 'bob',
      method: 'GET',
      path: saApi('team-other'),
      status: 403,
      message: forbidden('bob', 'list', 'serviceaccounts', '', 'in the namespace "team-other"', 'serviceaccounts'),
    },
    {
      who: 'bob',
      method: 'GET',
      path: '/api/v1/serviceaccounts',
      status: 403,
      message: forbidden('bob', 'list', 'serviceaccounts', '', 'at the cluster scope', 'serviceaccounts'),
    },
    // resourceNames: delete only "disposable"
    {
      who: 'bob',
      method: 'DELETE',
      path: `${saApi('team-bob')}/worker`,
      status: 403,
      message: forbidden('bob', 'delete', 'serviceaccounts', '', 'in the namespace "team-bob"', 'serviceaccounts "worker"'),
    },
    { who: 'bob', method: 'DELETE', path: `${saApi('team-bob')}/disposable`, status: 200 },
    // a subresource rule: serviceaccounts/token create, in his namespace only
    { who: 'bob', method: 'POST', path: `${saApi('team-bob')}/worker/token`, body: { spec: {} }, status: 201 },
    {
      who: 'bob',
      method: 'POST',
      path: `${saApi('team-other')}/worker/token`,
      body: { spec: {} },
      status: 403,
      message: forbidden('bob', 'create', 'serviceaccounts/token', '', 'in the namespace "team-other"', 'serviceaccounts "worker"'),
    },
    // carol: bound to the bootstrap system:node-bootstrapper
    { who: 'carol', method: 'POST', path: csrApi, body: 'csr:carol-csr', status: 201 },
    { who: 'carol', method: 'GET', path: `${csrApi}/probe`, status: 200 },
    { who: 'carol', method: 'GET', path: `${csrApi}?watch=true&timeoutSeconds=1`, status: 200 },
    { who: 'carol', method: 'DELETE', path: `${csrApi}/probe`, status: 403, message: forbidden('carol', 'delete', 'certificatesigningrequests', csrGroup, 'at the cluster scope', `certificatesigningrequests.${csrGroup} "probe"`) },
    { who: 'carol', method: 'PUT', path: `${csrApi}/probe/approval`, body: 'csr:probe', status: 403 },
    // dave: system:masters bypasses RBAC
    { who: 'dave', method: 'DELETE', path: `${csrApi}/doomed`, status: 200 },
    { who: 'dave', method: 'GET', path: '/api/v1/serviceaccounts', status: 200 },
    { who: 'dave', method: 'GET', path: '/metrics', status: 200 },
    { who: 'dave', method: 'GET', path: '/readyz/etcd', status: 200 },
    // a ServiceAccount token with a RoleBinding to view in its namespace
    { who: 'robot', method: 'GET', path: saApi('team-robot'), status: 200 },
    { who: 'robot', method: 'GET', path: '/api/v1/namespaces/team-robot', status: 200 },
    { who: 'robot', method: 'GET', path: saApi('team-bob'), status: 403, message: forbidden(robotName, 'list', 'serviceaccounts', '', 'in the namespace "team-bob"', 'serviceaccounts') },
    { who: 'robot', method: 'POST', path: saApi('team-robot'), body: { metadata: { name: 'x' } }, status: 403 },
    {
      who: 'robot',
      method: 'POST',
      path: `${saApi('team-robot')}/robot/token`,
      body: { spec: {} },
      status: 403,
      message: forbidden(robotName, 'create', 'serviceaccounts/token', '', 'in the namespace "team-robot"', 'serviceaccounts "robot"'),
    },
    { who: 'robot', method: 'GET', path: '/api', status: 200 },
    // anonymous: public info only
    { who: 'anonymous', method: 'GET', path: '/healthz', status: 200 },
    { who: 'anonymous', method: 'GET', path: '/version', status: 200 },
    { who: 'anonymous', method: 'GET', path: '/readyz/etcd', status: 403, message: 'forbidden: User "system:anonymous" cannot get path "/readyz/etcd"' },
    { who: 'anonymous', method: 'GET', path: '/metrics', status: 403, message: 'forbidden: User "system:anonymous" cannot get path "/metrics"' },
    { who: 'anonymous', method: 'GET', path: '/api', status: 403 },
    {
      who: 'anonymous',
      method: 'GET',
      path: csrApi,
      status: 403,
      message: forbidden('system:anonymous', 'list', 'certificatesigningrequests', csrGroup, 'at the cluster scope', `certificatesigningrequests.${csrGroup}`),
    },
  ];
  test.each(rows)('$who $method $path → $status', async ({ who, method, path, body, status, message }) => {
    const payload = typeof body === 'string' && body.startsWith('csr:') ? csrBody(body.slice(4)) : body;
    const r = await send(who, method, path, payload);
    expect({ status: r.status, message: message === undefined ? undefined : r.message }).toEqual({ status, message });
  });
});

describe('escalation prevention', () => {
  const cr = (name: string, rules: Rule[]): Record<string, unknown> => ({ apiVersion: `${rbacGroup}/v1`, kind: 'ClusterRole', metadata: { name }, rules });
  const crb = (name: string, roleName: string, subject: string): Record<string, unknown> => ({
    metadata: { name },
    roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: roleName },
    subjects: [user(subject)],
  });
  const heldRule: Rule = { verbs: ['list'], apiGroups: [csrGroup], resources: ['certificatesigningrequests'] };
  const notHeld = (who: string, resource: string, name: string, missing: string[]): string =>
    `${resource}.rbac.authorization.svc.io "${name}" is forbidden: user "${who}" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n${missing.join('\n')}`;

  beforeAll(async () => {
    // alice may write roles and bindings but holds no escalate/bind; erin also has bind on cluster-admin.
    const writer: Rule = { verbs: ['create'], apiGroups: [rbacGroup], resources: ['clusterroles', 'clusterrolebindings'] };
    await kubectlCreate(s, [
      ...clusterGrant('rbac-writer', [writer], [user('alice'), user('erin')]),
      ...clusterGrant('admin-binder', [{ verbs: ['bind'], apiGroups: [rbacGroup], resources: ['clusterroles'], resourceNames: ['cluster-admin'] }], [user('erin')]),
    ]);
    await awaitAccess(s, [
      { user: 'alice', verb: 'create', group: rbacGroup, resource: 'clusterroles' },
      { user: 'erin', verb: 'bind', group: rbacGroup, resource: 'clusterroles', name: 'cluster-admin' },
    ]);
  });

  test.each([
    ['alice: a ClusterRole with rules she holds → 201', 'alice', 'clusterroles', cr('alice-narrow', [heldRule]), 201, undefined],
    [
      'alice: a ClusterRole with a rule she lacks → 403',
      'alice',
      'clusterroles',
      cr('alice-wide', [heldRule, { verbs: ['delete'], apiGroups: [csrGroup], resources: ['certificatesigningrequests'] }]),
      403,
      notHeld('alice', 'clusterroles', 'alice-wide', ['{APIGroups:["certificates.svc.io"], Resources:["certificatesigningrequests"], Verbs:["delete"]}']),
    ],
    ['alice: a binding of a role she holds → 201', 'alice', 'clusterrolebindings', crb('alice-narrow', 'alice-narrow', 'zed'), 201, undefined],
    [
      'alice: a binding to cluster-admin → 403',
      'alice',
      'clusterrolebindings',
      crb('alice-admin', 'cluster-admin', 'alice'),
      403,
      notHeld('alice', 'clusterrolebindings', 'alice-admin', ['{APIGroups:["*"], Resources:["*"], Verbs:["*"]}', '{NonResourceURLs:["*"], Verbs:["*"]}']),
    ],
    ['erin: a binding to cluster-admin with bind on it → 201', 'erin', 'clusterrolebindings', crb('erin-grants', 'cluster-admin', 'zed'), 201, undefined],
    ['erin: bind on cluster-admin is not bind on admin → 403', 'erin', 'clusterrolebindings', crb('erin-admin', 'admin', 'zed'), 403, undefined],
  ])('%s', async (_label, who, resource, obj, status, message) => {
    const r = await send(who, 'POST', `${rbacApi}/${resource}`, obj);
    expect(r.status).toBe(status);
    if (message !== undefined) expect(r.message).toBe(message);
  });

  test('the refused objects were not stored', async () => {
    expect((await s.request('GET', `${rbacApi}/clusterroles/alice-wide`)).status).toBe(404);
    expect((await s.request('GET', `${rbacApi}/clusterrolebindings/alice-admin`)).status).toBe(404);
  });
});

describe('access reviews', () => {
  const authz = '/apis/authorization.svc.io/v1';
  const sar = (spec: Record<string, unknown>): Record<string, unknown> => ({ apiVersion: 'authorization.svc.io/v1', kind: 'SubjectAccessReview', spec });
  const csrAttrs = (verb: string): Record<string, unknown> => ({ verb, group: csrGroup, resource: 'certificatesigningrequests' });

  test.each([
    [
      'allowed',
      { user: 'alice', resourceAttributes: csrAttrs('list') },
      { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "alice-csr-list" of ClusterRole "alice-csr-list" to User "alice"' },
    ],
    ['denied', { user: 'alice', resourceAttributes: csrAttrs('delete') }, { allowed: false }],
    [
      'allowed through a group',
      { user: 'someone', groups: ['system:authenticated'], nonResourceAttributes: { verb: 'get', path: '/api' } },
      { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"' },
    ],
    ['system:masters', { user: 'x', groups: ['system:masters'], resourceAttributes: csrAttrs('delete') }, { allowed: true }],
  ])('SubjectAccessReview as admin: %s', async (_label, spec, status) => {
    const r = await s.request('POST', `${authz}/subjectaccessreviews`, { body: sar(spec) });
    expect(r.status).toBe(201);
    expect(r.json<{ status: unknown }>().status).toEqual(status);
  });

  test('kubectl create -f of a SubjectAccessReview prints the answer', async () => {
    const yaml = toYaml([sar({ user: 'alice', resourceAttributes: csrAttrs('list') })]);
    const r = await s.kubectl(['create', '-f', '-', '--validate=false', '-o', 'json'], { input: yaml });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'SubjectAccessReview', status: { allowed: true } });
  });

  test('SubjectAccessReview is forbidden to alice herself', async () => {
    const r = await send('alice', 'POST', `${authz}/subjectaccessreviews`, sar({ user: 'alice', resourceAttributes: csrAttrs('list') }));
    expect(r.status).toBe(403);
  });

  test.each([
    ['namespace mismatch → 400', 'team-bob', 'team-other', 400, 'spec.resourceAttributes.namespace must match namespace: team-bob'],
    ['matching namespace → 201', 'team-bob', 'team-bob', 201, undefined],
  ])('LocalSubjectAccessReview: %s', async (_label, urlNs, specNs, status, message) => {
    const body = {
      apiVersion: 'authorization.svc.io/v1',
      kind: 'LocalSubjectAccessReview',
      metadata: { namespace: urlNs },
      spec: { user: 'bob', resourceAttributes: { verb: 'list', resource: 'serviceaccounts', namespace: specNs } },
    };
    const r = await s.request('POST', `${authz}/namespaces/${urlNs}/localsubjectaccessreviews`, { body });
    expect(r.status).toBe(status);
    if (message) expect(r.json()).toMatchObject({ reason: 'BadRequest', message });
    else expect(r.json<{ status: { allowed: boolean } }>().status.allowed).toBe(true);
  });

  test.each([
    ['list', true],
    ['delete', false],
  ])('SelfSubjectAccessReview as alice: %s → allowed %s', async (verb, allowed) => {
    const r = await send('alice', 'POST', `${authz}/selfsubjectaccessreviews`, { spec: { resourceAttributes: csrAttrs(verb) } });
    expect(r.status).toBe(201);
    expect((r.json().status as { allowed: boolean }).allowed).toBe(allowed);
  });

  test('SelfSubjectRulesReview as alice lists her grant and the basic-user rules', async () => {
    const r = await send('alice', 'POST', `${authz}/selfsubjectrulesreviews`, { spec: { namespace: 'default' } });
    expect(r.status).toBe(201);
    const status = r.json().status as { resourceRules: unknown[]; nonResourceRules: { verbs: string[]; nonResourceURLs: string[] }[]; incomplete: boolean };
    expect(status.incomplete).toBe(false);
    expect(status.resourceRules).toEqual(
      expect.arrayContaining([
        { verbs: ['list'], apiGroups: [csrGroup], resources: ['certificatesigningrequests'] },
        { verbs: ['create'], apiGroups: ['authorization.svc.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
        { verbs: ['create'], apiGroups: ['authentication.svc.io'], resources: ['selfsubjectreviews'] },
      ]),
    );
    expect(status.resourceRules).not.toEqual(expect.arrayContaining([expect.objectContaining({ resources: ['serviceaccounts'] })]));
    expect(status.nonResourceRules.flatMap((n) => n.nonResourceURLs)).toEqual(expect.arrayContaining(['/api', '/healthz']));
  });

  test('SelfSubjectRulesReview in bob\'s namespace shows his Role', async () => {
    const r = await send('bob', 'POST', `${authz}/selfsubjectrulesreviews`, { spec: { namespace: 'team-bob' } });
    const rules = (r.json().status as { resourceRules: { resources?: string[]; resourceNames?: string[] }[] }).resourceRules;
    expect(rules).toEqual(expect.arrayContaining([{ verbs: ['delete'], apiGroups: [''], resources: ['serviceaccounts'], resourceNames: ['disposable'] }]));
  });

  test.each([
    ['alice', 201, { username: 'alice', groups: ['system:authenticated'] }],
    ['bob', 201, { username: 'bob', groups: ['team-bob', 'system:authenticated'] }],
    ['robot', 201, { username: 'system:serviceaccount:team-robot:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:team-robot', 'system:authenticated'] }],
    ['anonymous', 403, undefined],
  ])('SelfSubjectReview as %s → %d', async (who, status, userInfo) => {
    const r = await send(who, 'POST', '/apis/authentication.svc.io/v1/selfsubjectreviews', { apiVersion: 'authentication.svc.io/v1', kind: 'SelfSubjectReview' });
    expect(r.status).toBe(status);
    if (userInfo) expect((r.json().status as { userInfo: unknown }).userInfo).toMatchObject(userInfo);
    else {
      expect(r.message).toBe(
        'selfsubjectreviews.authentication.svc.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectreviews" in API group "authentication.svc.io" at the cluster scope',
      );
    }
  });

  test('a certificate user carries its fingerprint as credential id', async () => {
    const r = await send('alice', 'POST', '/apis/authentication.svc.io/v1/selfsubjectreviews', { apiVersion: 'authentication.svc.io/v1', kind: 'SelfSubjectReview' });
    const info = (r.json().status as { userInfo: { extra?: Record<string, string[]> } }).userInfo;
    expect(info.extra?.['authentication.svc.io/credential-id']?.[0]).toMatch(/^X509SHA256=[0-9a-f]{64}$/);
  });

  test('a token user sees its audience-bound identity', async () => {
    const r = await send('robot', 'POST', '/apis/authentication.svc.io/v1/selfsubjectreviews', { apiVersion: 'authentication.svc.io/v1', kind: 'SelfSubjectReview' });
    const info = (r.json().status as { userInfo: { uid?: string; extra?: Record<string, string[]> } }).userInfo;
    const sa = (await s.request('GET', `${saApi('team-robot')}/robot`)).json<{ metadata: { uid: string } }>();
    expect(info.uid).toBe(sa.metadata.uid);
    expect(info.extra?.['authentication.svc.io/credential-id']?.[0]).toMatch(/^JTI=[0-9a-f-]{36}$/);
  });
});

describe('--authorization-mode=AlwaysAllow', () => {
  let open: ApiServerProcess;
  beforeAll(async () => {
    // Same PKI (so alice's certificate works), its own in-memory storage.
    const pki = join(c.dir, 'pki');
    open = new ApiServerProcess(mkdtempSync(join(tmpdir(), 'svc-alwaysallow-')), await freePort(), c.etcd.endpoint, [
      '--authorization-mode=AlwaysAllow',
      '--storage-backend=memory',
      `--cert-dir=${pki}`,
    ], pki);
    await open.start();
  });
  afterAll(async () => {
    await open?.stop();
    if (open) rmSync(open.dir, { recursive: true, force: true });
  });

  test.each([
    ['alice', 'GET', '/api/v1/namespaces', 200],
    ['alice', 'POST', '/api/v1/namespaces', 201],
    ['alice', 'DELETE', `${csrApi}`, 200],
    ['alice', 'GET', '/metrics', 200],
    ['alice', 'GET', '/readyz/etcd', 200],
    ['anonymous', 'GET', '/api/v1/namespaces', 200],
  ])('%s %s %s → %d', async (who, method, path, status) => {
    const body = method === 'POST' ? { metadata: { name: 'opened' } } : undefined;
    const r = await open.request(method, path, { ...callerOptions(callers[who]), body });
    expect(r.status).toBe(status);
  });
});

describe('bootstrap policy', () => {
  test('kubectl get clusterroles lists the defaults', async () => {
    const r = await s.kubectl(['get', 'clusterroles', '-o', 'name']);
    expect(r.code).toBe(0);
    const names = r.stdout.trim().split('\n');
    for (const name of [
      'cluster-admin',
      'admin',
      'edit',
      'view',
      'system:discovery',
      'system:basic-user',
      'system:node-bootstrapper',
      'system:certificates.svc.io:certificatesigningrequests:nodeclient',
      'system:certificates.svc.io:certificatesigningrequests:selfnodeclient',
      'system:certificates.svc.io:svc-apiserver-client-approver',
    ]) {
      expect(names).toContain(`clusterrole.rbac.authorization.svc.io/${name}`);
    }
  });

  test.each([
    ['view', { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['serviceaccounts', 'configmaps'] }],
    ['edit', { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['serviceaccounts', 'configmaps'] }],
    ['edit', { verbs: ['create'], apiGroups: [''], resources: ['serviceaccounts/token'] }],
    ['admin', { verbs: ['create'], apiGroups: [''], resources: ['serviceaccounts/token'] }],
    ['admin', { verbs: ['create'], apiGroups: ['authorization.svc.io'], resources: ['localsubjectaccessreviews'] }],
  ])('aggregated %s carries %j', async (name, rule) => {
    const got = await eventually(async () => {
      const r = (await s.request('GET', `${rbacApi}/clusterroles/${name}`)).json<{ rules?: unknown[]; aggregationRule?: unknown }>();
      return r.rules?.length ? r : undefined;
    });
    expect(got.aggregationRule).toBeDefined();
    expect(got.rules).toContainEqual(rule);
  });

  test('a restart recreates a deleted default role, restores a trimmed one and leaves autoupdate "false" alone', async () => {
    const deleted = 'system:certificates.svc.io:legacy-unknown-approver';
    const trimmed = 'system:certificates.svc.io:svc-apiserver-client-svclet-approver';
    const pinned = 'system:certificates.svc.io:svclet-serving-approver';
    const custom: Rule[] = [{ verbs: ['approve'], apiGroups: [csrGroup], resources: ['signers'], resourceNames: ['example.com/mine'] }];
    const url = (n: string): string => `${rbacApi}/clusterroles/${encodeURIComponent(n)}`;

    expect((await s.request('DELETE', url(deleted))).status).toBe(200);
    for (const [name, annotation] of [[trimmed, 'true'], [pinned, 'false']]) {
      const cur = (await s.request('GET', url(name))).json<{ metadata: { annotations: Record<string, string> } }>();
      cur.metadata.annotations['rbac.authorization.svc.io/autoupdate'] = annotation;
      const r = await s.request('PUT', url(name), { body: { ...cur, rules: custom } });
      expect(r.status).toBe(200);
    }

    await s.stop();
    await s.start();

    const rulesOf = async (n: string): Promise<unknown> => {
      const r = await s.request('GET', url(n));
      return r.status === 200 ? r.json<{ rules: unknown }>().rules : r.status;
    };
    expect(await rulesOf(deleted)).toEqual([{ verbs: ['approve'], apiGroups: [csrGroup], resources: ['signers'], resourceNames: ['svc.io/legacy-unknown'] }]);
    expect(await rulesOf(trimmed)).toEqual([
      ...custom,
      { verbs: ['approve'], apiGroups: [csrGroup], resources: ['signers'], resourceNames: ['svc.io/svc-apiserver-client-svclet'] },
    ]);
    expect(await rulesOf(pinned)).toEqual(custom);
    // The grants made before the restart still hold.
    await eventually(async () => (await send('alice', 'GET', csrApi)).status === 200, 10_000, 'alice may list CSRs after the restart');
  });
});

describe('groups as subjects', () => {
  test('a ClusterRoleBinding to a group reaches its members only', async () => {
    await kubectlCreate(s, clusterGrant('team-bob-csr-get', [{ verbs: ['get'], apiGroups: [csrGroup], resources: ['certificatesigningrequests'] }], [group('team-bob')]));
    await eventually(async () => (await send('bob', 'GET', `${csrApi}/probe`)).status === 200, 10_000, 'bob (group team-bob) may get CSRs');
    expect((await send('alice', 'GET', `${csrApi}/probe`)).status).toBe(403);
  });
});
