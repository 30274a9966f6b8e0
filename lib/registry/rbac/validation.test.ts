import type { AggregationRule, PolicyRule, RoleRef, Subject } from '../../api';
import { renderFieldError } from '../../machinery/fieldErrors';
import type { FieldError } from '../../machinery/fieldErrors';
import {
  aggregationRuleHasInvalidSelector,
  applyBindingDefaults,
  createRulesOnUpdate,
  validateAggregationRule,
  validatePolicyRule,
  validatePolicyRules,
  validateRBACName,
  validateRoleRef,
  validateSubject,
  validateSubjects,
} from './validation';

const rbacGroup = 'rbac.authorization.svc.io';
const render = (errs: FieldError[]): string[] => errs.map(renderFieldError);

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('validatePolicyRule', () => {
  const cases: [string, PolicyRule, boolean, string[]][] = [
    ['a resource rule', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, true, []],
    ['resourceNames with several resources (allowed since upstream dropped the check)', { verbs: ['get'], apiGroups: [''], resources: ['pods', 'secrets'], resourceNames: ['x'] }, true, []],
    ['a non-resource rule in a ClusterRole', { verbs: ['get'], nonResourceURLs: ['/healthz', '/version/*'] }, false, []],
    ['no verbs', { apiGroups: [''], resources: ['pods'] }, true, ['rules[0].verbs: Required value: verbs must contain at least one value']],
    ['empty verbs', { verbs: [], apiGroups: [''], resources: ['pods'] }, false, ['rules[0].verbs: Required value: verbs must contain at least one value']],
    ['no apiGroups', { verbs: ['get'], resources: ['pods'] }, true, ['rules[0].apiGroups: Required value: resource rules must supply at least one api group']],
    ['no resources', { verbs: ['get'], apiGroups: ['apps'] }, true, ['rules[0].resources: Required value: resource rules must supply at least one resource']],
    [
      'an empty rule',
      {},
      false,
      [
        'rules[0].verbs: Required value: verbs must contain at least one value',
        'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
        'rules[0].resources: Required value: resource rules must supply at least one resource',
      ],
    ],
    [
      'non-resource URLs in a Role',
      { verbs: ['get'], nonResourceURLs: ['/healthz'] },
      true,
      ['rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs'],
    ],
    [
      'non-resource URLs mixed with resources',
      { verbs: ['get'], nonResourceURLs: ['/healthz'], resources: ['pods'] },
      false,
      ['rules[0].nonResourceURLs: Invalid value: ["/healthz"]: rules cannot apply to both regular resources and non-resource URLs'],
    ],
    [
      'non-resource URLs with resourceNames only, in a Role, without verbs',
      { nonResourceURLs: ['/a'], resourceNames: ['x'] },
      true,
      [
        'rules[0].verbs: Required value: verbs must contain at least one value',
        'rules[0].nonResourceURLs: Invalid value: ["/a"]: namespaced rules cannot apply to non-resource URLs',
        'rules[0].nonResourceURLs: Invalid value: ["/a"]: rules cannot apply to both regular resources and non-resource URLs',
      ],
    ],
    [
      'non-resource URLs with apiGroups (resource checks are skipped)',
      { verbs: ['get'], nonResourceURLs: ['/a'], apiGroups: [''] },
      false,
      ['rules[0].nonResourceURLs: Invalid value: ["/a"]: rules cannot apply to both regular resources and non-resource URLs'],
    ],
  ];
  it.each(cases)('%s', (_name, rule, namespaced, expected) => {
    expect(render(validatePolicyRule(rule, namespaced, 'rules[0]'))).toEqual(expected);
  });

  it('indexes every rule and treats a null entry as an empty rule', () => {
    const rules = [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, null, { verbs: ['list'], apiGroups: [''] }];
    expect(render(validatePolicyRules(rules, true))).toEqual([
      'rules[1].verbs: Required value: verbs must contain at least one value',
      'rules[1].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[1].resources: Required value: resource rules must supply at least one resource',
      'rules[2].resources: Required value: resource rules must supply at least one resource',
    ]);
    expect(validatePolicyRules(undefined, true)).toEqual([]);
    expect(validatePolicyRules(null, false)).toEqual([]);
  });
});

describe('validateAggregationRule', () => {
  const path = 'aggregationRule.clusterRoleSelectors';
  const cases: [string, AggregationRule | null | undefined, string[]][] = [
    ['absent', undefined, []],
    ['null', null, []],
    ['a valid selector', { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-view': 'true' } }] }, []],
    ['an empty selector (matches everything)', { clusterRoleSelectors: [{}] }, []],
    ['no selectors', {}, [`${path}: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil`]],
    ['an empty selector list', { clusterRoleSelectors: [] }, [`${path}: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil`]],
    [
      'an unknown operator',
      { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }] },
      [`${path}[0].matchExpressions[0].operator: Invalid value: "Gt": not a valid selector operator`, `${path}[0]: Invalid value: null: invalid label selector.`],
    ],
    [
      'In without values',
      { clusterRoleSelectors: [{}, { matchExpressions: [{ key: 'a', operator: 'In' }] }] },
      [
        `${path}[1].matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
        `${path}[1]: Invalid value: null: invalid label selector.`,
      ],
    ],
    [
      'Exists with values',
      { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }] },
      [
        `${path}[0].matchExpressions[0].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
        `${path}[0]: Invalid value: null: invalid label selector.`,
      ],
    ],
    [
      'a bad matchLabels value (reported on the map path)',
      { clusterRoleSelectors: [{ matchLabels: { a: 'bad value' } }] },
      [
        `${path}[0].matchLabels: Invalid value: "bad value": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
        `${path}[0]: Invalid value: null: invalid label selector.`,
      ],
    ],
    [
      'a bad expression key',
      { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a/b/c', operator: 'DoesNotExist' }] }] },
      [
        `${path}[0].matchExpressions[0].key: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
        `${path}[0]: Invalid value: null: invalid label selector.`,
      ],
    ],
    [
      'a bad expression value',
      { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['ok', '-bad'] }] }] },
      [
        `${path}[0].matchExpressions[0].values[1]: Invalid value: "-bad": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
        `${path}[0]: Invalid value: null: invalid label selector.`,
      ],
    ],
  ];
  it.each(cases)('%s', (_name, rule, expected) => {
    expect(render(validateAggregationRule(rule, false))).toEqual(expected);
  });

  it('tolerated invalid values still fail the conversion check, as upstream', () => {
    const rule = { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'In', values: ['-bad'] }] }] };
    expect(render(validateAggregationRule(rule, true))).toEqual([`${path}[0]: Invalid value: null: invalid label selector.`]);
  });

  const stored: [string, AggregationRule | undefined, boolean][] = [
    ['no rule', undefined, false],
    ['valid selectors', { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] }, false],
    ['an invalid value', { clusterRoleSelectors: [{}, { matchExpressions: [{ key: 'a', operator: 'In', values: ['-bad'] }] }] }, true],
    ['an invalid operator', { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'nope' }] }] }, true],
    ['no selectors (not a selector error)', {}, false],
  ];
  it.each(stored)('aggregationRuleHasInvalidSelector: %s', (_name, rule, expected) => {
    expect(aggregationRuleHasInvalidSelector(rule)).toBe(expected);
  });
});

describe('validateRoleRef', () => {
  const both = ['Role', 'ClusterRole'];
  const cases: [string, RoleRef | undefined, string[], string[]][] = [
    ['a Role', { apiGroup: rbacGroup, kind: 'Role', name: 'reader' }, both, []],
    ['a ClusterRole with any path-segment name', { apiGroup: rbacGroup, kind: 'ClusterRole', name: 'system:Odd Name' }, ['ClusterRole'], []],
    [
      'a Role where only ClusterRole is allowed',
      { apiGroup: rbacGroup, kind: 'Role', name: 'r' },
      ['ClusterRole'],
      ['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"'],
    ],
    [
      'the upstream group name',
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
      both,
      ['roleRef.apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: "rbac.authorization.svc.io"'],
    ],
    [
      'nothing',
      undefined,
      both,
      [
        'roleRef.apiGroup: Unsupported value: "": supported values: "rbac.authorization.svc.io"',
        'roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"',
        'roleRef.name: Required value',
      ],
    ],
    ['a name with a slash', { apiGroup: rbacGroup, kind: 'Role', name: 'a/b' }, both, [`roleRef.name: Invalid value: "a/b": may not contain '/'`]],
    ['the name ..', { apiGroup: rbacGroup, kind: 'Role', name: '..' }, both, [`roleRef.name: Invalid value: "..": may not be '..'`]],
    [
      'a name with % and /',
      { apiGroup: rbacGroup, kind: 'Role', name: '%/' },
      both,
      [`roleRef.name: Invalid value: "%/": may not contain '/'`, `roleRef.name: Invalid value: "%/": may not contain '%'`],
    ],
  ];
  it.each(cases)('%s', (_name, ref, kinds, expected) => {
    expect(render(validateRoleRef(ref, kinds))).toEqual(expected);
  });
});

describe('validateSubject', () => {
  const cases: [string, Subject, boolean, string[]][] = [
    ['a ServiceAccount in a RoleBinding', { kind: 'ServiceAccount', name: 'builder' }, true, []],
    ['a ServiceAccount in a ClusterRoleBinding', { kind: 'ServiceAccount', name: 'builder', namespace: 'team' }, false, []],
    ['a User with any name', { kind: 'User', apiGroup: rbacGroup, name: 'Alice Smith@example.com' }, false, []],
    ['a Group', { kind: 'Group', apiGroup: rbacGroup, name: 'system:authenticated' }, true, []],
    ['a ServiceAccount without namespace in a ClusterRoleBinding', { kind: 'ServiceAccount', name: 'b' }, false, ['subjects[0].namespace: Required value']],
    ['a ServiceAccount with a bad name', { kind: 'ServiceAccount', name: 'Builder' }, true, [`subjects[0].name: Invalid value: "Builder": ${subdomainMsg}`]],
    [
      'a ServiceAccount with a group',
      { kind: 'ServiceAccount', name: 'b', apiGroup: rbacGroup },
      true,
      ['subjects[0].apiGroup: Unsupported value: "rbac.authorization.svc.io": supported values: ""'],
    ],
    ['a ServiceAccount without a name', { kind: 'ServiceAccount', namespace: 'team' }, false, ['subjects[0].name: Required value']],
    [
      'a User without group or name',
      { kind: 'User' },
      true,
      ['subjects[0].name: Required value', 'subjects[0].apiGroup: Unsupported value: "": supported values: "rbac.authorization.svc.io"'],
    ],
    ['a Group in the core group', { kind: 'Group', apiGroup: '', name: 'g' }, true, ['subjects[0].apiGroup: Unsupported value: "": supported values: "rbac.authorization.svc.io"']],
    [
      'an unknown kind',
      { kind: 'Robot', name: 'r2' },
      true,
      ['subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"'],
    ],
    [
      'nothing at all',
      {},
      false,
      ['subjects[0].name: Required value', 'subjects[0].kind: Unsupported value: "": supported values: "ServiceAccount", "User", "Group"'],
    ],
  ];
  it.each(cases)('%s', (_name, subject, namespaced, expected) => {
    expect(render(validateSubject(subject, namespaced, 'subjects[0]'))).toEqual(expected);
  });

  it('indexes every subject', () => {
    expect(render(validateSubjects([{ kind: 'User', apiGroup: rbacGroup, name: 'a' }, null, { kind: 'Group', apiGroup: rbacGroup }], true))).toEqual([
      'subjects[1].name: Required value',
      'subjects[1].kind: Unsupported value: "": supported values: "ServiceAccount", "User", "Group"',
      'subjects[2].name: Required value',
    ]);
  });
});

describe('applyBindingDefaults', () => {
  const cases: [string, { roleRef?: RoleRef; subjects?: Subject[] }, { roleRef?: RoleRef; subjects?: Subject[] }][] = [
    ['roleRef group filled in', { roleRef: { kind: 'Role', name: 'r' } }, { roleRef: { kind: 'Role', name: 'r', apiGroup: rbacGroup } }],
    ['an absent roleRef gets the group', {}, { roleRef: { apiGroup: rbacGroup } }],
    ['a set roleRef group is kept', { roleRef: { apiGroup: 'x.io', kind: 'Role', name: 'r' } }, { roleRef: { apiGroup: 'x.io', kind: 'Role', name: 'r' } }],
    [
      'subject groups by kind',
      {
        roleRef: { apiGroup: rbacGroup },
        subjects: [
          { kind: 'User', name: 'u' },
          { kind: 'Group', name: 'g', apiGroup: '' },
          { kind: 'ServiceAccount', name: 's' },
          { kind: 'Robot', name: 'r' },
          { kind: 'User', name: 'v', apiGroup: 'other.io' },
        ],
      },
      {
        roleRef: { apiGroup: rbacGroup },
        subjects: [
          { kind: 'User', name: 'u', apiGroup: rbacGroup },
          { kind: 'Group', name: 'g', apiGroup: rbacGroup },
          { kind: 'ServiceAccount', name: 's' },
          { kind: 'Robot', name: 'r' },
          { kind: 'User', name: 'v', apiGroup: 'other.io' },
        ],
      },
    ],
  ];
  it.each(cases)('%s', (_name, binding, expected) => {
    applyBindingDefaults(binding);
    expect(binding).toEqual(expected);
  });
});

describe('names and update duplication', () => {
  it('RBAC names are path segments', () => {
    expect(validateRBACName('system:controller:Any Name', false)).toEqual([]);
    expect(validateRBACName('a/b', false)).toEqual(["may not contain '/'"]);
  });

  it('lists each create error twice on update', () => {
    const e = validatePolicyRule({}, false, 'rules[0]').slice(0, 1);
    expect(createRulesOnUpdate(e)).toEqual([e[0], e[0]]);
    expect(createRulesOnUpdate([])).toEqual([]);
  });
});
