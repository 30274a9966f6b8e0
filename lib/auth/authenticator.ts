// The authenticator contract and the union that the request filter calls. Each authenticator
// looks at one kind of credential: null means "no credential of my kind", a thrown error means
// "a credential was presented and it is invalid" (→ 401, never anonymous).
import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { PeerCertificate } from 'node:tls';
import { ApiError, errors, isApiError } from '../machinery/errors';
import { anonymousUser } from './anonymous';
import { withAuthenticatedGroup, type UserInfo } from './user';

/** The TLS facts an authenticator may read; plain sockets simply lack them. */
export interface TLSSocketLike {
  authorized?: boolean;
  authorizationError?: Error | string | null;
  getPeerCertificate?(detailed?: boolean): PeerCertificate | Record<string, never> | null;
  disableRenegotiation?(): void;
}

/** What authenticators see of a request; an http.IncomingMessage fits. */
export interface AuthRequest {
  socket: TLSSocketLike | Socket;
  headers: IncomingHttpHeaders;
  /** HTTP/2 only: the request's stream, whose session is the connection (the socket is a per-stream view). */
  stream?: { session?: object };
}

export interface Authenticator {
  /** The user, null when this authenticator's credential is absent; throws when it is invalid. */
  authenticate(req: AuthRequest): Promise<UserInfo | null>;
}

export interface UnionOptions {
  /** Requests without any credential run as system:anonymous (default true, like upstream). */
  anonymous?: boolean;
}

/**
 * Tries each authenticator in order; the first user wins and gains system:authenticated.
 * If none succeeds but one rejected a presented credential, the result is 401. Without any
 * credential the request is anonymous when enabled, else null.
 */
export function unionAuthenticator(authenticators: readonly Authenticator[], opts: UnionOptions = {}): Authenticator {
  const anonymous = opts.anonymous ?? true;
  return {
    async authenticate(req: AuthRequest): Promise<UserInfo | null> {
      let failure: unknown;
      for (const a of authenticators) {
        try {
          const user = await a.authenticate(req);
          if (user) return withAuthenticatedGroup(user);
        } catch (e) {
          // Keep going: another credential on the same request may still be valid (upstream union).
          failure ??= e;
        }
      }
      if (failure !== undefined) throw asUnauthorized(failure);
      return anonymous ? anonymousUser() : null;
    },
  };
}

/** Like authenticator.authenticate, but "nobody" is a 401 (for use when anonymous is off). */
export async function authenticateRequest(authenticator: Authenticator, req: AuthRequest): Promise<UserInfo> {
  const user = await authenticator.authenticate(req);
  if (!user) throw errors.unauthorized();
  return user;
}

/** Every authentication failure renders as the same 401 body; the detail stays in `cause` for logs. */
function asUnauthorized(e: unknown): ApiError {
  if (isApiError(e) && e.code === 401) return e;
  const err = errors.unauthorized();
  err.cause = e instanceof Error ? e.message : String(e);
  return err;
}
