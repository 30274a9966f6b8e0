// The identity of requests without credentials, when anonymous auth is enabled. It is not an
// Authenticator in the list: the union falls back to it only when nothing was presented, so an
// invalid credential can never degrade into an anonymous request.
import { groupNames, userNames, type UserInfo } from './user';

/** A fresh anonymous user (fresh so callers may not mutate a shared groups array). */
export function anonymousUser(): UserInfo {
  return { name: userNames.anonymous, groups: [groupNames.unauthenticated] };
}
