// Bearer tokens end to end: TokenRequest → authenticate → TokenReview → expiry, deletion and
// re-creation of the ServiceAccount, foreign keys and garbage; static tokens from --token-auth-file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, startCluster, TestCluster } from './support/apiserver';
import { defaultIssuer, jwtPayload, serviceAccountClaims, signEs256, strangerKey } from './support/jwt';
import { asBearer } from './support/users';

const ns = 'tokens';
const saApi = `/api/v1/namespaces/${ns}/serviceaccounts`;
const tokenRequest = (spec: Record<string, unknown> = {}): Record<string, unknown> => ({ apiVersion: 'authentication.svc.io/v1', kind: 'TokenRequest', spec });
const credentialIdKey = 'authentication.svc.io/credential-id';

interface TokenRequestOut {
  metadata: Record<string, unknown>;
  spec: { audiences: string[]; expirationSeconds: number };
  status: { token?: string; expirationTimestamp?: string };
}
interface UserInfo {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

let c: TestCluster;
const staticDir = mkdtempSync(join(tmpdir(), 'svc-tokenfile-'));

beforeAll(async () => {
  // token,user,uid,"group1,group2" — as upstream's CSV token file
  writeFileSync(join(staticDir, 'tokens.csv'), 'static-secret-token,static-user,static-uid,"team-a,team-b"\n');
  c = await startCluster([`--token-auth-file=${join(staticDir, 'tokens.csv')}`]);
  await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
  for (const name of ['bot', 'doomed']) await c.apiserver.request('POST', saApi, { body: { metadata: { name } } });
});
afterAll(async () => {
  await c?.stop();
  rmSync(staticDir, { recursive: true, force: true });
});

async function requestToken(sa: string, spec: Record<string, unknown> = {}, query = ''): Promise<{ status: number; body: TokenRequestOut & { message?: string } }> {
  const r = await c.apiserver.request('POST', `${saApi}/${sa}/token${query}`, { body: tokenRequest(spec) });
  return { status: r.status, body: r.json() };
}

async function mint(sa: string): Promise<string> {
  const r = await requestToken(sa);
  if (r.status !== 201 || !r.body.status.token) throw new Error(`TokenRequest ${sa}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.status.token;
}

/** SelfSubjectReview presenting only the token: the user, or the HTTP status when refused. */
async function whoAmI(token: string): Promise<UserInfo | number> {
  const r = await c.apiserver.request('POST', '/apis/authentication.svc.io/v1/selfsubjectreviews', {
    ...asBearer(token),
    body: { apiVersion: 'authentication.svc.io/v1', kind: 'SelfSubjectReview' },
  });
  return r.status === 201 ? r.json<{ status: { userInfo: UserInfo } }>().status.userInfo : r.status;
}

async function review(token: string, audiences?: string[]): Promise<{ authenticated?: boolean; user?: UserInfo; audiences?: string[]; error?: string }> {
  const r = await c.apiserver.request('POST', '/apis/authentication.svc.io/v1/tokenreviews', {
    body: { apiVersion: 'authentication.svc.io/v1', kind: 'TokenReview', spec: { token, audiences } },
  });
  expect(r.status).toBe(201);
  return r.json<{ status: Record<string, never> }>().status;
}

const uidOf = async (name: string): Promise<string> => (await c.apiserver.request('GET', `${saApi}/${name}`)).json<{ metadata: { uid: string } }>().metadata.uid;

describe('TokenRequest', () => {
  test('defaults: one hour, the API audience, expirationTimestamp = now + 1 h', async () => {
    const before = Date.now();
    const r = await requestToken('bot');
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      kind: 'TokenRequest',
      apiVersion: 'authentication.svc.io/v1',
      metadata: { name: 'bot', namespace: ns },
      spec: { audiences: [defaultIssuer], expirationSeconds: 3600 },
    });
    const exp = Date.parse(r.body.status.expirationTimestamp ?? '');
    expect(exp).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3600_000);
    expect(exp).toBeLessThanOrEqual(Date.now() + 3600_000);
    const claims = jwtPayload(r.body.status.token ?? '');
    expect(claims).toMatchObject({ iss: defaultIssuer, aud: [defaultIssuer], sub: `system:serviceaccount:${ns}:bot` });
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    expect(claims.exp).toBe(Math.floor(exp / 1000));
  });

  test('status.expirationTimestamp is a metav1.Time: RFC 3339 in whole seconds', async () => {
    const r = await requestToken('bot');
    expect(r.body.status.expirationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  test.each([
    [599, 422, 'TokenRequest.authentication.svc.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes'],
    [2 ** 32 + 1, 422, 'TokenRequest.authentication.svc.io "" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds'],
    [600, 201, undefined],
  ])('expirationSeconds %d → %d', async (seconds, status, message) => {
    const r = await requestToken('bot', { expirationSeconds: seconds });
    expect(r.status).toBe(status);
    if (message) expect(r.body).toMatchObject({ kind: 'Status', reason: 'Invalid', message });
    else expect(r.body.spec.expirationSeconds).toBe(seconds);
  });

  test('requested audiences are kept', async () => {
    const r = await requestToken('bot', { audiences: ['vault', 'other'] });
    expect(r.body.spec.audiences).toEqual(['vault', 'other']);
    expect(jwtPayload(r.body.status.token ?? '').aud).toEqual(['vault', 'other']);
  });

  test('a dry run returns the defaulted request without a token', async () => {
    const r = await requestToken('bot', {}, '?dryRun=All');
    expect(r.status).toBe(201);
    expect(r.body.spec).toMatchObject({ audiences: [defaultIssuer], expirationSeconds: 3600 });
    expect(r.body.status.token).toBeUndefined();
  });

  test('a missing ServiceAccount → 404', async () => {
    const r = await requestToken('nobody');
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('serviceaccounts "nobody" not found');
  });
});

describe('a minted token', () => {
  let token: string;
  beforeAll(async () => {
    token = await mint('bot');
  });

  test('authenticates as the ServiceAccount (SelfSubjectReview)', async () => {
    const jti = jwtPayload(token).jti as string;
    expect(await whoAmI(token)).toEqual({
      username: `system:serviceaccount:${ns}:bot`,
      uid: await uidOf('bot'),
      groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
      extra: { [credentialIdKey]: [`JTI=${jti}`] },
    });
  });

  test('TokenReview as the admin: authenticated, for the API audience', async () => {
    const st = await review(token);
    expect(st).toMatchObject({ authenticated: true, audiences: [defaultIssuer], user: { username: `system:serviceaccount:${ns}:bot` } });
    expect(st.error).toBeUndefined();
  });

  test('TokenReview for another audience: not authenticated, with the reason', async () => {
    expect(await review(token, ['vault'])).toEqual({
      authenticated: false,
      error: `token audiences ["${defaultIssuer}"] is invalid for the target audiences ["vault"]`,
    });
  });

  test('a token for another audience does not authenticate to the API', async () => {
    const r = await requestToken('bot', { audiences: ['vault'] });
    expect(await whoAmI(r.body.status.token ?? '')).toBe(401);
    expect(await review(r.body.status.token ?? '', ['vault'])).toMatchObject({ authenticated: true, audiences: ['vault'] });
  });
});

describe('tokens that must not authenticate', () => {
  const now = (): number => Math.floor(Date.now() / 1000);
  const saKey = (): string => readFileSync(join(c.dir, 'pki', 'sa.key'), 'utf8');

  test('the control: a token forged with the server key and a live exp authenticates', async () => {
    const claims = serviceAccountClaims({ namespace: ns, name: 'bot', uid: await uidOf('bot'), issuedAt: now() - 10, expiresAt: now() + 600 });
    expect(await whoAmI(signEs256(claims, saKey()))).toMatchObject({ username: `system:serviceaccount:${ns}:bot` });
  });

  test('expired (exp an hour ago) → 401, and TokenReview says why', async () => {
    const claims = serviceAccountClaims({ namespace: ns, name: 'bot', uid: await uidOf('bot'), issuedAt: now() - 7200, expiresAt: now() - 3600 });
    const token = signEs256(claims, saKey());
    const r = await c.apiserver.request('GET', '/api', asBearer(token));
    expect(r.status).toBe(401);
    expect(r.json()).toMatchObject({ kind: 'Status', status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    expect(await review(token)).toEqual({ authenticated: false, error: 'service account token has expired' });
  });

  test('signed by a key the server does not know → 401', async () => {
    const claims = serviceAccountClaims({ namespace: ns, name: 'bot', uid: await uidOf('bot'), issuedAt: now(), expiresAt: now() + 600 });
    const token = signEs256(claims, strangerKey());
    expect(await whoAmI(token)).toBe(401);
    expect(await review(token)).toMatchObject({ authenticated: false, error: expect.stringContaining('invalid signature') });
  });

  /** A real token whose payload was swapped for a longer-lived one: the signature no longer covers it. */
  async function tampered(): Promise<string> {
    const [header, , signature] = (await mint('bot')).split('.');
    const claims = serviceAccountClaims({ namespace: ns, name: 'bot', uid: await uidOf('bot'), issuedAt: now(), expiresAt: now() + 86_400 });
    return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
  }

  test.each([
    ['a word', async () => 'garbage'],
    ['three segments of junk', async () => 'a.b.c'],
    ['a JWT with a swapped payload', tampered],
  ])('garbage (%s) → 401, never anonymous', async (_label, token) => {
    // /healthz is open to anonymous users: a bad token must still be refused, not downgraded.
    const r = await c.apiserver.request('GET', '/healthz', asBearer(await token()));
    expect(r.status).toBe(401);
  });

  test('deleting the ServiceAccount revokes its tokens; a new one with the same name does not revive them', async () => {
    const old = await mint('doomed');
    expect(await whoAmI(old)).toMatchObject({ username: `system:serviceaccount:${ns}:doomed` });
    expect((await c.apiserver.request('DELETE', `${saApi}/doomed`)).status).toBe(200);
    await eventually(async () => (await whoAmI(old)) === 401, 10_000, 'the old token to be refused after deletion');

    expect((await c.apiserver.request('POST', saApi, { body: { metadata: { name: 'doomed' } } })).status).toBe(201);
    const fresh = await mint('doomed');
    await eventually(async () => typeof (await whoAmI(fresh)) === 'object', 10_000, 'the new token to work');
    expect(await whoAmI(old)).toBe(401);
    expect((await review(old)).error).toMatch(/^service account UID \([0-9a-f-]+\) does not match claim \([0-9a-f-]+\)$/);
  });
});

describe('--token-auth-file', () => {
  test('a static token authenticates with its user, uid and groups', async () => {
    expect(await whoAmI('static-secret-token')).toEqual({ username: 'static-user', uid: 'static-uid', groups: ['team-a', 'team-b', 'system:authenticated'] });
  });

  test('TokenReview accepts it for the API audience only', async () => {
    expect(await review('static-secret-token')).toMatchObject({ authenticated: true, audiences: [defaultIssuer], user: { username: 'static-user' } });
    expect(await review('static-secret-token', ['vault'])).toEqual({ authenticated: false });
  });

  test('a near miss is no token', async () => {
    expect(await whoAmI('static-secret-tokeN')).toBe(401);
  });
});
