// Impersonation on a real server with stock kubectl (--as, --as-group, --as-uid), under the k8s
// naming profile so kubectl's typed commands (auth whoami, auth can-i) reach the reviews: who may
// impersonate, what the impersonated user may then do, what the reviews, a CSR, the audit log and
// the request log see.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump, load } from 'js-yaml';
import { eventually, startCluster, TestCluster } from './support/apiserver';
import { readAuditLog, type AuditEventLine } from './support/auditLog';
import { b64, makeCsr } from './support/openssl';
import { makeUserCert } from './support/users';

const policy = `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: ['/healthz*', '/readyz*', '/livez*']
- level: Metadata
  omitStages: [RequestReceived]
`;

type ImpersonatedEvent = AuditEventLine & { impersonatedUser?: AuditEventLine['user'] };

let c: TestCluster;
let logDir: string;
let logPath: string;
/** kubectl flags that present alice's certificate instead of the admin's (the last --kubeconfig wins). */
let asAlice: string[];

const rbacVersion = 'rbac.authorization.k8s.io/v1';

/** A ClusterRole and its binding to alice, as manifests kubectl creates. */
function grantAlice(name: string, rules: Record<string, unknown>[]): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'List',
    items: [
      { apiVersion: rbacVersion, kind: 'ClusterRole', metadata: { name }, rules },
      {
        apiVersion: rbacVersion,
        kind: 'ClusterRoleBinding',
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
      },
    ],
  });
}

async function kubectl(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return c.apiserver.kubectl([`--cache-dir=${join(c.dir, 'kube-cache')}`, ...args], { input });
}

async function kubectlOk(args: string[], input?: string): Promise<string> {
  const r = await kubectl(args, input);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}):\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** kubectl's stderr for a refused request (it must fail). */
async function kubectlError(args: string[]): Promise<string> {
  const r = await kubectl(args);
  expect(r.code).not.toBe(0);
  return r.stderr.trim();
}

interface WhoAmI {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

async function whoami(args: string[]): Promise<WhoAmI> {
  const review = JSON.parse(await kubectlOk(['auth', 'whoami', '-o', 'json', ...args])) as { kind: string; status: { userInfo: WhoAmI } };
  expect(review.kind).toBe('SelfSubjectReview');
  return review.status.userInfo;
}

/** The ResponseComplete event of the one request that matches; waits for the asynchronous writer. */
async function auditEvent(match: (e: ImpersonatedEvent) => boolean, what: string): Promise<ImpersonatedEvent> {
  return eventually(async () => (readAuditLog(logPath) as ImpersonatedEvent[]).find((e) => e.stage === 'ResponseComplete' && match(e)), 10_000, what);
}

beforeAll(async () => {
  logDir = mkdtempSync(join(tmpdir(), 'svc-impersonation-'));
  logPath = join(logDir, 'audit.log');
  writeFileSync(join(logDir, 'policy.yaml'), policy);
  c = await startCluster(['--api-naming=k8s', `--audit-log-path=${logPath}`, `--audit-policy-file=${join(logDir, 'policy.yaml')}`]);
  const alice = makeUserCert(c.apiserver, 'alice');
  const config = load(readFileSync(c.apiserver.kubeconfig, 'utf8')) as { users: { user: Record<string, string> }[] };
  for (const u of config.users) u.user = { 'client-certificate-data': b64(alice.cert), 'client-key-data': b64(alice.key) };
  writeFileSync(join(c.dir, 'alice.kubeconfig'), dump(config));
  asAlice = [`--kubeconfig=${join(c.dir, 'alice.kubeconfig')}`];
}, 60_000);

afterAll(async () => {
  await c?.stop();
  rmSync(logDir, { recursive: true, force: true });
});

describe('an admin (system:masters) may impersonate anyone, and then acts as them', () => {
  test('kubectl --as=nobody get ns fails as nobody', async () => {
    expect(await kubectlOk(['get', 'ns', 'default', '-o', 'name'])).toBe('namespace/default\n');
    expect(await kubectlError(['--as=nobody', 'get', 'ns'])).toBe(
      'Error from server (Forbidden): namespaces is forbidden: User "nobody" cannot list resource "namespaces" in API group "" at the cluster scope',
    );
  });

  test('audit: the admin is the event’s user, nobody the impersonatedUser; the authorization annotations are nobody’s', async () => {
    const ev = await auditEvent((e) => e.impersonatedUser?.username === 'nobody' && e.verb === 'list', 'the list as nobody');
    expect(ev.user).toMatchObject({ username: 'admin', groups: ['system:masters', 'system:authenticated'] });
    expect(ev.impersonatedUser).toEqual({ username: 'nobody', groups: ['system:authenticated'] });
    expect(ev.annotations).toEqual({ 'authorization.k8s.io/decision': 'forbid', 'authorization.k8s.io/reason': '' });
    expect(ev.responseStatus).toMatchObject({ code: 403, reason: 'Forbidden' });
  });

  test('the request log names nobody, impersonated by admin', async () => {
    const line = await eventually(async () =>
      c.apiserver.logs
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.msg === 'request' && l.user === 'nobody' && l.resource === 'namespaces'),
    );
    expect(line).toMatchObject({ verb: 'list', impersonatedBy: 'admin', code: 403 });
  });

  test('SelfSubjectReview (kubectl auth whoami) shows the impersonated user: a user, a ServiceAccount, groups and uid', async () => {
    expect(await whoami(['--as=nobody'])).toEqual({ username: 'nobody', groups: ['system:authenticated'] });
    expect(await whoami(['--as=system:serviceaccount:team:robot'])).toEqual({
      username: 'system:serviceaccount:team:robot',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
    });
    // system:anonymous is in system:unauthenticated only: /version yes, a SelfSubjectReview no.
    expect(JSON.parse(await kubectlOk(['--as=system:anonymous', 'get', '--raw', '/version']))).toHaveProperty('gitVersion');
    expect(await kubectlError(['--as=system:anonymous', 'auth', 'whoami'])).toContain('you do not have permission to call it');
    expect(await whoami(['--as=carol', '--as-group=devs', '--as-group=ops', '--as-uid=carol-1'])).toEqual({
      username: 'carol',
      uid: 'carol-1',
      groups: ['devs', 'ops', 'system:authenticated'],
    });
  });

  test('SelfSubjectAccessReview and SelfSubjectRulesReview (kubectl auth can-i) answer for the impersonated user', async () => {
    expect((await kubectlOk(['auth', 'can-i', 'list', 'namespaces'])).trim()).toBe('yes');
    const r = await kubectl(['--as=nobody', 'auth', 'can-i', 'list', 'namespaces']);
    expect(r.stdout.trim()).toBe('no');
    expect(await kubectlOk(['auth', 'can-i', '--list'])).toMatch(/^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]/m);
    const nobodyRules = await kubectlOk(['--as=nobody', 'auth', 'can-i', '--list']);
    expect(nobodyRules).toMatch(/^selfsubjectreviews\.authentication\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]/m);
    expect(nobodyRules).not.toMatch(/^\*\.\*/m);
  });

  test('a CSR created while impersonating records the impersonated requester: username, groups, uid, extra', async () => {
    const csr = {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'impersonated-csr' },
      spec: { request: b64(makeCsr('ecdsa', '/CN=carol').csrPem), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'] },
    };
    // kubectl has no flag for extras: the headers as any client sends them.
    const r = await c.apiserver.request('POST', '/apis/certificates.k8s.io/v1/certificatesigningrequests', {
      body: csr,
      headers: { 'Impersonate-User': 'carol', 'Impersonate-Group': 'system:masters', 'Impersonate-Uid': 'carol-1', 'Impersonate-Extra-Team': 'blue' },
    });
    expect(r.status).toBe(201);
    expect(r.json<{ spec: Record<string, unknown> }>().spec).toMatchObject({
      username: 'carol',
      uid: 'carol-1',
      groups: ['system:masters', 'system:authenticated'],
      extra: { team: ['blue'] },
    });
    expect(await kubectlOk(['get', 'csr', 'impersonated-csr', '--no-headers'])).toMatch(/^impersonated-csr\s+\S+\s+kubernetes.io\/kube-apiserver-client\s+carol\s/);
  });

  test('admission sees the impersonated user (a ValidatingAdmissionPolicy on request.userInfo)', async () => {
    const api = 'admissionregistration.k8s.io/v1';
    await kubectlOk(
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [
          {
            apiVersion: api,
            kind: 'ValidatingAdmissionPolicy',
            metadata: { name: 'no-carol' },
            spec: {
              matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
              validations: [{ expression: "request.userInfo.username != 'carol'", messageExpression: "request.userInfo.username + ' may not create config maps'" }],
            },
          },
          { apiVersion: api, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'no-carol' }, spec: { policyName: 'no-carol', validationActions: ['Deny'] } },
        ],
      }),
    );
    // The policy reaches admission through the watch cache.
    const denied = await eventually(async () => {
      const r = await kubectl(['--as=carol', '--as-group=system:masters', 'create', 'configmap', `c-${Date.now()}`, '-n', 'default']);
      return r.code !== 0 && r.stderr;
    }, 10_000, 'the policy denies carol');
    expect(denied).toContain('denied request: carol may not create config maps');
    expect(await kubectlOk(['create', 'configmap', 'by-admin', '-n', 'default'])).toContain('configmap/by-admin created');
  });

  test('groups without a user: upstream’s plain-text InternalError', async () => {
    const r = await c.apiserver.request('GET', '/api/v1/namespaces', { headers: { 'Impersonate-Group': 'devs' } });
    expect(r.status).toBe(500);
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(r.body).toBe('Internal Server Error: "/api/v1/namespaces": requested [{Group  devs    }] without impersonating a user\n');
  });
});

describe('a user without the impersonate right', () => {
  test('kubectl --as is refused with the impersonation 403 (users, ServiceAccounts)', async () => {
    const refusal = (what: string): string => `Error from server (Forbidden): ${what} is forbidden: User "alice" cannot impersonate resource`;
    expect(await kubectlError([...asAlice, '--as=bob', 'get', 'ns'])).toBe(`${refusal('users "bob"')} "users" in API group "" at the cluster scope`);
    expect(await kubectlError([...asAlice, '--as=system:serviceaccount:team:robot', 'get', 'ns'])).toBe(
      `${refusal('serviceaccounts "robot"')} "serviceaccounts" in API group "" in the namespace "team"`,
    );
  });

  test('audit: alice is the user, no impersonatedUser and no authorization annotations', async () => {
    const ev = await auditEvent((e) => e.user.username === 'alice' && e.responseStatus?.message?.includes('users "bob"') === true, 'alice’s refused impersonation');
    expect(ev).not.toHaveProperty('impersonatedUser');
    expect(ev).not.toHaveProperty('annotations');
    expect(ev.responseStatus).toMatchObject({ code: 403, reason: 'Forbidden' });
  });

  test('granted bob, devs and one uid by name: exactly those, each part checked', async () => {
    await kubectlOk(
      ['create', '-f', '-'],
      grantAlice('alice-impersonates', [
        { apiGroups: [''], resources: ['users'], resourceNames: ['bob'], verbs: ['impersonate'] },
        { apiGroups: [''], resources: ['groups'], resourceNames: ['devs'], verbs: ['impersonate'] },
        { apiGroups: ['authentication.k8s.io'], resources: ['uids'], resourceNames: ['bob-1'], verbs: ['impersonate'] },
      ]),
    );
    // The authorizer sees new policy through the watch cache.
    await eventually(async () => (await kubectl([...asAlice, '--as=bob', 'auth', 'whoami'])).code === 0, 10_000, 'alice may impersonate bob');
    expect(await whoami([...asAlice, '--as=bob'])).toEqual({ username: 'bob', groups: ['system:authenticated'] });
    expect(await whoami([...asAlice, '--as=bob', '--as-group=devs', '--as-uid=bob-1'])).toEqual({ username: 'bob', uid: 'bob-1', groups: ['devs', 'system:authenticated'] });
    const refusal = (what: string): string => `Error from server (Forbidden): ${what} is forbidden: User "alice" cannot impersonate resource`;
    // (auth whoami words any 403 its own way: refusals are shown on a get.)
    expect(await kubectlError([...asAlice, '--as=carol', 'get', 'ns'])).toBe(`${refusal('users "carol"')} "users" in API group "" at the cluster scope`);
    expect(await kubectlError([...asAlice, '--as=bob', '--as-group=ops', 'get', 'ns'])).toBe(`${refusal('groups "ops"')} "groups" in API group "" at the cluster scope`);
    expect(await kubectlError([...asAlice, '--as=bob', '--as-uid=bob-2', 'get', 'ns'])).toBe(
      `${refusal('uids.authentication.k8s.io "bob-2"')} "uids" in API group "authentication.k8s.io" at the cluster scope`,
    );
    // Then bob's own rights apply: none to list namespaces.
    expect(await kubectlError([...asAlice, '--as=bob', 'get', 'ns'])).toBe(
      'Error from server (Forbidden): namespaces is forbidden: User "bob" cannot list resource "namespaces" in API group "" at the cluster scope',
    );
  });
});
