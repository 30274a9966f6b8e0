import type { AuthorizationAttributes } from '../../auth/authorizer';
import { ApiError } from '../../machinery/errors';
import { forbiddenFor } from './authorization';

const attrs = (over: Partial<AuthorizationAttributes>): AuthorizationAttributes => ({
  user: { name: 'alice', groups: [] },
  verb: 'list',
  isResourceRequest: true,
  path: '',
  namespace: '',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'configmaps',
  subresource: '',
  name: '',
  ...over,
});

// Upstream's responsewriters.ForbiddenStatusError: names quoted with Go's %q, the whole "who
// cannot do what" sentence sanitized of &, <, >, the authorizer's reason appended as it is.
describe('forbiddenFor: upstream’s message', () => {
  test.each<[string, AuthorizationAttributes, string, string]>([
    ['cluster scope', attrs({}), '', 'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" at the cluster scope'],
    ['namespace, name and reason', attrs({ verb: 'get', namespace: 'ns', name: 'cm' }), 'no', 'configmaps "cm" is forbidden: User "alice" cannot get resource "configmaps" in API group "" in the namespace "ns": no'],
    ['non-resource path', attrs({ isResourceRequest: false, verb: 'get', path: '/x<y>' }), '', 'forbidden: User "alice" cannot get path "/x&lt;y&gt;"'],
    [
      'a subresource and a group from client text are sanitized',
      attrs({ verb: 'impersonate', apiGroup: 'a&b', resource: 'userextras', subresource: 'k<v>', name: 'v' }),
      '',
      'userextras.a&b "v" is forbidden: User "alice" cannot impersonate resource "userextras/k&lt;v&gt;" in API group "a&amp;b" at the cluster scope',
    ],
    ['names are quoted as Go’s %q (non-printable runes escaped)', attrs({ user: { name: 'a\u00a0b\u200bc', groups: [] } }), '', 'configmaps is forbidden: User "a\\u00a0b\\u200bc" cannot list resource "configmaps" in API group "" at the cluster scope'],
    ['the reason is not sanitized', attrs({}), 'RBAC: <none>', 'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" at the cluster scope: RBAC: <none>'],
  ])('%s', (_name, a, reason, message) => {
    const e = forbiddenFor(a, reason) as ApiError;
    expect(e.status).toMatchObject({ reason: 'Forbidden', code: 403, message });
  });
});
