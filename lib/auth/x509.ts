// x509 client-certificate authentication (certificates.md §5). The TLS server runs with
// requestCert: true and rejectUnauthorized: false, so OpenSSL has already verified the chain
// against --client-ca-file (purpose "SSL client") and reports the outcome in
// socket.authorized / socket.authorizationError; this turns that outcome into a user.
import { createHash } from 'node:crypto';
import type { DetailedPeerCertificate, PeerCertificate } from 'node:tls';
import { groups } from '../api';
import { errors } from '../machinery/errors';
import type { AuthRequest, Authenticator, TLSSocketLike } from './authenticator';
import { withAuthenticatedGroup, type UserInfo } from './user';

/** Extra key carrying the certificate fingerprint, so audit can tell credentials apart. */
export const credentialIdKey = `${groups.authentication}/credential-id`;

const clientAuthOid = '1.3.6.1.5.5.7.3.2';
const anyEkuOid = '2.5.29.37.0';

function values(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return [];
}

function unauthorized(reason: string): Error {
  const e = errors.unauthorized();
  e.cause = reason;
  return e;
}

/**
 * The user named by a verified client certificate: CN → name, every O → groups (in order) plus
 * system:authenticated, the DER fingerprint → extra credential-id. Returns null when no
 * certificate was presented or its CN is empty (it does not authenticate; others may).
 * Throws the 401 ApiError when a certificate was presented but failed verification.
 */
export function authenticateClientCertificate(
  peerCert: PeerCertificate | DetailedPeerCertificate | Record<string, never> | null | undefined,
  authorized: boolean,
  authorizationError?: Error | string | null,
): UserInfo | null {
  if (!peerCert || !('raw' in peerCert) || !peerCert.raw) return null;
  if (!authorized) {
    const why = authorizationError instanceof Error ? authorizationError.message : authorizationError || 'certificate not verified';
    throw unauthorized(`x509: ${why}`);
  }
  const p = peerCert as PeerCertificate;
  // OpenSSL's "SSL client" purpose check already rejects a wrong EKU; this keeps the rule explicit.
  const ekus = p.ext_key_usage;
  if (ekus && ekus.length && !ekus.includes(clientAuthOid) && !ekus.includes(anyEkuOid)) {
    throw unauthorized('x509: certificate specifies an incompatible key usage');
  }
  const cn = values(p.subject?.CN)[0] ?? '';
  if (!cn) return null;
  const fingerprint = createHash('sha256').update(p.raw).digest('hex');
  return withAuthenticatedGroup({
    name: cn,
    groups: values(p.subject?.O),
    extra: { [credentialIdKey]: [`X509SHA256=${fingerprint}`] },
  });
}

/**
 * The Authenticator over a request's TLS socket. The verdict is cached per connection (parsing
 * the certificate per request is measurable on the hot path); renegotiation is switched off on
 * first use so the certificate cannot change under the cache (Go servers never renegotiate).
 */
export function x509Authenticator(): Authenticator {
  const cache = new WeakMap<object, { user: UserInfo | null } | { error: unknown }>();
  return {
    async authenticate(req: AuthRequest): Promise<UserInfo | null> {
      const socket = req.socket as TLSSocketLike;
      if (typeof socket.getPeerCertificate !== 'function') return null;
      // Per connection: an HTTP/2 request's socket is a view made per stream, its session is not.
      const connection: object = req.stream?.session ?? socket;
      let verdict = cache.get(connection);
      if (!verdict) {
        socket.disableRenegotiation?.();
        try {
          const peer = socket.getPeerCertificate(false);
          verdict = { user: authenticateClientCertificate(peer, socket.authorized === true, socket.authorizationError) };
        } catch (error) {
          verdict = { error };
        }
        cache.set(connection, verdict);
      }
      if ('error' in verdict) throw verdict.error;
      return verdict.user ? { ...verdict.user, groups: [...verdict.user.groups], extra: { ...verdict.user.extra } } : null;
    },
  };
}
