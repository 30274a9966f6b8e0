// Bearer-token authentication: the Authorization header parser, the token-authenticator contract
// and their glue into a request Authenticator (upstream request/bearertoken and token/union).
import type { IncomingHttpHeaders } from 'node:http';
import type { AuthRequest, Authenticator } from './authenticator';
import type { UserInfo } from './user';

/** What a token authenticator proves: the user, and the audiences the token was accepted for. */
export interface TokenAuthResult {
  user: UserInfo;
  /** Empty when the authenticator does not deal in audiences (static tokens). */
  audiences: string[];
}

export interface TokenAuthenticator {
  /**
   * The user behind token; null when the token is not of this authenticator's kind (others may try);
   * throws when it is of this kind and invalid. `audiences` are the audiences the caller accepts
   * (TokenReview's spec.audiences); absent or empty means the API server's own.
   */
  authenticateToken(token: string, audiences?: readonly string[]): Promise<TokenAuthResult | null>;
}

/** Upstream's message when no token authenticator recognized a presented bearer token. */
export const invalidBearerTokenMessage = 'invalid bearer token';

/** Upstream's warning for `Authorization: Bearer  <token>` (two spaces). */
export const extraSpaceBeforeTokenWarning =
  'the provided Authorization header contains extra space before the bearer token, and is ignored';

/**
 * The bearer token of a request, or null when there is none, parsed as upstream does: trim the
 * header, split on single spaces into at most three parts, the scheme compares case-insensitively
 * and the token is the second part (anything after it is ignored). An empty token (two spaces after
 * the scheme) is no credential at all, reported through onWarning.
 */
export function bearerToken(headers: IncomingHttpHeaders, onWarning?: (warning: string) => void): string | null {
  const raw = headers.authorization;
  const auth = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
  if (!auth) return null;
  const parts = splitN(auth, ' ', 3);
  if (parts.length < 2 || parts[0].toLowerCase() !== 'bearer') return null;
  const token = parts[1];
  if (!token) {
    if (parts.length === 3) onWarning?.(extraSpaceBeforeTokenWarning);
    return null;
  }
  return token;
}

/** Go's strings.SplitN: at most n parts, the last one holding the rest. */
function splitN(s: string, sep: string, n: number): string[] {
  const out: string[] = [];
  let rest = s;
  while (out.length < n - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  out.push(rest);
  return out;
}

export interface BearerTokenAuthenticatorOptions {
  /**
   * The API server's audiences (--api-audiences). When set, a result that names audiences must
   * share one with them (upstream's authentication filter check).
   */
  apiAudiences?: readonly string[];
  /** Receives header warnings meant for the response's Warning header. */
  onWarning?: (req: AuthRequest, warning: string) => void;
}

/**
 * The request Authenticator over a token authenticator. No bearer token → null; a bearer token
 * that no token authenticator recognizes is invalid (→ 401), as upstream, never anonymous.
 */
export function bearerTokenAuthenticator(tokenAuth: TokenAuthenticator, opts: BearerTokenAuthenticatorOptions = {}): Authenticator {
  const apiAudiences = opts.apiAudiences ?? [];
  return {
    async authenticate(req: AuthRequest): Promise<UserInfo | null> {
      const token = bearerToken(req.headers, opts.onWarning && ((w) => opts.onWarning?.(req, w)));
      if (token === null) return null;
      const result = await tokenAuth.authenticateToken(token);
      if (!result) throw new Error(invalidBearerTokenMessage);
      if (apiAudiences.length && result.audiences.length && !result.audiences.some((a) => apiAudiences.includes(a))) {
        throw new Error('unable to match the audience of the token to the API audiences');
      }
      return copyUser(result.user);
    },
  };
}

/**
 * Tries each token authenticator in order: the first success wins; when none succeeds and some
 * threw, the failure is thrown (all messages joined, as upstream's aggregate); otherwise null.
 */
export function unionTokenAuthenticator(authenticators: readonly TokenAuthenticator[]): TokenAuthenticator {
  return {
    async authenticateToken(token: string, audiences?: readonly string[]): Promise<TokenAuthResult | null> {
      const failures: unknown[] = [];
      for (const a of authenticators) {
        try {
          const result = await a.authenticateToken(token, audiences);
          if (result) return result;
        } catch (e) {
          failures.push(e);
        }
      }
      if (failures.length === 1) throw failures[0];
      if (failures.length > 1) throw new Error(`[${failures.map((e) => (e instanceof Error ? e.message : String(e))).join(', ')}]`);
      return null;
    },
  };
}

/**
 * Makes an audience-unaware token authenticator (static tokens) answer like an audience-aware one,
 * as upstream's WrapAudienceAgnosticToken: its tokens are good for the API audiences only. When
 * the caller's audiences (or, absent those, the API audiences) share none with the API audiences,
 * the token is not ours (null); otherwise the result carries that intersection.
 */
export function audienceAgnosticTokenAuthenticator(apiAudiences: readonly string[], delegate: TokenAuthenticator): TokenAuthenticator {
  return {
    async authenticateToken(token: string, audiences?: readonly string[]): Promise<TokenAuthResult | null> {
      const targets = audiences?.length ? audiences : apiAudiences;
      if (targets.length === 0) return delegate.authenticateToken(token);
      const accepted = targets.filter((a) => apiAudiences.includes(a));
      if (accepted.length === 0) return null;
      const result = await delegate.authenticateToken(token);
      if (!result) return null;
      if (result.audiences.length) {
        throw new Error(`audience agnostic authenticator wrapped an authenticator that returned audiences: ${JSON.stringify(result.audiences)}`);
      }
      return { ...result, audiences: accepted };
    },
  };
}

function copyUser(u: UserInfo): UserInfo {
  const out: UserInfo = { ...u, groups: [...u.groups] };
  if (u.extra) out.extra = Object.fromEntries(Object.entries(u.extra).map(([k, v]) => [k, [...v]]));
  return out;
}
