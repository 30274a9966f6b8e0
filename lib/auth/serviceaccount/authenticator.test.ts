import { generateKeyPairSync, sign } from 'node:crypto';
import { serviceAccountTokenAuthenticator, type LiveObject, type ServiceAccountTokenAuthenticatorOptions } from './authenticator';
import { issueServiceAccountToken, serviceAccountTokenClaims, type IssueServiceAccountTokenOptions } from './claims';
import { signingKeyFrom, signJws } from './jwt';

const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const stranger = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const s0 = 1768032000;
const now = (): Date => new Date((s0 + 10) * 1000);
const issue = (more: Partial<IssueServiceAccountTokenOptions> = {}): string =>
  issueServiceAccountToken({
    signingKey: signingKeyFrom(ec.privateKey),
    issuer: 'https://svc.example',
    audiences: ['https://svc.example'],
    expirationSeconds: 3600,
    serviceAccount: { namespace: 'team-a', name: 'builder', uid: 'sa-uid' },
    now: () => new Date(s0 * 1000),
    newId: () => 'jti-1',
    ...more,
  }).token;

type Store = Record<string, LiveObject>;
function authenticator(store: Store = {}, more: Partial<ServiceAccountTokenAuthenticatorOptions> = {}): ReturnType<typeof serviceAccountTokenAuthenticator> {
  const get = (key: string): Promise<LiveObject | null> => Promise.resolve(store[key] ?? null);
  return serviceAccountTokenAuthenticator({
    publicKeys: [rsa.publicKey, ec.publicKey],
    issuers: ['https://svc.example', 'https://old.example'],
    apiAudiences: ['https://svc.example'],
    now,
    getServiceAccount: (ns, name) => get(`sa/${ns}/${name}`),
    getPod: (ns, name) => get(`pod/${ns}/${name}`),
    getSecret: (ns, name) => get(`secret/${ns}/${name}`),
    getNode: (name) => get(`node/${name}`),
    ...more,
  });
}
const live: Store = { 'sa/team-a/builder': { uid: 'sa-uid' } };
const user = { name: 'system:serviceaccount:team-a:builder', uid: 'sa-uid', groups: ['system:serviceaccounts', 'system:serviceaccounts:team-a'] };
const jtiExtra = { 'authentication.svc.io/credential-id': ['JTI=jti-1'] };

describe('serviceAccountTokenAuthenticator: accepted tokens', () => {
  test.each<[string, string, Store, Record<string, unknown>]>([
    ['ES256 token', issue(), live, { user: { ...user, extra: jtiExtra }, audiences: ['https://svc.example'] }],
    ['RS256 token (keys tried by kid)', issue({ signingKey: signingKeyFrom(rsa.privateKey) }), live, { user: { ...user, extra: jtiExtra }, audiences: ['https://svc.example'] }],
    ['older accepted issuer', issue({ issuer: 'https://old.example' }), live, { user: { ...user, extra: jtiExtra }, audiences: ['https://svc.example'] }],
    ['token without jti has no credential id', issue({ newId: () => '' }), live, { user, audiences: ['https://svc.example'] }],
    [
      'pod-bound with node info',
      issue({ boundObject: { kind: 'Pod', name: 'web-0', uid: 'pod-uid' }, podNode: { name: 'n1', uid: 'node-uid' } }),
      { ...live, 'pod/team-a/web-0': { uid: 'pod-uid' } },
      {
        user: {
          ...user,
          extra: {
            'authentication.svc.io/pod-name': ['web-0'],
            'authentication.svc.io/pod-uid': ['pod-uid'],
            ...jtiExtra,
            'authentication.svc.io/node-name': ['n1'],
            'authentication.svc.io/node-uid': ['node-uid'],
          },
        },
        audiences: ['https://svc.example'],
      },
    ],
    [
      'node-bound',
      issue({ boundObject: { kind: 'Node', name: 'n1', uid: 'node-uid' } }),
      { ...live, 'node/n1': { uid: 'node-uid' } },
      { user: { ...user, extra: { ...jtiExtra, 'authentication.svc.io/node-name': ['n1'], 'authentication.svc.io/node-uid': ['node-uid'] } }, audiences: ['https://svc.example'] },
    ],
    ['secret-bound adds no extras', issue({ boundObject: { kind: 'Secret', name: 's', uid: 'secret-uid' } }), { ...live, 'secret/team-a/s': { uid: 'secret-uid' } }, { user: { ...user, extra: jtiExtra }, audiences: ['https://svc.example'] }],
    [
      'service account being deleted, within the 60 s leeway',
      issue(),
      { 'sa/team-a/builder': { uid: 'sa-uid', deletionTimestamp: new Date((s0 - 50) * 1000).toISOString() } },
      { user: { ...user, extra: jtiExtra }, audiences: ['https://svc.example'] },
    ],
  ])('%s', async (_n, token, store, want) => {
    expect(await authenticator(store).authenticateToken(token)).toEqual(want);
  });

  test('TokenReview audiences: the result lists the requested audiences the token carries', async () => {
    const token = issue({ audiences: ['vault', 'https://svc.example', 'other'] });
    expect(await authenticator(live).authenticateToken(token, ['other', 'vault', 'absent'])).toMatchObject({ audiences: ['other', 'vault'] });
    expect(await authenticator(live).authenticateToken(token, [])).toMatchObject({ audiences: ['https://svc.example'] });
  });

  test('a bound object whose getter is not supplied is taken on its signed claim', async () => {
    const token = issue({ boundObject: { kind: 'Pod', name: 'web-0', uid: 'pod-uid' } });
    const a = authenticator(live, { getPod: undefined });
    expect((await a.authenticateToken(token))?.user.extra).toMatchObject({ 'authentication.svc.io/pod-name': ['web-0'] });
  });
});

describe('serviceAccountTokenAuthenticator: tokens that are not ours → null', () => {
  const foreign = issue({ issuer: 'https://other.example' });
  test.each<[string, string]>([
    ['foreign issuer, even when signed with our key', foreign],
    ['opaque token', 'abcdef0123456789'],
    ['two segments', 'a.b'],
    ['JSON serialization', '{"payload":"x","signatures":[]}'],
    ['payload not base64url', 'eyJhbGciOiJFUzI1NiJ9.!!!.sig'],
    ['payload not JSON', `eyJhbGciOiJFUzI1NiJ9.${Buffer.from('iss').toString('base64url')}.c2ln`],
    ['issuer not a string', `eyJhbGciOiJFUzI1NiJ9.${Buffer.from('{"iss":1}').toString('base64url')}.c2ln`],
    ['header garbage with our issuer', `${Buffer.from('{alg').toString('base64url')}.${Buffer.from('{"iss":"https://svc.example"}').toString('base64url')}.c2ln`],
  ])('%s', async (_n, token) => {
    expect(await authenticator(live).authenticateToken(token)).toBeNull();
  });
});

describe('serviceAccountTokenAuthenticator: invalid tokens of ours → throw', () => {
  const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
  const claims = serviceAccountTokenClaims({
    signingKey: signingKeyFrom(ec.privateKey),
    issuer: 'https://svc.example',
    audiences: ['https://svc.example'],
    expirationSeconds: 3600,
    serviceAccount: { namespace: 'team-a', name: 'builder', uid: 'sa-uid' },
    now: () => new Date(s0 * 1000),
  });
  const [h, , s] = issue().split('.');
  const unsignedInput = `${b64({ alg: 'ES256' })}.${b64(claims)}`;
  const strangerSig = sign('sha256', Buffer.from(unsignedInput), { key: stranger.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');

  // Read through rest parameters: jest takes a declared parameter beyond a row's length for a done callback.
  type Row = [string, string, Store, string, Partial<ServiceAccountTokenAuthenticatorOptions>?];
  test.each<Row>([
    ['alg none', `${b64({ alg: 'none' })}.${b64(claims)}.`, live, 'unsupported JWS algorithm "none"'],
    ['tampered payload', `${h}.${b64({ ...claims, sub: 'system:serviceaccount:team-a:admin' })}.${s}`, live, 'invalid signature'],
    ['signed by a stranger', `${unsignedInput}.${strangerSig}`, live, 'invalid signature'],
    ['signed by a stranger, with its own kid', signJws(claims, signingKeyFrom(stranger.privateKey)), live, 'invalid signature, no keys found'],
    ['expired', issue(), live, 'service account token has expired', { now: () => new Date((s0 + 3600 + 61) * 1000) }],
    ['not valid yet', issue(), live, 'service account token is not valid yet', { now: () => new Date((s0 - 61) * 1000) }],
    ['wrong audience', issue({ audiences: ['vault'] }), live, 'token audiences ["vault"] is invalid for the target audiences ["https://svc.example"]'],
    ['service account deleted', issue(), {}, 'serviceaccounts "builder" not found'],
    ['service account deletion past the leeway', issue(), { 'sa/team-a/builder': { uid: 'sa-uid', deletionTimestamp: new Date((s0 - 51) * 1000) } }, 'service account team-a/builder has been deleted'],
    ['service account recreated (uid mismatch)', issue(), { 'sa/team-a/builder': { uid: 'new-uid' } }, 'service account UID (new-uid) does not match claim (sa-uid)'],
    ['bound pod gone', issue({ boundObject: { kind: 'Pod', name: 'web-0', uid: 'pod-uid' } }), live, 'service account token has been invalidated'],
    ['bound pod recreated', issue({ boundObject: { kind: 'Pod', name: 'web-0', uid: 'pod-uid' } }), { ...live, 'pod/team-a/web-0': { uid: 'pod-2' } }, 'pod UID (pod-2) does not match service account pod ref claim (pod-uid)'],
    ['bound pod deleted past the leeway', issue({ boundObject: { kind: 'Pod', name: 'web-0', uid: 'pod-uid' } }), { ...live, 'pod/team-a/web-0': { uid: 'pod-uid', deletionTimestamp: new Date((s0 - 60) * 1000) } }, 'service account token has been invalidated'],
    ['bound secret recreated', issue({ boundObject: { kind: 'Secret', name: 's', uid: 'secret-uid' } }), { ...live, 'secret/team-a/s': { uid: 'x' } }, 'secret UID (x) does not match service account secret ref claim (secret-uid)'],
    ['bound node gone', issue({ boundObject: { kind: 'Node', name: 'n1', uid: 'node-uid' } }), live, 'service account token has been invalidated'],
    ['bound node recreated', issue({ boundObject: { kind: 'Node', name: 'n1', uid: 'node-uid' } }), { ...live, 'node/n1': { uid: 'y' } }, 'node UID (y) does not match service account node ref claim (node-uid)'],
  ])('%s', async (...[, token, store, message, more]: Row) => {
    await expect(authenticator(store, more).authenticateToken(token)).rejects.toThrow(message);
  });

  test('a failing bound-object lookup invalidates the token', async () => {
    const token = issue({ boundObject: { kind: 'Pod', name: 'web-0', uid: 'pod-uid' } });
    const a = authenticator(live, { getPod: () => Promise.reject(new Error('etcd down')) });
    await expect(a.authenticateToken(token)).rejects.toThrow('service account token has been invalidated');
  });

  test('a failing service account lookup is passed on', async () => {
    const a = authenticator(live, { getServiceAccount: () => Promise.reject(new Error('cache not ready')) });
    await expect(a.authenticateToken(issue())).rejects.toThrow('cache not ready');
  });

  test('the same token passes against a live account, so the cases above fail for their stated reason', async () => {
    await expect(authenticator(live).authenticateToken(issue())).resolves.toMatchObject({ user: { name: user.name } });
  });
});
