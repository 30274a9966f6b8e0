import type { MatchResources, NamedRuleWithOperations } from '../../api';
import { matchResourcesMatch, ruleKeyOf, ruleMatches, selectorRestricts, type MatchRequest } from './matching';

const req = (over: Partial<MatchRequest> = {}): MatchRequest => ({
  operation: 'CREATE',
  group: '',
  version: 'v1',
  versions: ['v1'],
  resource: 'pods',
  subresource: '',
  name: 'p1',
  namespaced: true,
  isNamespace: false,
  namespaceLabels: { env: 'prod' },
  objectLabels: { app: 'web' },
  ...over,
});

const rule = (over: Partial<NamedRuleWithOperations> = {}): NamedRuleWithOperations => ({ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: '*', ...over });

describe('ruleMatches (upstream webhook/predicates/rules semantics)', () => {
  it.each<[string, Partial<NamedRuleWithOperations>, Partial<MatchRequest>, boolean]>([
    ['* matches a resource', {}, {}, true],
    ['* does not match a subresource', {}, { subresource: 'status' }, false],
    ['*/* matches a subresource', { resources: ['*/*'] }, { subresource: 'status' }, true],
    ['pods/* matches pods/status', { resources: ['pods/*'] }, { subresource: 'status' }, true],
    ['pods/* does not match pods', { resources: ['pods/*'] }, {}, false],
    ['*/status matches pods/status', { resources: ['*/status'] }, { subresource: 'status' }, true],
    ['pods/status exactly', { resources: ['pods/status'] }, { subresource: 'status' }, true],
    ['other resource', { resources: ['configmaps'] }, {}, false],
    ['operation listed', { operations: ['CREATE'] }, {}, true],
    ['operation not listed', { operations: ['UPDATE', 'DELETE'] }, {}, false],
    ['group not listed', { apiGroups: ['apps'] }, {}, false],
    ['version not listed', { apiVersions: ['v2'] }, {}, false],
    ['scope Cluster skips namespaced', { scope: 'Cluster' }, {}, false],
    ['scope Namespaced takes namespaced', { scope: 'Namespaced' }, {}, true],
    ['scope Namespaced skips cluster-scoped', { scope: 'Namespaced' }, { namespaced: false }, false],
    ['resourceNames listed', { resourceNames: ['p1'] }, {}, true],
    ['resourceNames not listed', { resourceNames: ['p2'] }, {}, false],
  ])('%s', (_n, r, q, want) => {
    expect(ruleMatches(rule(r), req(q), false)).toBe(want);
  });

  it('Equivalent accepts another served version of the resource; Exact does not', () => {
    const r = rule({ apiVersions: ['v1'] });
    const q = req({ version: 'v1beta1', versions: ['v1', 'v1beta1'] });
    expect(ruleMatches(r, q, true)).toBe(true);
    expect(ruleMatches(r, q, false)).toBe(false);
  });
});

describe('matchResourcesMatch', () => {
  const mr = (over: Partial<MatchResources> = {}): MatchResources => ({ resourceRules: [rule()], namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent', ...over });
  it.each<[string, MatchResources | undefined, Partial<MatchRequest>, boolean, boolean]>([
    ['everything', mr(), {}, true, true],
    ['excluded', mr({ excludeResourceRules: [rule({ resources: ['pods'] })] }), {}, true, false],
    ['namespace selector matches', mr({ namespaceSelector: { matchLabels: { env: 'prod' } } }), {}, true, true],
    ['namespace selector does not match', mr({ namespaceSelector: { matchLabels: { env: 'dev' } } }), {}, true, false],
    ['namespace selector ignores cluster-scoped objects', mr({ namespaceSelector: { matchLabels: { env: 'dev' } } }), { namespaced: false }, true, true],
    ['namespace selector on a Namespace looks at its own labels', mr({ namespaceSelector: { matchLabels: { app: 'web' } } }), { namespaced: false, isNamespace: true }, true, true],
    ['object selector on new labels', mr({ objectSelector: { matchLabels: { app: 'web' } } }), {}, true, true],
    ['object selector on old labels', mr({ objectSelector: { matchLabels: { app: 'old' } } }), { oldObjectLabels: { app: 'old' } }, true, true],
    ['object selector misses', mr({ objectSelector: { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['web'] }] } }), {}, true, false],
    ['a policy needs resourceRules', mr({ resourceRules: [] }), {}, true, false],
    ['a binding without resourceRules does not constrain', mr({ resourceRules: [] }), {}, false, true],
    ['a binding without matchResources matches', undefined, {}, false, true],
  ])('%s', (_n, m, q, requireRules, want) => {
    expect(matchResourcesMatch(m, req(q), requireRules)).toBe(want);
  });
});

describe('remembered rule results (MatchRequest.ruleKey)', () => {
  const keyed = (q: Partial<MatchRequest>): MatchRequest => {
    const r = req(q);
    return { ...r, ruleKey: ruleKeyOf(r) };
  };
  // One stored matchResources asked by a sequence of different requests: each answer equals the
  // uncached one, so a remembered result never leaks into another kind of request.
  it.each<[string, MatchResources, Partial<MatchRequest>[]]>([
    ['operations', { resourceRules: [rule({ operations: ['CREATE'] })] }, [{}, { operation: 'UPDATE' }, {}, { operation: 'DELETE' }]],
    ['subresources', { resourceRules: [rule({ resources: ['pods'] })] }, [{}, { subresource: 'status' }, {}, { resource: 'services' }]],
    ['versions and scope', { resourceRules: [rule({ apiVersions: ['v1'], scope: 'Namespaced' })] }, [{}, { version: 'v2', versions: ['v2'] }, { namespaced: false }, {}]],
    ['resourceNames (never remembered)', { resourceRules: [rule({ resourceNames: ['p1'] })] }, [{}, { name: 'p2' }, {}, { name: 'p3' }]],
    ['excluded names', { resourceRules: [rule()], excludeResourceRules: [rule({ resourceNames: ['p2'] })] }, [{}, { name: 'p2' }, { name: 'p1' }]],
    ['selectors still per request', { resourceRules: [rule()], objectSelector: { matchLabels: { app: 'web' } } }, [{}, { objectLabels: { app: 'db' } }, {}]],
  ])('%s', (_n, m, qs) => {
    for (const requireRules of [true, false]) {
      for (const q of qs) expect(matchResourcesMatch(m, keyed(q), requireRules)).toBe(matchResourcesMatch(m, req(q), requireRules));
    }
  });

  it('a policy (rules required) and a binding (rules optional) with the same matchResources differ', () => {
    const m: MatchResources = { resourceRules: [] };
    expect(matchResourcesMatch(m, keyed({}), true)).toBe(false);
    expect(matchResourcesMatch(m, keyed({}), false)).toBe(true);
  });
});

describe('selectorRestricts: whether a namespace selector needs the namespace', () => {
  it.each<[string, MatchResources['namespaceSelector'], boolean]>([
    ['absent', undefined, false],
    ['empty', {}, false],
    ['empty lists', { matchLabels: {}, matchExpressions: [] }, false],
    ['a label', { matchLabels: { env: 'prod' } }, true],
    ['an expression', { matchExpressions: [{ key: 'env', operator: 'DoesNotExist' }] }, true],
  ])('%s', (_n, s, want) => {
    expect(selectorRestricts(s)).toBe(want);
  });
});
