// The ServiceAccount token authenticator (upstream pkg/serviceaccount/jwt.go JWTTokenAuthenticator with
// the claims.go validator): a JWT with one of our issuers must carry a valid signature, audience and
// lifetime, and must still name an existing ServiceAccount (and bound objects) with the same uid.
import type { KeyObject } from 'node:crypto';
import type { TokenAuthenticator, TokenAuthResult } from '../bearer';
import { claimsLeewaySeconds, validateServiceAccountClaims, type ObjectRef } from './claims';
import { credentialIdForJti, serviceAccountUserInfo, type ServiceAccountInfo } from './identity';
import { decodeJws, JwsFormatError, verifyJws, type DecodedJws } from './jwt';

/** What the authenticator needs of a stored object: its uid, and whether it is being deleted. */
export interface LiveObject {
  uid: string;
  deletionTimestamp?: string | Date | null;
}

export interface ServiceAccountTokenAuthenticatorOptions {
  /** Keys from --service-account-key-file (and the signing key's public half). */
  publicKeys: readonly KeyObject[];
  /** Every --service-account-issuer; tokens from other issuers are not ours (null). */
  issuers: readonly string[];
  /** --api-audiences. */
  apiAudiences: readonly string[];
  now?: () => Date;
  /** The ServiceAccount as stored now (the server reads its watch cache); null when absent. */
  getServiceAccount(namespace: string, name: string): Promise<LiveObject | null>;
  /**
   * Bound-object lookups. A token bound to an object whose getter is not supplied is accepted on
   * its signed claim alone (a server that does not serve that kind cannot check it).
   */
  getPod?(namespace: string, name: string): Promise<LiveObject | null>;
  getSecret?(namespace: string, name: string): Promise<LiveObject | null>;
  getNode?(name: string): Promise<LiveObject | null>;
}

const invalidated = 'service account token has been invalidated';

/** Deleted longer ago than the leeway: a token must not outlive its object by more than that. */
function deletedBefore(obj: LiveObject, cutoffMs: number): boolean {
  if (!obj.deletionTimestamp) return false;
  const t = new Date(obj.deletionTimestamp).getTime();
  return Number.isFinite(t) && t < cutoffMs;
}

async function checkBound(
  get: (() => Promise<LiveObject | null>) | undefined,
  claim: ObjectRef,
  kind: 'secret' | 'pod' | 'node',
  cutoffMs: number,
): Promise<void> {
  if (!get) return;
  const obj = await get().catch(() => null);
  if (!obj) throw new Error(invalidated);
  if (obj.uid !== claim.uid) throw new Error(`${kind} UID (${obj.uid}) does not match service account ${kind} ref claim (${claim.uid})`);
  if (deletedBefore(obj, cutoffMs)) throw new Error(invalidated);
}

export function serviceAccountTokenAuthenticator(opts: ServiceAccountTokenAuthenticatorOptions): TokenAuthenticator {
  const now = opts.now ?? (() => new Date());
  return {
    async authenticateToken(token: string, audiences?: readonly string[]): Promise<TokenAuthResult | null> {
      // Anything that is not a compact JWS from one of our issuers belongs to another authenticator.
      if (token.trim().startsWith('{')) return null;
      let jws: DecodedJws;
      try {
        jws = decodeJws(token);
      } catch (e) {
        if (e instanceof JwsFormatError) return null;
        throw e;
      }
      const unverifiedIssuer = jws.payload.iss;
      if (typeof unverifiedIssuer !== 'string' || !opts.issuers.includes(unverifiedIssuer)) return null;

      const payload = verifyJws(jws, opts.publicKeys);
      const claims = validateServiceAccountClaims(payload, {
        issuers: opts.issuers,
        apiAudiences: opts.apiAudiences,
        requestedAudiences: audiences,
        now,
      });

      const cutoffMs = now().getTime() - claimsLeewaySeconds * 1000;
      const { namespace, name, uid } = claims.serviceAccount;
      const sa = await opts.getServiceAccount(namespace, name);
      if (!sa) throw new Error(`serviceaccounts "${name}" not found`);
      if (sa.uid !== uid) throw new Error(`service account UID (${sa.uid}) does not match claim (${uid})`);
      if (deletedBefore(sa, cutoffMs)) throw new Error(`service account ${namespace}/${name} has been deleted`);

      const { getSecret, getPod, getNode } = opts;
      const info: ServiceAccountInfo = { namespace, name, uid };
      if (claims.secret) {
        const ref = claims.secret;
        await checkBound(getSecret && (() => getSecret(namespace, ref.name)), ref, 'secret', cutoffMs);
      }
      if (claims.pod) {
        const ref = claims.pod;
        await checkBound(getPod && (() => getPod(namespace, ref.name)), ref, 'pod', cutoffMs);
        info.podName = ref.name;
        info.podUid = ref.uid;
      }
      if (claims.node) {
        const ref = claims.node;
        // A pod-bound token merely records its pod's node; a node-bound token depends on the node.
        if (!claims.pod) await checkBound(getNode && (() => getNode(ref.name)), ref, 'node', cutoffMs);
        info.nodeName = ref.name;
        info.nodeUid = ref.uid;
      }
      const credentialId = credentialIdForJti(claims.jti ?? '');
      if (credentialId) info.credentialId = credentialId;
      return { user: serviceAccountUserInfo(info), audiences: claims.audiences };
    },
  };
}
