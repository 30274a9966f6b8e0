import { generateKeyPairSync } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isApiError } from '../machinery/errors';
import { unionAuthenticator, type AuthRequest } from './authenticator';
import {
  audienceAgnosticTokenAuthenticator,
  bearerToken,
  bearerTokenAuthenticator,
  extraSpaceBeforeTokenWarning,
  unionTokenAuthenticator,
  type TokenAuthenticator,
  type TokenAuthResult,
} from './bearer';
import { issueServiceAccountToken, serviceAccountTokenAuthenticator, signingKeyFrom } from './serviceaccount';
import { parseTokenFile, tokenFileAuthenticator } from './tokenfile';

const req = (authorization?: string): AuthRequest => ({ socket: {}, headers: authorization === undefined ? {} : { authorization } });

describe('bearerToken', () => {
  test.each<[string, IncomingHttpHeaders, string | null, string[]]>([
    ['no Authorization header', {}, null, []],
    ['empty header', { authorization: '' }, null, []],
    ['another scheme', { authorization: 'Basic YWxpY2U6cHc=' }, null, []],
    ['Bearer', { authorization: 'Bearer abc.def-ghi' }, 'abc.def-ghi', []],
    ['scheme is case-insensitive', { authorization: 'bEaReR tok' }, 'tok', []],
    ['surrounding spaces are trimmed', { authorization: '  Bearer tok  ' }, 'tok', []],
    ['scheme alone', { authorization: 'Bearer' }, null, []],
    ['scheme and a space (trimmed away)', { authorization: 'Bearer ' }, null, []],
    ['two spaces: empty token, with a warning', { authorization: 'Bearer  tok' }, null, [extraSpaceBeforeTokenWarning]],
    ['a third part is ignored', { authorization: 'Bearer tok extra words' }, 'tok', []],
    ['a tab is not a separator', { authorization: 'Bearer\ttok' }, null, []],
    ['scheme glued to the token', { authorization: 'Bearertok' }, null, []],
  ])('%s', (_n, headers, want, warnings) => {
    const seen: string[] = [];
    expect(bearerToken(headers, (w) => seen.push(w))).toBe(want);
    expect(seen).toEqual(warnings);
  });
});

const user = (name: string): TokenAuthResult => ({ user: { name, groups: ['g'], extra: { k: ['v'] } }, audiences: [] });
const known = (token: string, result: TokenAuthResult): TokenAuthenticator => ({ authenticateToken: async (t) => (t === token ? result : null) });
const failing = (message: string): TokenAuthenticator => ({
  authenticateToken: async () => {
    throw new Error(message);
  },
});

describe('bearerTokenAuthenticator', () => {
  test('no bearer token → null, and the token authenticator is not asked', async () => {
    let asked = 0;
    const a = bearerTokenAuthenticator({ authenticateToken: async () => (asked++, user('x')) });
    expect(await a.authenticate(req())).toBeNull();
    expect(await a.authenticate(req('Basic x'))).toBeNull();
    expect(asked).toBe(0);
  });

  test('a known token yields a copy of its user', async () => {
    const result = user('alice');
    const a = bearerTokenAuthenticator(known('t1', result));
    const u = await a.authenticate(req('Bearer t1'));
    expect(u).toEqual({ name: 'alice', groups: ['g'], extra: { k: ['v'] } });
    u?.groups.push('mutated');
    u?.extra?.k.push('mutated');
    expect(result.user).toEqual({ name: 'alice', groups: ['g'], extra: { k: ['v'] } });
  });

  test.each<[string, TokenAuthenticator, string, string]>([
    ['an unknown token is invalid, not anonymous', known('t1', user('alice')), 'Bearer nope', 'invalid bearer token'],
    ['a token authenticator failure passes through', failing('service account token has expired'), 'Bearer t1', 'service account token has expired'],
    ['audiences disjoint from the API audiences', known('t1', { ...user('a'), audiences: ['vault'] }), 'Bearer t1', 'unable to match the audience of the token to the API audiences'],
  ])('%s', async (_n, tokenAuth, header, message) => {
    await expect(bearerTokenAuthenticator(tokenAuth, { apiAudiences: ['api'] }).authenticate(req(header))).rejects.toThrow(message);
  });

  test.each<[string, string[]]>([
    ['sharing an API audience', ['vault', 'api']],
    ['no audiences (static tokens)', []],
  ])('audiences %s pass', async (_n, audiences) => {
    const a = bearerTokenAuthenticator(known('t1', { ...user('a'), audiences }), { apiAudiences: ['api'] });
    expect(await a.authenticate(req('Bearer t1'))).toMatchObject({ name: 'a' });
  });

  test('header warnings reach onWarning with the request', async () => {
    const seen: Array<[AuthRequest, string]> = [];
    const r = req('Bearer  t1');
    const a = bearerTokenAuthenticator(known('t1', user('a')), { onWarning: (q, w) => seen.push([q, w]) });
    expect(await a.authenticate(r)).toBeNull();
    expect(seen).toEqual([[r, extraSpaceBeforeTokenWarning]]);
  });

  test('in the request union an unknown bearer token is a 401, a known one a user', async () => {
    const union = unionAuthenticator([bearerTokenAuthenticator(known('t1', user('alice')))], { anonymous: true });
    expect(await union.authenticate(req('Bearer t1'))).toEqual({ name: 'alice', groups: ['g', 'system:authenticated'], extra: { k: ['v'] } });
    const err = await union.authenticate(req('Bearer t2')).catch((e: unknown) => e);
    expect(isApiError(err) && err.code).toBe(401);
    expect((err as Error).cause).toBe('invalid bearer token');
    expect(await union.authenticate(req())).toEqual({ name: 'system:anonymous', groups: ['system:unauthenticated'] });
  });
});

describe('unionTokenAuthenticator', () => {
  test.each<[string, TokenAuthenticator[], string | null]>([
    ['first success wins', [known('t', user('a')), known('t', user('b'))], 'a'],
    ['null falls through', [known('x', user('a')), known('t', user('b'))], 'b'],
    ['a success beats an earlier failure', [failing('bad'), known('t', user('b'))], 'b'],
    ['nobody knows it → null', [known('x', user('a')), known('y', user('b'))], null],
    ['empty union → null', [], null],
  ])('%s', async (_n, list, want) => {
    const r = await unionTokenAuthenticator(list).authenticateToken('t');
    expect(r ? r.user.name : null).toBe(want);
  });

  test.each<[string, TokenAuthenticator[], string]>([
    ['one failure among nulls is thrown as is', [known('x', user('a')), failing('token expired')], 'token expired'],
    ['several failures are aggregated', [failing('e1'), known('x', user('a')), failing('e2')], '[e1, e2]'],
  ])('%s', async (_n, list, message) => {
    await expect(unionTokenAuthenticator(list).authenticateToken('t')).rejects.toThrow(message);
  });

  test('requested audiences reach every member', async () => {
    const seen: Array<readonly string[] | undefined> = [];
    const spy: TokenAuthenticator = { authenticateToken: async (_t, auds) => (seen.push(auds), null) };
    await unionTokenAuthenticator([spy, spy]).authenticateToken('t', ['a']);
    expect(seen).toEqual([['a'], ['a']]);
  });
});

describe('audienceAgnosticTokenAuthenticator', () => {
  test.each<[string, string[], string[] | undefined, string[] | null]>([
    ['request path: the API audiences', ['api', 'api2'], undefined, ['api', 'api2']],
    ['TokenReview with an API audience', ['api', 'api2'], ['vault', 'api2'], ['api2']],
    ['TokenReview with empty audiences means the API audiences', ['api'], [], ['api']],
    ['TokenReview for another audience only → not ours', ['api'], ['vault'], null],
    ['no API audiences and none requested: passed through', [], undefined, []],
    ['no API audiences but some requested → not ours', [], ['vault'], null],
  ])('%s', async (_n, apiAudiences, requested, want) => {
    const a = audienceAgnosticTokenAuthenticator(apiAudiences, known('t', user('static')));
    const r = await a.authenticateToken('t', requested);
    expect(r ? r.audiences : null).toEqual(want);
  });

  test('an unknown token stays null and the delegate is not asked when audiences rule it out', async () => {
    let asked = 0;
    const spy: TokenAuthenticator = { authenticateToken: async () => (asked++, null) };
    const a = audienceAgnosticTokenAuthenticator(['api'], spy);
    expect(await a.authenticateToken('t')).toBeNull();
    expect(await a.authenticateToken('t', ['vault'])).toBeNull();
    expect(asked).toBe(1);
  });

  test('wrapping an audience-aware authenticator is a programming error', async () => {
    const a = audienceAgnosticTokenAuthenticator(['api'], known('t', { ...user('x'), audiences: ['api'] }));
    await expect(a.authenticateToken('t')).rejects.toThrow('audience agnostic authenticator wrapped an authenticator that returned audiences: ["api"]');
  });
});

describe('the pieces wired as the server will wire them', () => {
  const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const apiAudiences = ['https://svc.example'];
  const now = (): Date => new Date('2026-01-10T08:00:00Z');
  const tokens = unionTokenAuthenticator([
    audienceAgnosticTokenAuthenticator(apiAudiences, tokenFileAuthenticator(parseTokenFile('static-secret,admin,1,system:masters\n').entries)),
    serviceAccountTokenAuthenticator({
      publicKeys: [key.publicKey],
      issuers: ['https://svc.example'],
      apiAudiences,
      now,
      getServiceAccount: async (ns, name) => (ns === 'team-a' && name === 'builder' ? { uid: 'sa-uid' } : null),
    }),
  ]);
  const requests = unionAuthenticator([bearerTokenAuthenticator(tokens, { apiAudiences })]);
  const saToken = (audiences: string[], name = 'builder'): string =>
    issueServiceAccountToken({
      signingKey: signingKeyFrom(key.privateKey),
      issuer: 'https://svc.example',
      audiences,
      expirationSeconds: 3600,
      serviceAccount: { namespace: 'team-a', name, uid: 'sa-uid' },
      now,
      newId: () => 'j',
    }).token;

  test.each<[string, string | undefined, unknown]>([
    ['static token', 'Bearer static-secret', { name: 'admin', uid: '1', groups: ['system:masters', 'system:authenticated'] }],
    [
      'service account token',
      `Bearer ${saToken(apiAudiences)}`,
      {
        name: 'system:serviceaccount:team-a:builder',
        uid: 'sa-uid',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:team-a', 'system:authenticated'],
        extra: { 'authentication.svc.io/credential-id': ['JTI=j'] },
      },
    ],
    ['no credential', undefined, { name: 'system:anonymous', groups: ['system:unauthenticated'] }],
  ])('%s', async (_n, header, want) => {
    expect(await requests.authenticate(req(header))).toEqual(want);
  });

  test.each<[string, string, string]>([
    ['unknown token', 'Bearer nope', 'invalid bearer token'],
    ['service account token for another audience', `Bearer ${saToken(['vault'])}`, 'token audiences ["vault"] is invalid for the target audiences ["https://svc.example"]'],
    ['service account token of a deleted account', `Bearer ${saToken(apiAudiences, 'gone')}`, 'serviceaccounts "gone" not found'],
  ])('401: %s', async (_n, header, cause) => {
    const err = await requests.authenticate(req(header)).catch((e: unknown) => e);
    expect(isApiError(err) && err.code).toBe(401);
    expect((err as Error).cause).toBe(cause);
  });

  test('TokenReview: a service account token reviewed for its own audience', async () => {
    expect(await tokens.authenticateToken(saToken(['vault']), ['vault'])).toMatchObject({ audiences: ['vault'] });
    expect(await tokens.authenticateToken('static-secret', ['vault'])).toBeNull();
  });
});
