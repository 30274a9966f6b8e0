// Public surface of lib/auth (authentication so far; authorization and reviews join later).
export { anonymousUser } from './anonymous';
export { authenticateRequest, unionAuthenticator } from './authenticator';
export type { AuthRequest, Authenticator, TLSSocketLike, UnionOptions } from './authenticator';
export { groupNames, userNames, withAuthenticatedGroup } from './user';
export type { UserInfo } from './user';
export { authenticateClientCertificate, credentialIdKey, x509Authenticator } from './x509';
