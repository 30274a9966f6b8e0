import {
  aggregateErrorText,
  alwaysAllowAuthorizer,
  alwaysDenyAuthorizer,
  type AuthorizationAttributes,
  type AuthorizationResult,
  type Authorizer,
  privilegedGroupsAuthorizer,
  type RuleResolver,
  unionAuthorizer,
  unionRuleResolver,
} from './authorizer';

const attrs = (groups: string[] = []): AuthorizationAttributes => ({
  user: { name: 'alice', groups },
  verb: 'get',
  isResourceRequest: true,
  path: '/api/v1/namespaces/ns/serviceaccounts',
  namespace: 'ns',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'serviceaccounts',
  subresource: '',
  name: '',
});

const fixed = (r: AuthorizationResult): Authorizer & { calls: number } => {
  const z = {
    calls: 0,
    authorize() {
      z.calls++;
      return r;
    },
  };
  return z;
};

describe('aggregateErrorText', () => {
  it.each<[string[], string | undefined]>([
    [[], undefined],
    [['a'], 'a'],
    [['a', 'a'], 'a'],
    [['a', 'b'], '[a, b]'],
    [['a', 'b', 'a'], '[a, b]'],
  ])('%j → %j', (msgs, want) => {
    expect(aggregateErrorText(msgs)).toBe(want);
  });
});

describe('unionAuthorizer', () => {
  const noop = (reason = '', evaluationError?: string): AuthorizationResult =>
    evaluationError === undefined ? { decision: 'noOpinion', reason } : { decision: 'noOpinion', reason, evaluationError };

  it.each<[string, AuthorizationResult[], AuthorizationResult, number[]]>([
    ['empty union has no opinion', [], { decision: 'noOpinion', reason: '' }, []],
    ['first allow wins', [{ decision: 'allow', reason: 'a' }, { decision: 'deny', reason: 'd' }], { decision: 'allow', reason: 'a' }, [1, 0]],
    ['first deny wins', [noop('n1'), { decision: 'deny', reason: 'd' }, { decision: 'allow', reason: 'a' }], { decision: 'deny', reason: 'd' }, [1, 1, 0]],
    ['allow keeps only its own reason and error', [noop('n1', 'e1'), { decision: 'allow', reason: 'a' }], { decision: 'allow', reason: 'a' }, [1, 1]],
    ['no-opinion reasons joined with newlines, empty ones skipped', [noop('n1'), noop(''), noop('n3')], { decision: 'noOpinion', reason: 'n1\nn3' }, [1, 1, 1]],
    [
      'no-opinion errors aggregated',
      [noop('', 'e1'), noop('r', 'e2')],
      { decision: 'noOpinion', reason: 'r', evaluationError: '[e1, e2]' },
      [1, 1],
    ],
  ])('%s', (_name, results, want, calls) => {
    const zs = results.map(fixed);
    expect(unionAuthorizer(zs).authorize(attrs())).toEqual(want);
    expect(zs.map((z) => z.calls)).toEqual(calls);
  });
});

describe('privilegedGroupsAuthorizer', () => {
  it.each<[string[], AuthorizationResult]>([
    [['system:masters'], { decision: 'allow', reason: '' }],
    [['ops', 'system:masters', 'system:authenticated'], { decision: 'allow', reason: '' }],
    [['system:authenticated'], { decision: 'noOpinion', reason: '' }],
    [[], { decision: 'noOpinion', reason: '' }],
  ])('groups %j', (groups, want) => {
    expect(privilegedGroupsAuthorizer(['system:masters']).authorize(attrs(groups))).toEqual(want);
  });
});

describe('always authorizers', () => {
  it('always-allow allows and resolves star rules', () => {
    const z = alwaysAllowAuthorizer();
    expect(z.authorize(attrs())).toEqual({ decision: 'allow', reason: '' });
    expect(z.rulesFor({ name: 'x', groups: [] }, 'ns')).toEqual({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    });
  });

  it('always-deny has no opinion with upstream reason and no rules', () => {
    const z = alwaysDenyAuthorizer();
    expect(z.authorize(attrs())).toEqual({ decision: 'noOpinion', reason: 'Everything is forbidden.' });
    expect(z.rulesFor({ name: 'x', groups: [] }, 'ns')).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: false });
    // a union falls through it
    expect(unionAuthorizer([z, alwaysAllowAuthorizer()]).authorize(attrs()).decision).toBe('allow');
  });
});

describe('unionRuleResolver', () => {
  it('concatenates rules, ors incomplete, aggregates errors', () => {
    const a: RuleResolver = { rulesFor: () => ({ resourceRules: [{ verbs: ['get'] }], nonResourceRules: [], incomplete: false, evaluationError: 'x' }) };
    const b: RuleResolver = {
      rulesFor: () => ({ resourceRules: [{ verbs: ['list'] }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/a'] }], incomplete: true, evaluationError: 'y' }),
    };
    expect(unionRuleResolver([a, b]).rulesFor({ name: 'u', groups: [] }, 'ns')).toEqual({
      resourceRules: [{ verbs: ['get'] }, { verbs: ['list'] }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/a'] }],
      incomplete: true,
      evaluationError: '[x, y]',
    });
    expect(unionRuleResolver([alwaysDenyAuthorizer()]).rulesFor({ name: 'u', groups: [] }, 'ns')).toEqual({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: false,
    });
  });
});
