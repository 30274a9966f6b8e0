// The impersonation filter through the real dispatcher: upstream's TestImpersonationFilter table
// (apiserver/pkg/endpoints/filters/impersonation_test.go, 1.32) with its authorizer, plus what the
// rest of the request sees (authorization, the request log, audit, the headers).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { FeatureGates } from '../../api/featureGates';
import { groups as apiGroups } from '../../api/product';
import type { AuditEvent } from '../../audit';
import { auditApiVersion } from '../../audit';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from '../../auth/authorizer';
import type { UserInfo } from '../../registry/strategy';
import { createDispatcher } from '../dispatch';
import { ApiServerMetrics } from '../metrics';
import { ResourceTable } from '../resourceTable';

const authn = apiGroups.authentication;

/**
 * Upstream's impersonateAuthorizer, rule for rule. Requests other than "impersonate" (the
 * request's own authorization, which upstream's table does not reach) are allowed except for
 * the user "nobody".
 */
const impersonateAuthorizer: Authorizer = {
  authorize(a: AuthorizationAttributes): AuthorizationResult {
    const allow: AuthorizationResult = { decision: 'allow', reason: '' };
    if (a.verb !== 'impersonate') return a.user.name === 'nobody' ? { decision: 'noOpinion', reason: '' } : allow;
    const g = a.user.groups;
    const imp = a.verb === 'impersonate';
    switch (a.user.name) {
      case 'system:admin':
        return allow;
      case 'tester':
        return { decision: 'noOpinion', reason: '', evaluationError: 'works on my machine' };
      case 'deny-me':
        return { decision: 'noOpinion', reason: 'denied' };
    }
    if (g[0] === 'wheel' && imp && a.resource === 'users') return allow;
    if (g[0] === 'sa-impersonater' && imp && a.resource === 'serviceaccounts') return allow;
    if (g[0] === 'regular-impersonater' && imp && a.resource === 'users') return allow;
    if (g[1] === 'group-impersonater' && imp && a.resource === 'groups') return allow;
    if (g[1] === 'extra-setter-scopes' && imp && a.resource === 'userextras' && a.subresource === 'scopes') return allow;
    if (g[1] === 'escaped-scopes' || g[1] === 'almost-escaped-scopes') return allow;
    if (g[1] === 'extra-setter-particular-scopes' && imp && a.resource === 'userextras' && a.subresource === 'scopes' && a.name === 'scope-a' && a.apiGroup === authn) return allow;
    if (g[1] === 'extra-setter-project' && imp && a.resource === 'userextras' && a.subresource === 'project' && a.apiGroup === authn) return allow;
    if (g[0] === 'everything-impersonater' && imp) {
      if (a.resource === 'users' && a.apiGroup === '') return allow;
      if (a.resource === 'uids' && a.name === 'some-uid' && a.apiGroup === authn) return allow;
      if (a.resource === 'groups' && a.apiGroup === '') return allow;
      if (a.resource === 'userextras' && a.subresource === 'scopes' && a.apiGroup === authn) return allow;
    }
    return { decision: 'noOpinion', reason: 'deny by default' };
  },
};

/** An object, or the raw list of names and values (sends names exactly as given, repeats kept). */
type Headers = Record<string, string | string[]> | string[];

interface Seen {
  user: UserInfo;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
}

interface Answer {
  code: number;
  contentType: string;
  body: string;
  /** What the handler after the filters saw; undefined when it was not reached. */
  seen: Seen | undefined;
  log: Record<string, unknown>;
  events: AuditEvent[];
}

let server: http.Server;
let seen: Seen | undefined;
const logLines: Record<string, unknown>[] = [];
const events: AuditEvent[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  const dispatch = createDispatcher({
    resources: new ResourceTable([]),
    // The test names the authenticated user in a header, as upstream's table sets it in the context.
    authenticator: { authenticate: async (req) => JSON.parse(String(req.headers['x-test-user'])) as UserInfo },
    authorizer: impersonateAuthorizer,
    anonymousEnabled: false,
    nonResource: async (req, res, _info, _query, user) => {
      seen = { user, headers: { ...req.headers }, rawHeaders: [...req.rawHeaders] };
      res.end('ok');
    },
    metrics: new ApiServerMetrics(),
    features: FeatureGates.parse(''),
    log: pino({}, sink),
    maxRequestBodyBytes: 1 << 20,
    requestTimeoutMs: 60_000,
    audit: { policy: { apiVersion: auditApiVersion, kind: 'Policy', rules: [{ level: 'Metadata' }] }, write: (ev) => events.push(ev) },
  });
  server = http.createServer(dispatch);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
});

async function send(requestor: UserInfo, headers: Headers): Promise<Answer> {
  seen = undefined;
  logLines.length = 0;
  events.length = 0;
  const { port } = server.address() as AddressInfo;
  const r = await new Promise<{ code: number; contentType: string; body: string }>((resolve, reject) => {
    http
      .get({ port, host: '127.0.0.1', path: '/version', agent: false, headers: Array.isArray(headers) ? ['Host', `127.0.0.1:${port}`, 'x-test-user', JSON.stringify(requestor), ...headers] : { 'x-test-user': JSON.stringify(requestor), ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ code: res.statusCode ?? 0, contentType: String(res.headers['content-type']), body: Buffer.concat(chunks).toString('utf8') }));
      })
      .on('error', reject);
  });
  // The log line and the last audit event are written when the response has finished.
  await new Promise<void>((resolve) => setImmediate(resolve));
  const log = logLines.find((l) => l.msg === 'request') ?? {};
  return { ...r, seen, log, events: [...events] };
}

interface Case {
  name: string;
  user: UserInfo;
  impersonationUser?: string;
  impersonationGroups?: string[];
  impersonationUserExtras?: Record<string, string[]>;
  impersonationUid?: string;
  /** The user the handler sees; undefined when the request must not reach it. */
  expectedUser?: UserInfo;
  expectedCode: number;
  /** The Status message (403) or the text body (500). */
  expectedMessage?: string;
  /** Nothing was asked: upstream passes the request on untouched, headers included. */
  passesHeaders?: boolean;
}

const user = (name: string, groups: string[] = []): UserInfo => ({ name, groups });

// Upstream's expected users have Extra: {} where we leave extra out (no extras); uid '' is no uid.
const cases: Case[] = [
  { name: 'not-impersonating', user: user('tester'), expectedUser: user('tester'), expectedCode: 200 },
  {
    name: 'impersonating-error',
    user: user('tester'),
    impersonationUser: 'anyone',
    expectedCode: 403,
    expectedMessage: 'users "anyone" is forbidden: User "tester" cannot impersonate resource "users" in API group "" at the cluster scope',
  },
  // Upstream answers a plain-text InternalError (500), not a 400 Status: kept as upstream has it.
  {
    name: 'impersonating-group-without-user',
    user: user('tester'),
    impersonationGroups: ['some-group'],
    expectedCode: 500,
    expectedMessage: 'Internal Server Error: "/version": requested [{Group  some-group    }] without impersonating a user\n',
  },
  {
    name: 'impersonating-extra-without-user',
    user: user('tester'),
    impersonationUserExtras: { scopes: ['scope-a'] },
    expectedCode: 500,
    expectedMessage: `Internal Server Error: "/version": requested [{UserExtra  scope-a  ${authn}/v1  scopes}] without impersonating a user\n`,
  },
  {
    name: 'impersonating-uid-without-user',
    user: user('tester'),
    impersonationUid: 'some-uid',
    expectedCode: 500,
    expectedMessage: `Internal Server Error: "/version": requested [{UID  some-uid  ${authn}/v1  }] without impersonating a user\n`,
  },
  {
    name: 'disallowed-group',
    user: user('dev', ['wheel']),
    impersonationUser: 'system:admin',
    impersonationGroups: ['some-group'],
    expectedCode: 403,
    expectedMessage: 'groups "some-group" is forbidden: User "dev" cannot impersonate resource "groups" in API group "" at the cluster scope: deny by default',
  },
  {
    name: 'allowed-group',
    user: user('dev', ['wheel', 'group-impersonater']),
    impersonationUser: 'system:admin',
    impersonationGroups: ['some-group'],
    expectedUser: user('system:admin', ['some-group', 'system:authenticated']),
    expectedCode: 200,
  },
  {
    name: 'disallowed-userextra-1',
    user: user('dev', ['wheel']),
    impersonationUser: 'system:admin',
    impersonationGroups: ['some-group'],
    impersonationUserExtras: { scopes: ['scope-a'] },
    expectedCode: 403,
  },
  {
    name: 'disallowed-userextra-2',
    user: user('dev', ['wheel', 'extra-setter-project']),
    impersonationUser: 'system:admin',
    impersonationGroups: ['some-group'],
    impersonationUserExtras: { scopes: ['scope-a'] },
    expectedCode: 403,
  },
  {
    name: 'disallowed-userextra-3',
    user: user('dev', ['wheel', 'extra-setter-particular-scopes']),
    impersonationUser: 'system:admin',
    impersonationGroups: ['some-group'],
    impersonationUserExtras: { scopes: ['scope-a', 'scope-b'] },
    expectedCode: 403,
  },
  {
    name: 'allowed-userextras',
    user: user('dev', ['wheel', 'extra-setter-scopes']),
    impersonationUser: 'system:admin',
    impersonationUserExtras: { scopes: ['scope-a', 'scope-b'] },
    expectedUser: { name: 'system:admin', groups: ['system:authenticated'], extra: { scopes: ['scope-a', 'scope-b'] } },
    expectedCode: 200,
  },
  {
    name: 'percent-escaped-userextras',
    user: user('dev', ['wheel', 'escaped-scopes']),
    impersonationUser: 'system:admin',
    impersonationUserExtras: { 'example.com%2fescaped%e1%9b%84scopes': ['scope-a', 'scope-b'] },
    expectedUser: { name: 'system:admin', groups: ['system:authenticated'], extra: { 'example.com/escapedᛄscopes': ['scope-a', 'scope-b'] } },
    expectedCode: 200,
  },
  {
    name: 'almost-percent-escaped-userextras',
    user: user('dev', ['wheel', 'almost-escaped-scopes']),
    impersonationUser: 'system:admin',
    impersonationUserExtras: { 'almost%zzpercent%xxencoded': ['scope-a', 'scope-b'] },
    expectedUser: { name: 'system:admin', groups: ['system:authenticated'], extra: { 'almost%zzpercent%xxencoded': ['scope-a', 'scope-b'] } },
    expectedCode: 200,
  },
  {
    name: 'allowed-users-impersonation',
    user: user('dev', ['regular-impersonater']),
    impersonationUser: 'tester',
    expectedUser: user('tester', ['system:authenticated']),
    expectedCode: 200,
  },
  {
    name: 'disallowed-impersonating',
    user: user('dev', ['sa-impersonater']),
    impersonationUser: 'tester',
    expectedCode: 403,
    expectedMessage: 'users "tester" is forbidden: User "dev" cannot impersonate resource "users" in API group "" at the cluster scope: deny by default',
  },
  {
    name: 'allowed-sa-impersonating',
    user: { name: 'dev', groups: ['sa-impersonater'], extra: {} },
    impersonationUser: 'system:serviceaccount:foo:default',
    expectedUser: user('system:serviceaccount:foo:default', ['system:serviceaccounts', 'system:serviceaccounts:foo', 'system:authenticated']),
    expectedCode: 200,
  },
  {
    name: 'anonymous-username-prevents-adding-authenticated-group',
    user: user('system:admin'),
    impersonationUser: 'system:anonymous',
    expectedUser: user('system:anonymous', ['system:unauthenticated']),
    expectedCode: 200,
  },
  {
    name: 'unauthenticated-group-prevents-adding-authenticated-group',
    user: user('system:admin'),
    impersonationUser: 'unknown',
    impersonationGroups: ['system:unauthenticated'],
    expectedUser: user('unknown', ['system:unauthenticated']),
    expectedCode: 200,
  },
  {
    name: 'unauthenticated-group-prevents-double-adding-authenticated-group',
    user: user('system:admin'),
    impersonationUser: 'unknown',
    impersonationGroups: ['system:authenticated'],
    expectedUser: user('unknown', ['system:authenticated']),
    expectedCode: 200,
  },
  {
    name: 'specified-authenticated-group-prevents-double-adding-authenticated-group',
    user: user('dev', ['wheel', 'group-impersonater']),
    impersonationUser: 'system:admin',
    impersonationGroups: ['some-group', 'system:authenticated'],
    expectedUser: user('system:admin', ['some-group', 'system:authenticated']),
    expectedCode: 200,
  },
  {
    name: 'anonymous-user-should-include-unauthenticated-group',
    user: user('system:admin'),
    impersonationUser: 'system:anonymous',
    expectedUser: user('system:anonymous', ['system:unauthenticated']),
    expectedCode: 200,
  },
  {
    name: 'anonymous-user-prevents-double-adding-unauthenticated-group',
    user: user('system:admin'),
    impersonationUser: 'system:anonymous',
    impersonationGroups: ['system:unauthenticated'],
    expectedUser: user('system:anonymous', ['system:unauthenticated']),
    expectedCode: 200,
  },
  {
    name: 'allowed-user-impersonation-with-uid',
    user: user('dev', ['everything-impersonater']),
    impersonationUser: 'tester',
    impersonationUid: 'some-uid',
    expectedUser: { name: 'tester', groups: ['system:authenticated'], uid: 'some-uid' },
    expectedCode: 200,
  },
  {
    name: 'disallowed-user-impersonation-with-uid',
    user: user('dev', ['everything-impersonater']),
    impersonationUser: 'tester',
    impersonationUid: 'disallowed-uid',
    expectedCode: 403,
    expectedMessage: `uids.${authn} "disallowed-uid" is forbidden: User "dev" cannot impersonate resource "uids" in API group "${authn}" at the cluster scope: deny by default`,
  },
  {
    name: 'allowed-impersonation-with-all-headers',
    user: user('dev', ['everything-impersonater']),
    impersonationUser: 'tester',
    impersonationUid: 'some-uid',
    impersonationGroups: ['system:authenticated'],
    impersonationUserExtras: { scopes: ['scope-a', 'scope-b'] },
    expectedUser: { name: 'tester', groups: ['system:authenticated'], uid: 'some-uid', extra: { scopes: ['scope-a', 'scope-b'] } },
    expectedCode: 200,
  },
  // Beyond upstream's table.
  {
    name: 'sa-impersonating: named groups replace the ServiceAccount groups',
    user: user('system:admin'),
    impersonationUser: 'system:serviceaccount:foo:default',
    impersonationGroups: ['some-group'],
    expectedUser: user('system:serviceaccount:foo:default', ['some-group', 'system:authenticated']),
    expectedCode: 200,
  },
  {
    name: 'disallowed-sa-impersonating: asked in the ServiceAccount namespace',
    user: user('dev', ['wheel']),
    impersonationUser: 'system:serviceaccount:foo:default',
    expectedCode: 403,
    expectedMessage: 'serviceaccounts "default" is forbidden: User "dev" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "foo": deny by default',
  },
  {
    name: 'not a valid ServiceAccount user name (namespace not a DNS label): a user',
    user: user('dev', ['wheel']),
    impersonationUser: 'system:serviceaccount:Foo:default',
    expectedUser: user('system:serviceaccount:Foo:default', ['system:authenticated']),
    expectedCode: 200,
  },
  {
    name: 'disallowed-userextras: the extra key is the subresource, the value the name',
    user: user('dev', ['wheel']),
    impersonationUser: 'tester',
    impersonationUserExtras: { project: ['p1'] },
    expectedCode: 403,
    expectedMessage: `userextras.${authn} "p1" is forbidden: User "dev" cannot impersonate resource "userextras/project" in API group "${authn}" at the cluster scope: deny by default`,
  },
  {
    name: 'an extra key that decodes to markup is sanitized in the message',
    user: user('dev', ['wheel']),
    impersonationUser: 'tester',
    impersonationUserExtras: { 'a%3Cb': ['v'] },
    expectedCode: 403,
    expectedMessage: `userextras.${authn} "v" is forbidden: User "dev" cannot impersonate resource "userextras/a&lt;b" in API group "${authn}" at the cluster scope: deny by default`,
  },
  {
    name: 'deny-me: the authorizer’s reason is appended',
    user: user('deny-me'),
    impersonationUser: 'tester',
    expectedCode: 403,
    expectedMessage: 'users "tester" is forbidden: User "deny-me" cannot impersonate resource "users" in API group "" at the cluster scope: denied',
  },
  {
    name: 'the request itself is authorized as the impersonated user',
    user: user('system:admin'),
    impersonationUser: 'nobody',
    expectedCode: 403,
    expectedMessage: 'forbidden: User "nobody" cannot get path "/version"',
  },
  {
    name: 'an empty Impersonate-User alone asks for nothing',
    user: user('dev'),
    impersonationUser: '',
    expectedUser: user('dev'),
    expectedCode: 200,
    passesHeaders: true,
  },
];

function headersOf(c: Case): Headers {
  const h: Headers = {};
  if (c.impersonationUser !== undefined) h['Impersonate-User'] = c.impersonationUser;
  if (c.impersonationGroups) h['Impersonate-Group'] = c.impersonationGroups;
  for (const [key, values] of Object.entries(c.impersonationUserExtras ?? {})) h[`Impersonate-Extra-${key}`] = values;
  if (c.impersonationUid) h['Impersonate-Uid'] = c.impersonationUid;
  return h;
}

describe('upstream’s TestImpersonationFilter table', () => {
  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const a = await send(c.user, headersOf(c));
    expect(a.code).toBe(c.expectedCode);
    expect(a.seen?.user).toEqual(c.expectedUser);
    if (c.expectedCode === 403) {
      const status = JSON.parse(a.body) as { reason: string; code: number; message: string };
      expect(status).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
      if (c.expectedMessage) expect(status.message).toBe(c.expectedMessage);
    }
    if (c.expectedCode === 500) {
      expect(a.contentType).toBe('text/plain; charset=utf-8');
      expect(a.body).toBe(c.expectedMessage);
    }
    if (a.seen && !c.passesHeaders) {
      // Later code never sees the impersonation headers (upstream's doNothingHandler checks).
      expect(Object.keys(a.seen.headers).filter((k) => k.startsWith('impersonate-'))).toEqual([]);
      expect(a.seen.rawHeaders.filter((k, i) => i % 2 === 0 && /^impersonate-/i.test(k))).toEqual([]);
    }
  });
});

describe('header parsing', () => {
  test('each Impersonate-Group line is one group (Node would join repeated lines with ", ")', async () => {
    const a = await send(user('system:admin'), { 'Impersonate-User': 'bob', 'Impersonate-Group': ['a, b', 'c'] });
    expect(a.seen?.user).toEqual(user('bob', ['a, b', 'c', 'system:authenticated']));
  });

  test('the first Impersonate-User and Impersonate-Uid lines count, as Go’s Header.Get', async () => {
    const a = await send(user('system:admin'), { 'Impersonate-User': ['bob', 'carol'], 'Impersonate-Uid': ['u1', 'u2'] });
    expect(a.seen?.user).toEqual({ name: 'bob', groups: ['system:authenticated'], uid: 'u1' });
  });

  test('extra keys are case-insensitive header names, lower-cased; one value per line', async () => {
    const a = await send(user('system:admin'), ['Impersonate-User', 'bob', 'Impersonate-Extra-Team', 'Blue', 'IMPERSONATE-EXTRA-TEAM', 'Red', 'impersonate-extra-team', 'Green']);
    expect(a.seen?.user.extra).toEqual({ team: ['Blue', 'Red', 'Green'] });
  });

  test('an extra key "__proto__" is an ordinary key', async () => {
    const a = await send(user('system:admin'), { 'Impersonate-User': 'bob', 'Impersonate-Extra-__proto__': 'x' });
    expect(Object.getOwnPropertyNames(a.seen?.user.extra)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(a.seen?.user.extra)).toBe(Object.prototype);
  });

  test('header values are read as UTF-8 bytes, as Go reads them', async () => {
    const a = await send(user('system:admin'), { 'Impersonate-User': Buffer.from('José', 'utf8').toString('latin1') });
    expect(a.seen?.user.name).toBe('José');
  });

  test('other Impersonate-* headers are not impersonation', async () => {
    const a = await send(user('dev'), { 'Impersonate-Something': 'x' });
    expect(a.code).toBe(200);
    expect(a.seen?.user).toEqual(user('dev'));
  });
});

describe('what the rest of the request sees', () => {
  test('the request log names the impersonated user and who impersonated', async () => {
    const a = await send(user('system:admin'), { 'Impersonate-User': 'bob' });
    expect(a.log).toMatchObject({ user: 'bob', impersonatedBy: 'system:admin', code: 200 });
    const plain = await send(user('dev'), {});
    expect(plain.log.user).toBe('dev');
    expect(plain.log).not.toHaveProperty('impersonatedBy');
  });

  test('audit: the event’s user is the requestor, impersonatedUser the new one; RequestReceived comes before impersonation', async () => {
    const a = await send(user('system:admin', ['system:masters']), { 'Impersonate-User': 'bob', 'Impersonate-Uid': 'u-9', 'Impersonate-Extra-Scopes': 'a' });
    expect(a.events.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    const [received, complete] = a.events;
    expect(received.user).toEqual({ username: 'system:admin', groups: ['system:masters'] });
    expect(received).not.toHaveProperty('impersonatedUser');
    expect(complete.user).toEqual({ username: 'system:admin', groups: ['system:masters'] });
    expect(complete.impersonatedUser).toEqual({ username: 'bob', uid: 'u-9', groups: ['system:authenticated'], extra: { scopes: ['a'] } });
  });

  test('audit: a refused impersonation has no impersonatedUser and no authorization annotations (upstream’s filter adds none)', async () => {
    const a = await send(user('dev', ['sa-impersonater']), { 'Impersonate-User': 'tester' });
    const complete = a.events.find((e) => e.stage === 'ResponseComplete');
    expect(complete).not.toHaveProperty('impersonatedUser');
    expect(complete).not.toHaveProperty('annotations');
    expect(complete?.responseStatus).toMatchObject({ code: 403, reason: 'Forbidden' });
  });

  test('audit: the request’s own authorization annotations are about the impersonated user', async () => {
    const a = await send(user('system:admin'), { 'Impersonate-User': 'nobody' });
    const complete = a.events.find((e) => e.stage === 'ResponseComplete');
    expect(complete?.impersonatedUser).toEqual({ username: 'nobody', groups: ['system:authenticated'] });
    expect(complete?.annotations).toEqual({ [`${apiGroups.authorization}/decision`]: 'forbid', [`${apiGroups.authorization}/reason`]: '' });
  });

  test('audit: the malformed request records the 500 code and no Status', async () => {
    const a = await send(user('tester'), { 'Impersonate-Group': 'g' });
    const complete = a.events.find((e) => e.stage === 'ResponseComplete');
    expect(complete?.responseStatus).toEqual({ metadata: {}, code: 500 });
  });
});
