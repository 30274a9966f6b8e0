import type { PolicyRule } from '../../api/rbac';
import type { AuthorizationAttributes } from '../authorizer';
import {
  apiGroupMatches,
  nonResourceURLMatches,
  resourceMatches,
  resourceNameMatches,
  ruleAllows,
  rulesAllow,
  trimRightStars,
  verbMatches,
} from './rules';

describe('verbMatches', () => {
  it.each<[string[] | undefined, string, boolean]>([
    [['get'], 'get', true],
    [['get', 'list'], 'list', true],
    [['*'], 'escalate', true],
    [['get'], 'list', false],
    [[], 'get', false],
    [undefined, 'get', false],
    [['GET'], 'get', false],
  ])('%j matches %s → %s', (verbs, verb, want) => {
    expect(verbMatches({ verbs }, verb)).toBe(want);
  });
});

describe('apiGroupMatches', () => {
  it.each<[string[] | undefined, string, boolean]>([
    [[''], '', true],
    [['*'], 'certificates.svc.io', true],
    [[''], 'rbac.authorization.svc.io', false],
    [['rbac.authorization.svc.io'], '', false],
    [undefined, '', false],
  ])('%j matches %j → %s', (apiGroups, group, want) => {
    expect(apiGroupMatches({ verbs: [], apiGroups }, group)).toBe(want);
  });
});

describe('resourceMatches', () => {
  it.each<[string[] | undefined, string, string, boolean]>([
    [['pods'], 'pods', '', true],
    [['*'], 'pods/status', 'status', true],
    [['pods'], 'pods/status', 'status', false],
    [['pods/status'], 'pods/status', 'status', true],
    [['*/status'], 'namespaces/status', 'status', true],
    [['*/status'], 'namespaces', '', false],
    [['*/status'], 'namespaces/finalize', 'finalize', false],
    // the `*/x` form needs exactly "*/" before the subresource
    [['a*/status'], 'namespaces/status', 'status', false],
    [['*/statusx'], 'namespaces/status', 'status', false],
    [['pods/*'], 'pods/status', 'status', false],
    [undefined, 'pods', '', false],
  ])('%j matches %s (sub %j) → %s', (resources, combined, sub, want) => {
    expect(resourceMatches({ verbs: [], resources }, combined, sub)).toBe(want);
  });
});

describe('resourceNameMatches', () => {
  it.each<[string[] | undefined, string, boolean]>([
    [undefined, '', true],
    [[], 'x', true],
    [['a', 'b'], 'b', true],
    [['a'], '', false],
    [['a'], 'c', false],
  ])('%j matches %j → %s', (resourceNames, name, want) => {
    expect(resourceNameMatches({ verbs: [], resourceNames }, name)).toBe(want);
  });
});

describe('nonResourceURLMatches', () => {
  it.each<[string[] | undefined, string, boolean]>([
    [['/healthz'], '/healthz', true],
    [['/healthz'], '/healthz/etcd', false],
    [['/healthz/*'], '/healthz/etcd', true],
    [['/healthz/*'], '/healthz', false],
    [['/healthz*'], '/healthz', true],
    [['/healthz*'], '/healthzzz/x', true],
    [['/apis/**'], '/apis/x', true],
    [['*'], '/anything', true],
    [['/api'], '/api/', false],
    [undefined, '/api', false],
  ])('%j matches %s → %s', (nonResourceURLs, url, want) => {
    expect(nonResourceURLMatches({ verbs: [], nonResourceURLs }, url)).toBe(want);
  });

  it('trims all trailing stars', () => {
    expect(trimRightStars('/a/**')).toBe('/a/');
    expect(trimRightStars('***')).toBe('');
    expect(trimRightStars('/a')).toBe('/a');
  });
});

const base: AuthorizationAttributes = {
  user: { name: 'u', groups: [] },
  verb: 'get',
  isResourceRequest: true,
  path: '',
  namespace: 'ns',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  name: '',
};

describe('ruleAllows', () => {
  const podsGet: PolicyRule = { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] };
  const named: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['p1'] };
  const url: PolicyRule = { verbs: ['get'], nonResourceURLs: ['/version'] };
  it.each<[string, PolicyRule, Partial<AuthorizationAttributes>, boolean]>([
    ['plain get', podsGet, {}, true],
    ['list', podsGet, { verb: 'list' }, true],
    ['wrong verb', podsGet, { verb: 'delete' }, false],
    ['wrong group', podsGet, { apiGroup: 'x.svc.io' }, false],
    ['subresource not granted by resource', podsGet, { subresource: 'status' }, false],
    ['named get', named, { name: 'p1' }, true],
    ['named get other', named, { name: 'p2' }, false],
    ['list has no name', named, { verb: 'get', name: '' }, false],
    ['resource rule ignores non-resource request', podsGet, { isResourceRequest: false, path: '/version' }, false],
    ['url rule', url, { isResourceRequest: false, path: '/version' }, true],
    ['url rule ignores resource requests', url, { path: '/version' }, false],
    ['url rule checks verb', url, { isResourceRequest: false, path: '/version', verb: 'post' }, false],
  ])('%s', (_name, rule, attrs, want) => {
    expect(ruleAllows({ ...base, ...attrs }, rule)).toBe(want);
  });

  it('rulesAllow: any rule suffices, none is false', () => {
    expect(rulesAllow({ ...base, name: 'p1', verb: 'get' }, [url, named])).toBe(true);
    expect(rulesAllow({ ...base, verb: 'delete' }, [url, named, podsGet])).toBe(false);
    expect(rulesAllow(base, [])).toBe(false);
  });
});
