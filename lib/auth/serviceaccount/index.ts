// Public surface of ServiceAccount token authentication: JWS, claims, keys and the authenticator.
export { serviceAccountTokenAuthenticator } from './authenticator';
export type { LiveObject, ServiceAccountTokenAuthenticatorOptions } from './authenticator';
export { claimsLeewaySeconds, issueServiceAccountToken, privateClaimName, serviceAccountTokenClaims, validateServiceAccountClaims } from './claims';
export type {
  BoundObject,
  BoundObjectKind,
  IssuedServiceAccountToken,
  IssueServiceAccountTokenOptions,
  ObjectRef,
  ServiceAccountClaims,
  ServiceAccountRef,
  ValidateServiceAccountClaimsOptions,
} from './claims';
export {
  allServiceAccountsGroup,
  credentialIdForJti,
  parseServiceAccountUsername,
  serviceAccountExtraKeys,
  serviceAccountGroups,
  serviceAccountUserInfo,
  serviceAccountUsername,
} from './identity';
export type { ServiceAccountInfo } from './identity';
export { algorithmForKey, decodeJws, JwsFormatError, keyIdFromPublicKey, signingKeyFrom, signJws, verifyJws } from './jwt';
export type { DecodedJws, JwsAlgorithm, SigningKey } from './jwt';
export {
  ensureServiceAccountKey,
  loadServiceAccountKeyFiles,
  loadServiceAccountSigningKey,
  parsePublicKeysPem,
  parseSigningKeyPem,
  serviceAccountKeyFileNames,
} from './keys';
export type { EnsuredServiceAccountKey } from './keys';
