import { evaluatePolicy, PolicyDecision, RequestAttributes } from './checker';
import { loadPolicy, Policy, PolicyRule } from './policy';

function attrs(over: Partial<RequestAttributes> = {}): RequestAttributes {
  return {
    user: { name: 'alice', groups: ['dev', 'system:authenticated'] },
    verb: 'get',
    isResourceRequest: true,
    path: '/api/v1/namespaces/default/pods/web',
    namespace: 'default',
    group: '',
    resource: 'pods',
    subresource: '',
    name: 'web',
    apiVersion: 'v1',
    ...over,
  };
}

const nonResource = (path: string, verb = 'get'): Partial<RequestAttributes> => ({
  isResourceRequest: false,
  path,
  verb,
  namespace: '',
  resource: '',
  name: '',
  apiVersion: '',
});

/** A policy whose single rule is `rule` at level Request, followed by nothing (default None). */
const only = (rule: Omit<PolicyRule, 'level'>): Policy => ({ apiVersion: 'audit.svc.io/v1', kind: 'Policy', rules: [{ level: 'Request', ...rule }] });

describe('evaluatePolicy: does one rule match?', () => {
  test.each<[string, Omit<PolicyRule, 'level'>, Partial<RequestAttributes>, boolean]>([
    ['empty rule matches everything', {}, {}, true],
    ['empty rule matches non-resource too', {}, nonResource('/metrics'), true],
    // users
    ['user listed', { users: ['bob', 'alice'] }, {}, true],
    ['user not listed', { users: ['bob'] }, {}, false],
    // userGroups: any of the user's groups
    ['one group matches', { userGroups: ['ops', 'dev'] }, {}, true],
    ['no group matches', { userGroups: ['ops'] }, {}, false],
    ['user and group must both match', { users: ['bob'], userGroups: ['dev'] }, {}, false],
    // verbs
    ['verb listed', { verbs: ['list', 'get'] }, {}, true],
    ['verb not listed', { verbs: ['watch'] }, {}, false],
    // resources
    ['core resource', { resources: [{ group: '', resources: ['pods'] }] }, {}, true],
    ['absent group is the core group', { resources: [{ resources: ['pods'] }] }, {}, true],
    ['other group', { resources: [{ group: 'apps', resources: ['pods'] }] }, {}, false],
    ['group with no resources: all of it', { resources: [{ group: 'rbac.authorization.svc.io' }] }, { group: 'rbac.authorization.svc.io', resource: 'roles' }, true],
    ['resource "*"', { resources: [{ resources: ['*'] }] }, { resource: 'secrets' }, true],
    ['"*" covers subresources', { resources: [{ resources: ['*'] }] }, { subresource: 'status' }, true],
    ['plain resource does not match its subresource', { resources: [{ resources: ['pods'] }] }, { subresource: 'log' }, false],
    ['resource/subresource', { resources: [{ resources: ['pods/log'] }] }, { subresource: 'log' }, true],
    ['resource/subresource vs the main resource', { resources: [{ resources: ['pods/log'] }] }, {}, false],
    ['*/subresource', { resources: [{ resources: ['*/status'] }] }, { resource: 'certificatesigningrequests', subresource: 'status' }, true],
    ['*/subresource vs another subresource', { resources: [{ resources: ['*/status'] }] }, { subresource: 'log' }, false],
    ['*/subresource vs no subresource', { resources: [{ resources: ['*/status'] }] }, {}, false],
    ['resource/*', { resources: [{ resources: ['pods/*'] }] }, { subresource: 'exec' }, true],
    // Upstream's matcher lets "pods/*" match pods itself too.
    ['resource/* matches the resource itself (as upstream)', { resources: [{ resources: ['pods/*'] }] }, {}, true],
    ['resource/* vs another resource', { resources: [{ resources: ['pods/*'] }] }, { resource: 'secrets', subresource: 'x' }, false],
    ['resourceNames listed', { resources: [{ resources: ['pods'], resourceNames: ['web'] }] }, {}, true],
    ['resourceNames not listed', { resources: [{ resources: ['pods'], resourceNames: ['db'] }] }, {}, false],
    ['resourceNames vs a list (no name)', { resources: [{ resources: ['pods'], resourceNames: ['web'] }] }, { name: '', verb: 'list' }, false],
    ['second group-resources entry matches', { resources: [{ group: 'apps' }, { resources: ['pods'] }] }, {}, true],
    ['resource rule never matches non-resource requests', { resources: [{ resources: ['*'] }] }, nonResource('/api'), false],
    // namespaces
    ['namespace listed', { namespaces: ['kube', 'default'] }, {}, true],
    ['namespace not listed', { namespaces: ['kube'] }, {}, false],
    ['"" matches cluster-scoped', { namespaces: [''] }, { namespace: '', resource: 'namespaces' }, true],
    ['"" does not match namespaced', { namespaces: [''] }, {}, false],
    ['namespace and resource both needed', { namespaces: ['default'], resources: [{ resources: ['secrets'] }] }, {}, false],
    ['namespace rule never matches non-resource requests', { namespaces: [''] }, nonResource('/healthz'), false],
    // nonResourceURLs
    ['exact path', { nonResourceURLs: ['/metrics'] }, nonResource('/metrics'), true],
    ['exact path is not a prefix', { nonResourceURLs: ['/metrics'] }, nonResource('/metrics/x'), false],
    ['trailing * prefix', { nonResourceURLs: ['/healthz*'] }, nonResource('/healthz/etcd'), true],
    ['trailing * matches the bare prefix', { nonResourceURLs: ['/healthz*'] }, nonResource('/healthz'), true],
    ['trailing * is a string prefix, not a path segment', { nonResourceURLs: ['/api*'] }, nonResource('/apis'), true],
    ['"*" alone', { nonResourceURLs: ['*'] }, nonResource('/anything'), true],
    ['URL rule never matches resource requests', { nonResourceURLs: ['*'] }, {}, false],
    ['URL and verb both needed', { nonResourceURLs: ['/metrics'], verbs: ['post'] }, nonResource('/metrics'), false],
  ])('%s', (_name, rule, over, matches) => {
    expect(evaluatePolicy(only(rule), attrs(over)).level).toBe(matches ? 'Request' : 'None');
  });
});

describe('evaluatePolicy: rule order, stages, managed fields', () => {
  const policy = loadPolicy(`apiVersion: audit.svc.io/v1
kind: Policy
omitStages: [RequestReceived]
omitManagedFields: true
rules:
  - level: None
    users: ["system:kube-proxy"]
  - level: RequestResponse
    resources: [{group: "", resources: [secrets]}]
    omitStages: [Panic, RequestReceived]
    omitManagedFields: false
  - level: Metadata
    userGroups: ["system:masters"]
    omitStages: [ResponseStarted]
  - level: Request
    nonResourceURLs: ["/api*"]
  - level: Metadata
    resources: [{group: ""}]
`);

  test.each<[string, Partial<RequestAttributes>, PolicyDecision]>([
    [
      'first rule wins over later matching ones',
      { user: { name: 'system:kube-proxy', groups: ['system:masters'] }, resource: 'secrets' },
      { level: 'None', omitStages: ['RequestReceived'], omitManagedFields: true },
    ],
    [
      'rule stages joined with the policy’s (natural order, no duplicates); rule overrides omitManagedFields',
      { resource: 'secrets', user: { name: 'root', groups: ['system:masters'] } },
      { level: 'RequestResponse', omitStages: ['RequestReceived', 'Panic'], omitManagedFields: false },
    ],
    [
      'group rule before the resource catch-all',
      { user: { name: 'root', groups: ['system:masters'] } },
      { level: 'Metadata', omitStages: ['RequestReceived', 'ResponseStarted'], omitManagedFields: true },
    ],
    ['non-resource rule', nonResource('/apis/apps'), { level: 'Request', omitStages: ['RequestReceived'], omitManagedFields: true }],
    ['core-group catch-all', { resource: 'configmaps' }, { level: 'Metadata', omitStages: ['RequestReceived'], omitManagedFields: true }],
    [
      'nothing matches: None with the policy’s stages and managed-fields default',
      { group: 'apps', resource: 'deployments' },
      { level: 'None', omitStages: ['RequestReceived'], omitManagedFields: true },
    ],
    ['nothing matches a non-resource path', nonResource('/version'), { level: 'None', omitStages: ['RequestReceived'], omitManagedFields: true }],
  ])('%s', (_name, over, want) => {
    expect(evaluatePolicy(policy, attrs(over))).toEqual(want);
  });

  test('no policy at all: nothing is audited', () => {
    expect(evaluatePolicy(undefined, attrs())).toEqual({ level: 'None', omitStages: [], omitManagedFields: false });
  });

  test('omitManagedFields defaults to false when neither policy nor rule sets it', () => {
    expect(evaluatePolicy(only({}), attrs()).omitManagedFields).toBe(false);
  });
});
