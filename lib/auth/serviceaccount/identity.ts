// How a ServiceAccount appears as a user (upstream apiserver/pkg/authentication/serviceaccount/util.go):
// its user name, its groups and the extra keys that describe the credential and the bound objects.
import { groups } from '../../api';
import { isDNS1123Label, isDNS1123Subdomain } from '../../machinery/validation/names';
import type { UserInfo } from '../user';
import { credentialIdKey } from '../x509';

const usernamePrefix = 'system:serviceaccount:';
const groupPrefix = 'system:serviceaccounts:';

/** Every ServiceAccount belongs to this group. */
export const allServiceAccountsGroup = 'system:serviceaccounts';

/** Keys of UserInfo.extra set from a token's bound objects and its jti. */
export const serviceAccountExtraKeys = {
  credentialId: credentialIdKey,
  podName: `${groups.authentication}/pod-name`,
  podUid: `${groups.authentication}/pod-uid`,
  nodeName: `${groups.authentication}/node-name`,
  nodeUid: `${groups.authentication}/node-uid`,
} as const;

/** `system:serviceaccount:<namespace>:<name>`. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `${usernamePrefix}${namespace}:${name}`;
}

/**
 * The namespace and name inside a ServiceAccount user name, or null when user is not one (exactly
 * two parts after the prefix, a valid namespace name and a valid ServiceAccount name), as upstream's SplitUsername.
 */
export function parseServiceAccountUsername(user: string): { namespace: string; name: string } | null {
  if (!user.startsWith(usernamePrefix)) return null;
  const parts = user.slice(usernamePrefix.length).split(':');
  if (parts.length !== 2) return null;
  const [namespace, name] = parts;
  if (isDNS1123Label(namespace).length || isDNS1123Subdomain(name).length) return null;
  return { namespace, name };
}

/** `system:serviceaccounts`, then `system:serviceaccounts:<namespace>`. */
export function serviceAccountGroups(namespace: string): string[] {
  return [allServiceAccountsGroup, `${groupPrefix}${namespace}`];
}

/** What a validated token says about its holder (upstream's ServiceAccountInfo). */
export interface ServiceAccountInfo {
  namespace: string;
  name: string;
  uid: string;
  podName?: string;
  podUid?: string;
  nodeName?: string;
  nodeUid?: string;
  /** `JTI=<jti>` when the token carries an id. */
  credentialId?: string;
}

/**
 * The user of a ServiceAccount token. Pod extras only when both name and uid are known, node uid
 * only with a node name; system:authenticated is left to the authenticator union.
 */
export function serviceAccountUserInfo(sa: ServiceAccountInfo): UserInfo {
  const user: UserInfo = { name: serviceAccountUsername(sa.namespace, sa.name), groups: serviceAccountGroups(sa.namespace) };
  if (sa.uid) user.uid = sa.uid;
  const extra: Record<string, string[]> = {};
  if (sa.podName && sa.podUid) {
    extra[serviceAccountExtraKeys.podName] = [sa.podName];
    extra[serviceAccountExtraKeys.podUid] = [sa.podUid];
  }
  if (sa.credentialId) extra[serviceAccountExtraKeys.credentialId] = [sa.credentialId];
  if (sa.nodeName) {
    extra[serviceAccountExtraKeys.nodeName] = [sa.nodeName];
    if (sa.nodeUid) extra[serviceAccountExtraKeys.nodeUid] = [sa.nodeUid];
  }
  if (Object.keys(extra).length) user.extra = extra;
  return user;
}

/** Upstream's credential id of a token id. */
export function credentialIdForJti(jti: string): string {
  return jti ? `JTI=${jti}` : '';
}
