// Keys of the audit annotations other filters set (upstream: authorization.k8s.io/decision,
// authorization.k8s.io/reason, k8s.io/deprecated, k8s.io/removed-release), in this product's words.
import { annotations, groups } from '../api/product';

export const auditAnnotationKeys = {
  /** "allow" or "forbid", set by the authorization filter. */
  authorizationDecision: `${groups.authorization}/decision`,
  /** The authorizer's reason, or "internal error" when authorization failed with an error. */
  authorizationReason: `${groups.authorization}/reason`,
  /** "true" on requests to a deprecated API version. */
  deprecated: annotations.deprecated,
  /** "<major>.<minor>" of the release that removes a deprecated API version. */
  removedRelease: annotations.removedRelease,
  /** Set ("") on a DELETE that asked for ignoreStoreReadErrorWithClusterBreakingPotential (upstream apiserver.k8s.io/unsafe-delete-ignore-read-error). */
  unsafeDeleteIgnoreReadError: annotations.unsafeDeleteIgnoreReadError,
} as const;

export const authorizationDecisions = { allow: 'allow', forbid: 'forbid' } as const;

/** The reason recorded when the authorizer failed with an error. */
export const authorizationReasonError = 'internal error';
