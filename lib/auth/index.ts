// Public surface of lib/auth: authentication, authorization (RBAC) and the identity/access reviews.
export { anonymousUser } from './anonymous';
export { authenticateRequest, unionAuthenticator } from './authenticator';
export type { AuthRequest, Authenticator, TLSSocketLike, UnionOptions } from './authenticator';
export { groupNames, userNames, withAuthenticatedGroup } from './user';
export type { UserInfo } from './user';
export { authenticateClientCertificate, credentialIdKey, x509Authenticator } from './x509';
export * from './authorizer';
export * from './rbac';
export { bearerToken, bearerTokenAuthenticator, unionTokenAuthenticator } from './bearer';
export type { TokenAuthenticator, TokenAuthResult } from './bearer';
