// The authorization filter: the request's attributes go to the configured authorizer (RBAC,
// system:masters, or AlwaysAllow); anything but "allow" is a 403 with upstream's message.
import type { AuthorizationAttributes, Authorizer } from '../../auth/authorizer';
import { errors } from '../../machinery/errors';
import type { UserInfo } from '../../registry/strategy';
import type { RequestInfo } from '../requestInfo';

export function authorizationAttributes(user: UserInfo, info: RequestInfo): AuthorizationAttributes {
  return {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    namespace: info.namespace,
    apiGroup: info.group,
    apiVersion: info.version,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
  };
}

/** Throws the 403 unless the authorizer allows; returns the allow reason (for audit). */
export function authorize(authorizer: Authorizer, attrs: AuthorizationAttributes): string {
  const d = authorizer.authorize(attrs);
  if (d.decision === 'allow') return d.reason;
  throw forbiddenFor(attrs, d.reason);
}

/** Upstream's responsewriters.Forbidden message: who cannot do what, then the authorizer's reason. */
export function forbiddenFor(a: AuthorizationAttributes, reason = ''): Error {
  const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const suffix = reason ? `: ${reason}` : '';
  if (!a.isResourceRequest) {
    return errors.forbidden({ group: '', resource: '' }, '', `User ${JSON.stringify(esc(a.user.name))} cannot ${a.verb} path ${JSON.stringify(esc(a.path))}${suffix}`);
  }
  const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? `in the namespace ${JSON.stringify(esc(a.namespace))}` : 'at the cluster scope';
  const msg = `User ${JSON.stringify(esc(a.user.name))} cannot ${a.verb} resource ${JSON.stringify(esc(res))} in API group ${JSON.stringify(a.apiGroup)} ${scope}${suffix}`;
  return errors.forbidden({ group: a.apiGroup, resource: a.resource }, a.name, msg);
}
