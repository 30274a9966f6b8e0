import { levelAtLeast, loadPolicy, Policy, PolicyLoadError } from './policy';

const header = 'apiVersion: audit.svc.io/v1\nkind: Policy\n';

describe('loadPolicy: valid documents', () => {
  test('YAML with every rule field', () => {
    const p = loadPolicy(`${header}omitStages: [RequestReceived]
omitManagedFields: true
rules:
  - level: RequestResponse
    users: [alice]
    userGroups: ["system:masters"]
    verbs: [create, update]
    resources:
      - group: ""
        resources: [pods, pods/log]
        resourceNames: [web]
      - group: rbac.authorization.svc.io
    namespaces: [default, ""]
    omitStages: [Panic]
    omitManagedFields: false
  - level: Metadata
    nonResourceURLs: ["/healthz*", "*"]
  - level: None
`);
    expect(p).toEqual<Policy>({
      apiVersion: 'audit.svc.io/v1',
      kind: 'Policy',
      omitStages: ['RequestReceived'],
      omitManagedFields: true,
      rules: [
        {
          level: 'RequestResponse',
          users: ['alice'],
          userGroups: ['system:masters'],
          verbs: ['create', 'update'],
          resources: [{ group: '', resources: ['pods', 'pods/log'], resourceNames: ['web'] }, { group: 'rbac.authorization.svc.io' }],
          namespaces: ['default', ''],
          omitStages: ['Panic'],
          omitManagedFields: false,
        },
        { level: 'Metadata', nonResourceURLs: ['/healthz*', '*'] },
        { level: 'None' },
      ],
    });
  });

  test('JSON', () => {
    const p = loadPolicy('{"apiVersion":"audit.svc.io/v1","kind":"Policy","rules":[{"level":"Request","verbs":["delete"]}]}');
    expect(p.rules).toEqual([{ level: 'Request', verbs: ['delete'] }]);
  });

  test('YAML 1.2 core schema: yes/on/0755 stay as written where strings are expected', () => {
    const p = loadPolicy(`${header}rules:\n  - level: Metadata\n    users: [yes, on, "0755"]\n`);
    expect(p.rules[0].users).toEqual(['yes', 'on', '0755']);
  });

  test('null lists are absent; metadata is accepted', () => {
    const p = loadPolicy(`${header}metadata: {name: p}\nomitStages: ~\nrules:\n  - level: None\n    users: null\n`);
    expect(p.rules).toEqual([{ level: 'None' }]);
    expect(p.omitStages).toBeUndefined();
    expect(p.metadata).toEqual({ name: 'p' });
  });

  test('unknown fields are ignored with upstream’s lenient-decoding warning', () => {
    const warnings: string[] = [];
    const p = loadPolicy(`${header}extra: 1\nrules:\n  - level: None\n    verb: [get]\n    resources: [{groups: [x]}]\n`, { warn: (m) => warnings.push(m) });
    expect(p.rules).toEqual([{ level: 'None', resources: [{}] }]);
    expect(warnings).toEqual([
      'Audit policy contains errors, falling back to lenient decoding: strict decoding error: unknown field "extra", unknown field "rules[0].verb", unknown field "rules[0].resources[0].groups"',
    ]);
  });

  test('no warning for a clean policy', () => {
    const warn = jest.fn();
    loadPolicy(`${header}rules: [{level: None}]`, { warn });
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('loadPolicy: errors', () => {
  test.each<[string, string, string]>([
    ['empty document', '', 'failed decoding: expected a document, but the input is empty'],
    ['YAML syntax', 'a: [', 'failed decoding: '],
    ['duplicate key', `${header}kind: Policy\nrules: []`, 'failed decoding: duplicated mapping key'],
    ['not an object', '- a', 'failed decoding: the policy must be an object'],
    ['kind missing', 'apiVersion: audit.svc.io/v1\nrules: []', "failed decoding: Object 'Kind' is missing"],
    ['wrong kind', 'apiVersion: audit.svc.io/v1\nkind: Pod\nrules: [{level: None}]', 'unknown group version field audit.svc.io/v1, Kind=Pod in policy'],
    ['wrong apiVersion', 'apiVersion: audit.svc.io/v2\nkind: Policy\nrules: [{level: None}]', 'unknown group version field audit.svc.io/v2, Kind=Policy in policy'],
    ['upstream group', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None}]', 'unknown group version field audit.k8s.io/v1, Kind=Policy'],
    ['apiVersion missing', 'kind: Policy\nrules: [{level: None}]', 'unknown group version field /, Kind=Policy in policy'],
    ['rules not a list', `${header}rules: {level: None}`, 'failed decoding: rules: must be a list'],
    ['rule not an object', `${header}rules: [None]`, 'failed decoding: rules[0]: must be an object'],
    ['level not a string', `${header}rules: [{level: 1}]`, 'failed decoding: rules[0].level: must be a string'],
    ['users not strings', `${header}rules: [{level: None, users: [1]}]`, 'failed decoding: rules[0].users: must be a list of strings'],
    ['bool field', `${header}rules: [{level: None, omitManagedFields: "yes"}]`, 'failed decoding: rules[0].omitManagedFields: must be a boolean'],
    ['group not a string', `${header}rules: [{level: None, resources: [{group: 1}]}]`, 'failed decoding: rules[0].resources[0].group: must be a string'],
  ])('%s', (_name, text, want) => {
    expect(() => loadPolicy(text)).toThrow(PolicyLoadError);
    expect(() => loadPolicy(text)).toThrow(want);
  });

  test('the wrong-version message names what is expected', () => {
    expect(() => loadPolicy('apiVersion: v1\nkind: Policy\nrules: [{level: None}]')).toThrow(
      'unknown group version field v1, Kind=Policy in policy: want apiVersion "audit.svc.io/v1" and kind "Policy"',
    );
  });

  test.each<[string, string, string]>([
    ['no rules', `${header}rules: []`, 'loaded illegal policy with 0 rules'],
    ['rules absent', header, 'loaded illegal policy with 0 rules'],
    ['level missing', `${header}rules: [{verbs: [get]}]`, 'rules[0].level: Required value'],
    [
      'unknown level',
      `${header}rules: [{level: None}, {level: Everything}]`,
      'rules[1].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"',
    ],
    [
      'unknown rule stage',
      `${header}rules: [{level: None, omitStages: [RequestReceived, Done]}]`,
      'rules[0].omitStages[1]: Invalid value: "Done": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic',
    ],
    [
      'unknown policy stage',
      `${header}omitStages: [Start]\nrules: [{level: None}]`,
      'omitStages[0]: Invalid value: "Start": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic',
    ],
    [
      'relative non-resource URL',
      `${header}rules: [{level: None, nonResourceURLs: [healthz]}]`,
      `rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character`,
    ],
    [
      'inner wildcard',
      `${header}rules: [{level: None, nonResourceURLs: ["/a*/b"]}]`,
      `rules[0].nonResourceURLs[0]: Invalid value: "/a*/b": non-resource URL wildcards '*' must be the final character of the rule`,
    ],
    [
      'resources and non-resource URLs',
      `${header}rules: [{level: None, namespaces: [a], nonResourceURLs: ["/x"]}]`,
      'rules[0].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs',
    ],
    [
      'group with a version',
      `${header}rules: [{level: None, resources: [{group: rbac.authorization.svc.io/v1}]}]`,
      `rules[0].resources.group: Invalid value: "rbac.authorization.svc.io/v1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.'`,
    ],
    [
      'resourceNames without resources',
      `${header}rules: [{level: None, resources: [{resourceNames: [a]}]}]`,
      'rules[0].resources.resourceNames: Invalid value: ["a"]: using resourceNames requires at least one resource',
    ],
  ])('%s', (_name, text, want) => {
    expect(() => loadPolicy(text)).toThrow(PolicyLoadError);
    expect(() => loadPolicy(text)).toThrow(want);
  });

  test('several errors are aggregated in order, bracketed', () => {
    expect(() => loadPolicy(`${header}rules: [{level: X}, {level: None, omitStages: [Y]}]`)).toThrow(
      new PolicyLoadError(
        '[rules[0].level: Unsupported value: "X": supported values: "None", "Metadata", "Request", "RequestResponse", ' +
          'rules[1].omitStages[0]: Invalid value: "Y": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic]',
      ),
    );
  });

  test('validation errors come before the empty-rules check', () => {
    expect(() => loadPolicy(`${header}omitStages: [Y]\nrules: []`)).toThrow('omitStages[0]: Invalid value: "Y"');
  });
});

describe('levelAtLeast', () => {
  test.each<[Parameters<typeof levelAtLeast>[0], Parameters<typeof levelAtLeast>[1], boolean]>([
    ['None', 'Metadata', false],
    ['Metadata', 'Metadata', true],
    ['Metadata', 'Request', false],
    ['Request', 'Metadata', true],
    ['RequestResponse', 'Request', true],
    ['Request', 'RequestResponse', false],
  ])('%s ≥ %s → %s', (level, min, want) => {
    expect(levelAtLeast(level, min)).toBe(want);
  });
});
