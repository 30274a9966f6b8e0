// The claims of a ServiceAccount token (upstream pkg/serviceaccount/claims.go): what a TokenRequest
// issues, and the checks a presented token's claims must pass before its ServiceAccount is looked up.
import { randomUUID } from 'node:crypto';
import { serviceAccountClaim } from '../../api';
import { serviceAccountUsername } from './identity';
import { signJws, type SigningKey } from './jwt';

/** The private claim carrying namespace, ServiceAccount and bound objects (upstream "kubernetes.io"). */
export const privateClaimName = serviceAccountClaim;

/** Clock skew tolerated on nbf, exp and iat, and on deletion timestamps (go-jose's jwt.DefaultLeeway). */
export const claimsLeewaySeconds = 60;

export interface ObjectRef {
  name: string;
  uid: string;
}

export type BoundObjectKind = 'Pod' | 'Secret' | 'Node';

export interface BoundObject extends ObjectRef {
  kind: BoundObjectKind;
}

export interface ServiceAccountRef {
  namespace: string;
  name: string;
  uid: string;
}

export interface IssueServiceAccountTokenOptions {
  signingKey: SigningKey;
  /** The first --service-account-issuer. */
  issuer: string;
  audiences: readonly string[];
  /** Lifetime written into exp (for an extended token, the extended lifetime). */
  expirationSeconds: number;
  serviceAccount: ServiceAccountRef;
  boundObject?: BoundObject;
  /** The node a bound Pod runs on; recorded next to the pod (upstream's pod-node info). */
  podNode?: ObjectRef;
  /**
   * Extended-lifetime tokens only: the lifetime the client asked for, recorded as warnafter. The
   * returned expirationTimestamp then reports this lifetime, not the extended exp.
   */
  warnAfterSeconds?: number;
  now?: () => Date;
  /** The jti; a random UUID by default. */
  newId?: () => string;
}

export interface IssuedServiceAccountToken {
  token: string;
  expirationTimestamp: Date;
}

function ref(r: ObjectRef): Record<string, string> {
  // omitempty on both fields, as upstream's ref struct
  const out: Record<string, string> = {};
  if (r.name) out.name = r.name;
  if (r.uid) out.uid = r.uid;
  return out;
}

/**
 * The claims upstream issues for a TokenRequest, keys in the order its JOSE library writes them
 * (sorted). NumericDates are whole seconds, truncated.
 */
export function serviceAccountTokenClaims(opts: IssueServiceAccountTokenOptions): Record<string, unknown> {
  const { serviceAccount: sa, boundObject } = opts;
  if (boundObject && !['Pod', 'Secret', 'Node'].includes(boundObject.kind)) {
    throw new Error(`cannot bind token to object of kind ${String(boundObject.kind)}`);
  }
  if (opts.podNode && boundObject?.kind !== 'Pod') throw new Error('internal error, token can only be bound to one object type');
  const nowSeconds = Math.floor((opts.now ?? (() => new Date()))().getTime() / 1000);
  const priv: Record<string, unknown> = {};
  if (sa.namespace) priv.namespace = sa.namespace;
  const node = boundObject?.kind === 'Node' ? boundObject : opts.podNode;
  if (node) priv.node = ref(node);
  if (boundObject?.kind === 'Pod') priv.pod = ref(boundObject);
  if (boundObject?.kind === 'Secret') priv.secret = ref(boundObject);
  priv.serviceaccount = ref(sa);
  if (opts.warnAfterSeconds) priv.warnafter = nowSeconds + opts.warnAfterSeconds;

  const claims: Record<string, unknown> = {};
  if (opts.audiences.length) claims.aud = [...opts.audiences];
  claims.exp = nowSeconds + opts.expirationSeconds;
  claims.iat = nowSeconds;
  claims.iss = opts.issuer;
  claims.jti = (opts.newId ?? randomUUID)();
  claims.nbf = nowSeconds;
  claims.sub = serviceAccountUsername(sa.namespace, sa.name);
  claims[privateClaimName] = priv;
  return claims;
}

/** Signs a TokenRequest's token. expirationTimestamp = now + the requested lifetime. */
export function issueServiceAccountToken(opts: IssueServiceAccountTokenOptions): IssuedServiceAccountToken {
  const now = (opts.now ?? (() => new Date()))();
  const claims = serviceAccountTokenClaims({ ...opts, now: () => now });
  const lifetime = opts.warnAfterSeconds || opts.expirationSeconds;
  return { token: signJws(claims, opts.signingKey), expirationTimestamp: new Date(now.getTime() + lifetime * 1000) };
}

export interface ValidateServiceAccountClaimsOptions {
  /** Every --service-account-issuer is accepted. */
  issuers: readonly string[];
  /** --api-audiences: stands in for a token without aud, and for a caller that requests none. */
  apiAudiences: readonly string[];
  /** The audiences the caller accepts (TokenReview spec.audiences); empty or absent → apiAudiences. */
  requestedAudiences?: readonly string[];
  now: () => Date;
}

/** The claims of a token that passed validation, typed. */
export interface ServiceAccountClaims {
  issuer: string;
  subject: string;
  /** The requested audiences the token is good for (upstream's intersection, in request order). */
  audiences: string[];
  jti?: string;
  expiry?: number;
  notBefore?: number;
  issuedAt?: number;
  serviceAccount: ServiceAccountRef;
  pod?: ObjectRef;
  secret?: ObjectRef;
  node?: ObjectRef;
  warnAfter?: number;
}

function malformed(what: string): Error {
  return new Error(`service account token claims could not be validated: malformed ${what}`);
}

// JSON null decodes to the zero value in Go, so it counts as absent here too.
function optString(v: unknown, what: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw malformed(what);
  return v;
}

function optNumericDate(v: unknown, what: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw malformed(what);
  return Math.trunc(v);
}

function audienceClaim(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((a) => typeof a === 'string')) return v as string[];
  throw malformed('aud');
}

function optObject(v: unknown, what: string): Record<string, unknown> | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw malformed(what);
  return v as Record<string, unknown>;
}

function optRef(v: unknown, what: string): ObjectRef | undefined {
  const o = optObject(v, what);
  if (!o) return undefined;
  return { name: optString(o.name, `${what}.name`) ?? '', uid: optString(o.uid, `${what}.uid`) ?? '' };
}

/** Go's %q of a string slice, for messages that match upstream's. */
function quoteList(list: readonly string[]): string {
  return `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
}

/**
 * Checks a verified token's claims in upstream's order: issuer, audiences, then nbf/exp/iat with
 * 60 s leeway; then that the private claim names a ServiceAccount consistent with sub. Throws with
 * upstream's messages; returns the typed claims with the accepted audiences.
 */
export function validateServiceAccountClaims(payload: Record<string, unknown>, opts: ValidateServiceAccountClaimsOptions): ServiceAccountClaims {
  const issuer = optString(payload.iss, 'iss') ?? '';
  const subject = optString(payload.sub, 'sub') ?? '';
  const tokenAudiences = audienceClaim(payload.aud);
  const jti = optString(payload.jti, 'jti');
  const expiry = optNumericDate(payload.exp, 'exp');
  const notBefore = optNumericDate(payload.nbf, 'nbf');
  const issuedAt = optNumericDate(payload.iat, 'iat');
  const priv = optObject(payload[privateClaimName], privateClaimName);
  // Every claim is typed before any is judged: upstream decodes them all before validating.
  const p = (name: string): string => `${privateClaimName}.${name}`;
  const namespace = optString(priv?.namespace, p('namespace')) ?? '';
  const sa = optRef(priv?.serviceaccount, p('serviceaccount'));
  const pod = optRef(priv?.pod, p('pod'));
  const secret = optRef(priv?.secret, p('secret'));
  const node = optRef(priv?.node, p('node'));
  const warnAfter = optNumericDate(priv?.warnafter, p('warnafter'));

  if (!opts.issuers.includes(issuer)) throw new Error(`token issuer ${JSON.stringify(issuer)} is invalid`);

  // A token without aud is good for the API server only (upstream's legacy-token rule).
  const effective = tokenAudiences.length ? tokenAudiences : [...opts.apiAudiences];
  const requested = opts.requestedAudiences?.length ? opts.requestedAudiences : opts.apiAudiences;
  const audiences = requested.filter((a) => effective.includes(a));
  if (audiences.length === 0 && opts.apiAudiences.length !== 0) {
    throw new Error(`token audiences ${quoteList(effective)} is invalid for the target audiences ${quoteList(requested)}`);
  }

  const nowMs = opts.now().getTime();
  const leewayMs = claimsLeewaySeconds * 1000;
  if (notBefore !== undefined && nowMs + leewayMs < notBefore * 1000) throw new Error('service account token is not valid yet');
  if (expiry !== undefined && nowMs - leewayMs > expiry * 1000) throw new Error('service account token has expired');
  if (issuedAt !== undefined && nowMs + leewayMs < issuedAt * 1000) throw new Error('service account token is issued in the future');

  // Stricter than upstream, which trusts the private claim alone: our tokens always agree with sub.
  if (!priv) throw new Error(`service account token claims could not be validated: missing ${privateClaimName} claim`);
  if (!namespace || !sa?.name) throw new Error(`service account token claims could not be validated: ${privateClaimName} claim names no service account`);
  if (subject !== serviceAccountUsername(namespace, sa.name)) {
    throw new Error(`service account token claims could not be validated: sub does not match the ${privateClaimName} claim`);
  }
  const claims: ServiceAccountClaims = { issuer, subject, audiences, serviceAccount: { namespace, name: sa.name, uid: sa.uid } };
  if (jti) claims.jti = jti;
  if (expiry !== undefined) claims.expiry = expiry;
  if (notBefore !== undefined) claims.notBefore = notBefore;
  if (issuedAt !== undefined) claims.issuedAt = issuedAt;
  if (pod) claims.pod = pod;
  if (secret) claims.secret = secret;
  if (node) claims.node = node;
  if (warnAfter) claims.warnAfter = warnAfter;
  return claims;
}
