// Well-known user and group names of the authentication layer (certificates.md §5).
import type { UserInfo } from '../registry/strategy';

export type { UserInfo };

export const userNames = {
  anonymous: 'system:anonymous',
} as const;

export const groupNames = {
  authenticated: 'system:authenticated',
  unauthenticated: 'system:unauthenticated',
  /** Members bypass authorization entirely. */
  masters: 'system:masters',
} as const;

/**
 * Every authenticated user also belongs to system:authenticated, appended last, unless the user
 * already carries it or system:unauthenticated, or is the anonymous user. Returns a new object.
 */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  const skip =
    user.name === userNames.anonymous ||
    user.groups.includes(groupNames.authenticated) ||
    user.groups.includes(groupNames.unauthenticated);
  return skip ? { ...user, groups: [...user.groups] } : { ...user, groups: [...user.groups, groupNames.authenticated] };
}
