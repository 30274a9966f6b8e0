// Micro-benchmark of the authorize hot path: 1e5 decisions over the bootstrap policy plus ~60
// bindings. It prints the rate and checks the decisions, never the timing (machines differ).
import { performance } from 'node:perf_hooks';
import { groups } from '../../api/product';
import type { AuthorizationAttributes } from '../authorizer';
import { rbacAuthorizer } from './authorizer';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from './bootstrapPolicy';
import { PolicyIndex } from './policySource';

function policy(): PolicyIndex {
  const idx = new PolicyIndex();
  const roles = bootstrapClusterRoles();
  for (let i = 0; i < 20; i++) {
    roles.push({ metadata: { name: `team-${i}` }, rules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['serviceaccounts', 'namespaces'] }, { verbs: ['*'], apiGroups: [groups.coordination], resources: ['leases'] }] });
  }
  idx.replace('clusterroles', roles);
  const crbs = bootstrapClusterRoleBindings();
  for (let i = 0; i < 34; i++) {
    crbs.push({
      metadata: { name: `team-${i}` },
      roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: `team-${i % 20}` },
      subjects: [
        { kind: 'User', apiGroup: groups.rbac, name: `user-${i}` },
        { kind: 'Group', apiGroup: groups.rbac, name: `group-${i}` },
        { kind: 'ServiceAccount', name: `sa-${i}`, namespace: `ns-${i % 5}` },
      ],
    });
  }
  idx.replace('clusterrolebindings', crbs);
  idx.replace('roles', []);
  const rbs = [];
  for (let i = 0; i < 20; i++) {
    rbs.push({
      metadata: { namespace: `ns-${i % 4}`, name: `rb-${i}` },
      roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: 'system:aggregate-to-edit' },
      subjects: [{ kind: 'User', apiGroup: groups.rbac, name: `dev-${i}` }],
    });
  }
  idx.replace('rolebindings', rbs);
  return idx;
}

const res = (name: string, userGroups: string[], verb: string, resource: string, namespace: string): AuthorizationAttributes => ({
  user: { name, groups: userGroups },
  verb,
  isResourceRequest: true,
  path: '',
  namespace,
  apiGroup: '',
  apiVersion: 'v1',
  resource,
  subresource: '',
  name: '',
});

describe('authorize hot path (benchmark, prints only)', () => {
  it('1e5 authorizations over ~60 bindings', () => {
    const idx = policy();
    const bindings = [...idx.clusterRoleBindings()].length + [0, 1, 2, 3].reduce((n, i) => n + [...idx.roleBindings(`ns-${i}`)].length, 0);
    expect(bindings).toBeGreaterThanOrEqual(60);
    const z = rbacAuthorizer(idx);
    const requests = [
      // allowed by the first binding (cluster-admin)
      res('root', ['system:masters', 'system:authenticated'], 'delete', 'namespaces', ''),
      // allowed late, by a user binding near the end of the ClusterRoleBindings
      res('user-33', ['system:authenticated'], 'list', 'serviceaccounts', 'ns-1'),
      // allowed by a group binding in the middle
      res('x', ['group-17', 'system:authenticated'], 'watch', 'namespaces', ''),
      // a ServiceAccount
      res('system:serviceaccount:ns-2:sa-7', ['system:serviceaccounts', 'system:authenticated'], 'get', 'serviceaccounts', 'ns-2'),
      // a RoleBinding in the namespace, after all ClusterRoleBindings
      res('dev-9', ['system:authenticated'], 'create', 'serviceaccounts', 'ns-1'),
      // denied: walks everything
      res('stranger', ['system:authenticated'], 'delete', 'serviceaccounts', 'ns-3'),
    ];
    const expected = ['allow', 'allow', 'allow', 'allow', 'allow', 'noOpinion'];
    expect(requests.map((r) => z.authorize(r).decision)).toEqual(expected);

    const n = 100_000;
    let allowed = 0;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) if (z.authorize(requests[i % requests.length]).decision === 'allow') allowed++;
    const ms = performance.now() - t0;
    expect(allowed).toBe(Math.floor(n / 6) * 5 + Math.min(n % 6, 5));
    process.stdout.write(`rbac authorize: ${n} decisions over ${bindings} bindings in ${ms.toFixed(1)} ms (${Math.round((n / ms) * 1000)}/s, ${((ms * 1000) / n).toFixed(2)} µs each)\n`);
  });
});
