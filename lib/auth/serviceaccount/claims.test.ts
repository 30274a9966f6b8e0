import { generateKeyPairSync } from 'node:crypto';
import {
  issueServiceAccountToken,
  serviceAccountTokenClaims,
  validateServiceAccountClaims,
  type IssueServiceAccountTokenOptions,
  type ValidateServiceAccountClaimsOptions,
} from './claims';
import { decodeJws, signingKeyFrom, verifyJws } from './jwt';

const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const signingKey = signingKeyFrom(key.privateKey);
const t0 = new Date('2026-01-10T08:00:00.750Z'); // sub-second part must be truncated
const s0 = 1768032000;
const base: IssueServiceAccountTokenOptions = {
  signingKey,
  issuer: 'https://svc.example',
  audiences: ['https://svc.example'],
  expirationSeconds: 3600,
  serviceAccount: { namespace: 'team-a', name: 'builder', uid: 'sa-uid' },
  now: () => t0,
  newId: () => 'jti-1',
};

describe('serviceAccountTokenClaims', () => {
  const common = { aud: ['https://svc.example'], exp: s0 + 3600, iat: s0, iss: 'https://svc.example', jti: 'jti-1', nbf: s0, sub: 'system:serviceaccount:team-a:builder' };
  test.each<[string, Partial<IssueServiceAccountTokenOptions>, Record<string, unknown>]>([
    ['unbound', {}, { ...common, 'svc.io': { namespace: 'team-a', serviceaccount: { name: 'builder', uid: 'sa-uid' } } }],
    [
      'bound to a pod, with its node',
      { boundObject: { kind: 'Pod', name: 'web-0', uid: 'pod-uid' }, podNode: { name: 'n1', uid: 'node-uid' } },
      { ...common, 'svc.io': { namespace: 'team-a', node: { name: 'n1', uid: 'node-uid' }, pod: { name: 'web-0', uid: 'pod-uid' }, serviceaccount: { name: 'builder', uid: 'sa-uid' } } },
    ],
    [
      'bound to a secret',
      { boundObject: { kind: 'Secret', name: 's', uid: 'secret-uid' } },
      { ...common, 'svc.io': { namespace: 'team-a', secret: { name: 's', uid: 'secret-uid' }, serviceaccount: { name: 'builder', uid: 'sa-uid' } } },
    ],
    [
      'bound to a node',
      { boundObject: { kind: 'Node', name: 'n1', uid: 'node-uid' } },
      { ...common, 'svc.io': { namespace: 'team-a', node: { name: 'n1', uid: 'node-uid' }, serviceaccount: { name: 'builder', uid: 'sa-uid' } } },
    ],
    [
      'extended lifetime records warnafter',
      { expirationSeconds: 31536000, warnAfterSeconds: 3607 },
      { ...common, exp: s0 + 31536000, 'svc.io': { namespace: 'team-a', serviceaccount: { name: 'builder', uid: 'sa-uid' }, warnafter: s0 + 3607 } },
    ],
    ['several audiences', { audiences: ['a', 'b'] }, { ...common, aud: ['a', 'b'], 'svc.io': { namespace: 'team-a', serviceaccount: { name: 'builder', uid: 'sa-uid' } } }],
    ['no audiences: no aud claim', { audiences: [] }, (({ aud: _a, ...rest }) => ({ ...rest, 'svc.io': { namespace: 'team-a', serviceaccount: { name: 'builder', uid: 'sa-uid' } } }))(common)],
  ])('%s', (_n, more, want) => {
    const claims = serviceAccountTokenClaims({ ...base, ...more });
    // Same bytes as upstream's JOSE library writes: keys sorted at every level.
    expect(JSON.stringify(claims)).toBe(JSON.stringify(want));
  });

  test('jti is a fresh random UUID by default', () => {
    const { newId: _n, ...opts } = base;
    const a = serviceAccountTokenClaims(opts).jti;
    const b = serviceAccountTokenClaims(opts).jti;
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
  });

  test.each<[string, Partial<IssueServiceAccountTokenOptions>, string]>([
    ['unknown bound kind', { boundObject: { kind: 'ConfigMap' as 'Pod', name: 'c', uid: 'u' } }, 'cannot bind token to object of kind ConfigMap'],
    ['pod node without a pod', { boundObject: { kind: 'Secret', name: 's', uid: 'u' }, podNode: { name: 'n', uid: 'u' } }, 'internal error, token can only be bound to one object type'],
  ])('refuses %s', (_n, more, message) => {
    expect(() => serviceAccountTokenClaims({ ...base, ...more })).toThrow(message);
  });
});

describe('issueServiceAccountToken', () => {
  test.each<[string, Partial<IssueServiceAccountTokenOptions>, number, string]>([
    ['plain', {}, s0 + 3600, '2026-01-10T09:00:00.750Z'],
    ['extended lifetime reports the requested expiry', { expirationSeconds: 31536000, warnAfterSeconds: 3607 }, s0 + 31536000, '2026-01-10T09:00:07.750Z'],
  ])('%s', (_n, more, exp, expiration) => {
    const issued = issueServiceAccountToken({ ...base, ...more });
    const jws = decodeJws(issued.token);
    expect(jws.header).toEqual({ alg: 'ES256', kid: signingKey.kid });
    expect(verifyJws(jws, [key.publicKey])).toMatchObject({ exp, iat: s0, sub: 'system:serviceaccount:team-a:builder' });
    expect(issued.expirationTimestamp.toISOString()).toBe(expiration);
  });
});

describe('validateServiceAccountClaims', () => {
  const now = new Date(s0 * 1000 + 1000);
  const opts: ValidateServiceAccountClaimsOptions = { issuers: ['https://svc.example', 'https://old.example'], apiAudiences: ['https://svc.example'], now: () => now };
  const claims = (more: Record<string, unknown> = {}): Record<string, unknown> => ({ ...serviceAccountTokenClaims(base), ...more });
  const at = (seconds: number): (() => Date) => () => new Date(seconds * 1000);

  test('valid claims come back typed, with the accepted audiences', () => {
    expect(validateServiceAccountClaims(claims(), opts)).toEqual({
      issuer: 'https://svc.example',
      subject: 'system:serviceaccount:team-a:builder',
      audiences: ['https://svc.example'],
      jti: 'jti-1',
      expiry: s0 + 3600,
      notBefore: s0,
      issuedAt: s0,
      serviceAccount: { namespace: 'team-a', name: 'builder', uid: 'sa-uid' },
    });
  });

  test.each<[string, Record<string, unknown>, Partial<ValidateServiceAccountClaimsOptions>, string[]]>([
    ['second accepted issuer', { iss: 'https://old.example' }, {}, ['https://svc.example']],
    ['intersection in the order requested', { aud: ['x', 'y', 'z'] }, { requestedAudiences: ['z', 'nope', 'x'] }, ['z', 'x']],
    ['empty request means the API audiences', { aud: ['x', 'https://svc.example'] }, { requestedAudiences: [] }, ['https://svc.example']],
    ['a single string aud', { aud: 'https://svc.example' }, {}, ['https://svc.example']],
    ['no aud: good for the API audiences only', { aud: undefined }, {}, ['https://svc.example']],
    ['no API audiences configured: no audience check', { aud: ['x'] }, { apiAudiences: [] }, []],
    ['nbf in the future within the 60 s leeway', { nbf: s0 + 60 }, { now: at(s0) }, ['https://svc.example']],
    ['expired within the 60 s leeway', { exp: s0 }, { now: at(s0 + 60) }, ['https://svc.example']],
    ['no exp at all', { exp: undefined }, { now: at(s0 + 10 ** 9) }, ['https://svc.example']],
  ])('accepts %s', (_n, more, o, audiences) => {
    expect(validateServiceAccountClaims(claims(more), { ...opts, ...o }).audiences).toEqual(audiences);
  });

  test.each<[string, Record<string, unknown>, Partial<ValidateServiceAccountClaimsOptions>, string]>([
    ['foreign issuer', { iss: 'https://evil.example' }, {}, 'token issuer "https://evil.example" is invalid'],
    ['wrong audience', { aud: ['other'] }, {}, 'token audiences ["other"] is invalid for the target audiences ["https://svc.example"]'],
    ['requested audience the token lacks', {}, { requestedAudiences: ['a', 'b'] }, 'token audiences ["https://svc.example"] is invalid for the target audiences ["a" "b"]'],
    ['not valid yet beyond the leeway', { nbf: s0 + 61 }, { now: at(s0) }, 'service account token is not valid yet'],
    ['expired beyond the leeway', { exp: s0 }, { now: () => new Date((s0 + 60) * 1000 + 1) }, 'service account token has expired'],
    ['expired once a fractional exp is truncated like NumericDate', { exp: s0 + 0.9 }, { now: () => new Date((s0 + 60) * 1000 + 500) }, 'service account token has expired'],
    ['issued in the future', { iat: s0 + 120, nbf: undefined }, { now: at(s0) }, 'service account token is issued in the future'],
    ['exp not a number', { exp: String(s0 + 3600) }, {}, 'service account token claims could not be validated: malformed exp'],
    ['aud with a non-string', { aud: ['a', 1] }, {}, 'service account token claims could not be validated: malformed aud'],
    ['private claim not an object', { 'svc.io': 'team-a' }, {}, 'service account token claims could not be validated: malformed svc.io'],
    ['missing private claim', { 'svc.io': undefined }, {}, 'service account token claims could not be validated: missing svc.io claim'],
    ['private claim without a service account', { 'svc.io': { namespace: 'team-a' } }, {}, 'service account token claims could not be validated: svc.io claim names no service account'],
    ['sub naming another account', { sub: 'system:serviceaccount:team-a:admin' }, {}, 'service account token claims could not be validated: sub does not match the svc.io claim'],
    ['the upstream-named private claim only', { 'svc.io': undefined, 'kubernetes.io': { namespace: 'team-a', serviceaccount: { name: 'builder', uid: 'sa-uid' } } }, {}, 'missing svc.io claim'],
  ])('rejects %s', (_n, more, o, message) => {
    expect(() => validateServiceAccountClaims(claims(more), { ...opts, ...o })).toThrow(message);
  });
});
