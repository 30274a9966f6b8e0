// The authorization filter: the request's attributes go to the configured authorizer (RBAC,
// system:masters, or AlwaysAllow); anything but "allow" is a 403 with upstream's message.
import type { AuthorizationAttributes, Authorizer } from '../../auth/authorizer';
import { errors } from '../../machinery/errors';
import { goQuote } from '../../machinery/goStrconv';
import { sanitizeErrorText } from '../sanitize';
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

/**
 * Upstream's responsewriters.Forbidden message: who cannot do what, then the authorizer's reason.
 * The "what" part is sanitized as a whole (it carries client text: paths, API groups, names and
 * extra keys from impersonation headers); the reason is not.
 */
export function forbiddenFor(a: AuthorizationAttributes, reason = ''): Error {
  const suffix = reason ? `: ${reason}` : '';
  if (!a.isResourceRequest) {
    return errors.forbidden({ group: '', resource: '' }, '', `${sanitizeErrorText(`User ${goQuote(a.user.name)} cannot ${a.verb} path ${goQuote(a.path)}`)}${suffix}`);
  }
  const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? `in the namespace ${goQuote(a.namespace)}` : 'at the cluster scope';
  const msg = sanitizeErrorText(`User ${goQuote(a.user.name)} cannot ${a.verb} resource ${goQuote(res)} in API group ${goQuote(a.apiGroup)} ${scope}`);
  return errors.forbidden({ group: a.apiGroup, resource: a.resource }, a.name, `${msg}${suffix}`);
}
