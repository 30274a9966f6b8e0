// Authorization until RBAC arrives: every authenticated user may do everything; anonymous
// requests may reach only health, /version and discovery (the public-info and discovery roles).
import { errors } from '../../machinery/errors';
import type { UserInfo } from '../../registry/strategy';
import type { RequestInfo } from '../requestInfo';

const publicPaths = [/^\/(healthz|livez|readyz)(\/.*)?$/, /^\/version\/?$/, /^\/apis?(\/[^/]+){0,2}\/?$/];

function isAnonymous(user: UserInfo): boolean {
  return user.groups.includes('system:unauthenticated');
}

export function authorize(user: UserInfo, info: RequestInfo): void {
  if (!isAnonymous(user)) return;
  if (!info.isResourceRequest && info.verb === 'get' && publicPaths.some((re) => re.test(info.path))) return;
  throw forbiddenFor(user, info);
}

/** The authorizer's 403 message (errors.md §8). */
export function forbiddenFor(user: UserInfo, info: RequestInfo): Error {
  const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  if (!info.isResourceRequest) {
    return errors.forbidden({ group: '', resource: '' }, '', `User ${JSON.stringify(esc(user.name))} cannot ${info.verb} path ${JSON.stringify(esc(info.path))}`);
  }
  const res = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
  const scope = info.namespace ? `in the namespace ${JSON.stringify(esc(info.namespace))}` : 'at the cluster scope';
  const reason = `User ${JSON.stringify(esc(user.name))} cannot ${info.verb} resource ${JSON.stringify(esc(res))} in API group ${JSON.stringify(info.group)} ${scope}`;
  return errors.forbidden({ group: info.group, resource: info.resource }, info.name, reason);
}
