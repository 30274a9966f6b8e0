// The authentication API's UserInfo from the server's notion of a user, and back.
import type { AuthenticationUserInfo } from '../../api';
import type { UserInfo } from '../user';

export function toAuthenticationUserInfo(u: UserInfo): AuthenticationUserInfo {
  const out: AuthenticationUserInfo = { username: u.name };
  if (u.uid) out.uid = u.uid;
  if (u.groups.length) out.groups = [...u.groups];
  if (u.extra && Object.keys(u.extra).length) out.extra = Object.fromEntries(Object.entries(u.extra).map(([k, v]) => [k, [...v]]));
  return out;
}
