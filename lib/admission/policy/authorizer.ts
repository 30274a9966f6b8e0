// The `authorizer` variable of policy expressions backed by the server's authorizer (upstream
// admission/plugin/authorizer): checks are made for the requesting user, or for a service
// account chosen with serviceAccount(ns, name) (its user name and groups, as a token would give).
import type { Authorizer } from '../../auth/authorizer';
import { serviceAccountGroups, serviceAccountUsername } from '../../auth/serviceaccount/identity';
import { groupNames, type UserInfo } from '../../auth/user';
import type { CelAuthorizer } from '../../cel';

export function celAuthorizer(authorizer: Authorizer, user: UserInfo): CelAuthorizer {
  const decide = (r: ReturnType<Authorizer['authorize']>): { allowed: boolean; reason: string; error?: string } => ({
    allowed: r.decision === 'allow',
    reason: r.reason,
    ...(r.evaluationError ? { error: r.evaluationError } : {}),
  });
  return {
    checkResource: (c) =>
      decide(
        authorizer.authorize({
          user,
          verb: c.verb,
          isResourceRequest: true,
          path: '',
          namespace: c.namespace ?? '',
          apiGroup: c.group,
          apiVersion: '*',
          resource: c.resource,
          subresource: c.subresource ?? '',
          name: c.name ?? '',
        }),
      ),
    checkPath: (c) =>
      decide(authorizer.authorize({ user, verb: c.verb, isResourceRequest: false, path: c.path, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' })),
    forServiceAccount: (namespace, name) =>
      celAuthorizer(authorizer, { name: serviceAccountUsername(namespace, name), groups: [...serviceAccountGroups(namespace), groupNames.authenticated] }),
  };
}
