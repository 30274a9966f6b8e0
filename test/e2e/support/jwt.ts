// ServiceAccount-shaped JWTs made in the test, independently of the server's code: to forge
// tokens the server must refuse (expired, signed by a stranger) with node:crypto alone.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

/** The issuer and audience a default server uses (--service-account-issuer's default). */
export const defaultIssuer = 'https://svc.default.svc.cluster.local';

export interface ServiceAccountClaimsInput {
  namespace: string;
  name: string;
  uid: string;
  /** Seconds since the epoch. */
  issuedAt: number;
  expiresAt: number;
  issuer?: string;
  audiences?: string[];
}

/** The claims the server issues for a TokenRequest, with the product's private claim `svc.io`. */
export function serviceAccountClaims(c: ServiceAccountClaimsInput): Record<string, unknown> {
  return {
    aud: c.audiences ?? [defaultIssuer],
    exp: c.expiresAt,
    iat: c.issuedAt,
    iss: c.issuer ?? defaultIssuer,
    jti: 'e2e-forged',
    nbf: c.issuedAt,
    sub: `system:serviceaccount:${c.namespace}:${c.name}`,
    'svc.io': { namespace: c.namespace, serviceaccount: { name: c.name, uid: c.uid } },
  };
}

/** The key id as upstream computes it: base64url(SHA-256(DER SubjectPublicKeyInfo)). */
export function keyId(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return createHash('sha256').update(pub.export({ type: 'spki', format: 'der' })).digest('base64url');
}

/** A compact ES256 JWS over `claims` with a P-256 private key (PEM or KeyObject). */
export function signEs256(claims: object, privateKey: string | KeyObject): string {
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  const enc = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');
  const input = `${enc({ alg: 'ES256', kid: keyId(key) })}.${enc(claims)}`;
  const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

/** A fresh P-256 key nobody trusts. */
export function strangerKey(): KeyObject {
  return generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
}

/** The payload of a compact JWS, unverified. */
export function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}
