import type { ApiObject, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../api';
import { defineObject, s, type ObjectSchema } from '../../api/schema';
import { ApiError } from '../../machinery/errors';
import type { Authorizer } from '../../auth/authorizer';
import type { AdmissionAttributes } from '../attributes';
import type { PolicyCheck } from './deps';
import { validatingAdmissionPolicy, validationFailureAnnotation } from './plugin';
import { PolicySet } from './policySet';

const rules = [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts'], scope: '*' }];

function policy(name: string, spec: Record<string, unknown> = {}): ValidatingAdmissionPolicy {
  return {
    metadata: { name, resourceVersion: '1' },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: rules, matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} },
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      validations: [{ expression: 'object.metadata.name.startsWith(params.data.prefix)', messageExpression: '"name must start with " + params.data.prefix' }],
      ...spec,
    },
  } as ValidatingAdmissionPolicy;
}

function binding(name: string, policyName: string, spec: Record<string, unknown> = {}): ValidatingAdmissionPolicyBinding {
  return {
    metadata: { name },
    spec: { policyName, validationActions: ['Deny'], paramRef: { name: 'team', parameterNotFoundAction: 'Deny' }, ...spec },
  } as ValidatingAdmissionPolicyBinding;
}

const namespaces: Record<string, ApiObject> = {
  'team-a': { metadata: { name: 'team-a', labels: { team: 'a' } } },
  other: { metadata: { name: 'other', labels: {} } },
};
/** The namespaces the plugin read, in order. */
const namespaceReads: string[] = [];
const configMaps: Record<string, ApiObject> = {
  'team-a/team': { metadata: { name: 'team', namespace: 'team-a', labels: { kind: 'prefix' } }, data: { prefix: 'a-' } },
  'team-a/stricter': { metadata: { name: 'stricter', namespace: 'team-a', labels: { kind: 'prefix' } }, data: { prefix: 'a-r' } },
};

// alice may delete service accounts in team-a; service accounts may do nothing.
const authorizer: Authorizer = {
  authorize: (a) => ({
    decision: a.user.name === 'alice' && a.verb === 'delete' && a.resource === 'serviceaccounts' && a.namespace === 'team-a' ? 'allow' : 'noOpinion',
    reason: a.user.name,
  }),
};

function setup(policies: ValidatingAdmissionPolicy[], bindings: ValidatingAdmissionPolicyBinding[], checks: PolicyCheck[] = []) {
  const set = new PolicySet();
  set.replacePolicies(policies);
  set.replaceBindings(bindings);
  return validatingAdmissionPolicy({
    policies: set,
    namespace: async (n) => {
      namespaceReads.push(n);
      return namespaces[n] ?? null;
    },
    paramScope: (k) => (k.apiVersion === 'v1' && k.kind === 'ConfigMap' ? { namespaced: true } : undefined),
    param: async (_k, ns, name) => configMaps[`${ns}/${name}`] ?? null,
    paramsBySelector: async (_k, ns, sel) =>
      Object.values(configMaps).filter((o) => o.metadata?.namespace === ns && Object.entries(sel.matchLabels ?? {}).every(([k, v]) => o.metadata?.labels?.[k] === v)),
    versionsOf: () => ['v1'],
    observe: (c) => checks.push(c),
    authorizer,
  });
}

function attrs(name: string, namespace = 'team-a', extra: Partial<AdmissionAttributes> = {}): AdmissionAttributes & { warnings: string[]; annotations: Record<string, string> } {
  const warnings: string[] = [];
  const annotations: Record<string, string> = {};
  return {
    operation: 'CREATE',
    resource: { group: '', resource: 'serviceaccounts' },
    version: 'v1',
    kind: 'ServiceAccount',
    subresource: '',
    namespaced: true,
    namespace,
    name,
    obj: { metadata: { name, namespace } },
    old: null,
    user: { name: 'alice', groups: ['system:authenticated'] },
    dryRun: false,
    warn: (t) => warnings.push(t),
    addAuditAnnotation: (k, v) => (annotations[k] = v),
    warnings,
    annotations,
    ...extra,
  };
}

async function refusal(p: Promise<void> | void): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('admitted');
}

describe('ValidatingAdmissionPolicy plugin', () => {
  it('admits a name with the prefix from the ConfigMap param', async () => {
    await setup([policy('sa-prefix')], [binding('sa-prefix-binding', 'sa-prefix')])(attrs('a-robot'));
  });

  it('denies otherwise with upstream wording, reason Invalid and 422', async () => {
    const e = await refusal(setup([policy('sa-prefix')], [binding('sa-prefix-binding', 'sa-prefix')])(attrs('robot')));
    const message = "ValidatingAdmissionPolicy 'sa-prefix' with binding 'sa-prefix-binding' denied request: name must start with a-";
    expect(e.status).toMatchObject({ code: 422, reason: 'Invalid', message: `serviceaccounts "robot" is forbidden: ${message}`, details: { name: 'robot', kind: 'serviceaccounts', causes: [{ message }] } });
  });

  it.each([
    ['Forbidden', 403],
    ['RequestEntityTooLarge', 413],
  ])('reason %s answers %d', async (reason, code) => {
    const p = policy('p', { validations: [{ expression: 'false', reason }] });
    const e = await refusal(setup([p], [binding('b', 'p')])(attrs('x')));
    expect(e.status).toMatchObject({ code, reason });
    expect(e.status.message).toContain("denied request: failed expression: false");
  });

  it('Warn adds a Warning instead of denying; Audit adds the validation_failure annotation', async () => {
    const a = attrs('robot');
    await setup([policy('sa-prefix')], [binding('b', 'sa-prefix', { validationActions: ['Warn', 'Audit'] })])(a);
    expect(a.warnings).toEqual(["Validation failed for ValidatingAdmissionPolicy 'sa-prefix' with binding 'b': name must start with a-"]);
    expect(JSON.parse(a.annotations[validationFailureAnnotation])).toEqual([
      { message: 'name must start with a-', policy: 'sa-prefix', binding: 'b', expressionIndex: 0, validationActions: ['Warn', 'Audit'] },
    ]);
  });

  it('a missing param with Deny refuses as a binding configuration error; Allow admits', async () => {
    const e = await refusal(setup([policy('p')], [binding('b', 'p')])(attrs('robot', 'other')));
    expect(e.status.message).toContain("ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction");
    await setup([policy('p')], [binding('b', 'p', { paramRef: { name: 'team', parameterNotFoundAction: 'Allow' } })])(attrs('robot', 'other'));
  });

  it('a runtime error denies under Fail and admits under Ignore', async () => {
    const spec = { paramKind: undefined, validations: [{ expression: 'object.spec.missing == 1' }] };
    const e = await refusal(setup([policy('p', spec)], [binding('b', 'p', { paramRef: undefined })])(attrs('x')));
    expect(e.status.message).toContain("denied request: expression 'object.spec.missing == 1' resulted in error");
    await setup([policy('p', { ...spec, failurePolicy: 'Ignore' })], [binding('b', 'p', { paramRef: undefined })])(attrs('x'));
  });

  it.each([
    ['a false matchCondition', { matchConditions: [{ name: 'never', expression: 'false' }] }, {}],
    ['excludeResourceRules', { matchConstraints: { resourceRules: rules, excludeResourceRules: rules, namespaceSelector: {}, objectSelector: {} } }, {}],
    ['a namespaceSelector that does not match', { matchConstraints: { resourceRules: rules, namespaceSelector: { matchLabels: { team: 'b' } }, objectSelector: {} } }, {}],
    ['an objectSelector on the binding', {}, { matchResources: { objectSelector: { matchLabels: { checked: 'yes' } }, namespaceSelector: {} } }],
    ['another operation', { matchConstraints: { resourceRules: [{ ...rules[0], operations: ['DELETE'] }], namespaceSelector: {}, objectSelector: {} } }, {}],
  ])('%s leaves the request alone', async (_n, pspec, bspec) => {
    await setup([policy('p', pspec)], [binding('b', 'p', bspec)])(attrs('robot'));
  });

  it('a matchCondition error denies under Fail with upstream text; a false one wins over errors', async () => {
    const spec = { paramKind: undefined, validations: [{ expression: 'true' }], matchConditions: [{ name: 'broken', expression: 'object.nope == 1' }] };
    const e = await refusal(setup([policy('p', spec)], [binding('b', 'p', { paramRef: undefined })])(attrs('x')));
    expect(e.status.message).toMatch(/denied request: expression 'object.nope == 1' resulted in error: /);
    const withFalse = { ...spec, matchConditions: [...spec.matchConditions, { name: 'off', expression: 'false' }] };
    await setup([policy('p', withFalse)], [binding('b', 'p', { paramRef: undefined })])(attrs('x'));
  });

  it('messages are trimmed; a blank messageExpression result falls back to message', async () => {
    const p = policy('p', { paramKind: undefined, validations: [{ expression: 'false', message: '  spaced  ', messageExpression: "'   '" }] });
    const e = await refusal(setup([p], [binding('b', 'p', { paramRef: undefined })])(attrs('x')));
    expect(e.status.message).toMatch(/denied request: spaced$/);
  });

  it('variables are available to validations', async () => {
    const p = policy('p', { paramKind: undefined, variables: [{ name: 'n', expression: 'object.metadata.name' }], validations: [{ expression: 'variables.n != "root"', message: 'no root' }] });
    const e = await refusal(setup([p], [binding('b', 'p', { paramRef: undefined })])(attrs('root')));
    expect(e.status.message).toContain('denied request: no root');
  });

  it('objects are not escaped: object.metadata.namespace and request.namespace work as upstream', async () => {
    const p = policy('p', { paramKind: undefined, validations: [{ expression: 'false', messageExpression: 'object.metadata.namespace + "/" + request.namespace + "/" + request.userInfo.username' }] });
    const e = await refusal(setup([p], [binding('b', 'p', { paramRef: undefined })])(attrs('x')));
    expect(e.status.message).toContain('denied request: team-a/team-a/alice');
  });

  it('a selector paramRef evaluates every matching param', async () => {
    const b = binding('b', 'p', { paramRef: { selector: { matchLabels: { kind: 'prefix' } }, parameterNotFoundAction: 'Deny' } });
    await setup([policy('p')], [b])(attrs('a-robot'));
    const e = await refusal(setup([policy('p')], [b])(attrs('a-x')));
    expect(e.status.message).toContain("with binding 'b' denied request: name must start with a-r");
    const none = binding('b', 'p', { paramRef: { selector: { matchLabels: { kind: 'none' } }, parameterNotFoundAction: 'Allow' } });
    await setup([policy('p')], [none])(attrs('anything'));
  });

  it('observes checks as upstream: deny/warn/audit per action, allow only for an ignored error', async () => {
    const checks: PolicyCheck[] = [];
    await refusal(setup([policy('p')], [binding('b', 'p')], checks)(attrs('robot')));
    await setup([policy('p')], [binding('w', 'p', { validationActions: ['Warn', 'Audit'] })], checks)(attrs('robot'));
    await setup([policy('p')], [binding('ok', 'p')], checks)(attrs('a-robot'));
    const ignored = policy('i', { paramKind: undefined, failurePolicy: 'Ignore', validations: [{ expression: 'object.nope' }] });
    await setup([ignored], [binding('ib', 'i', { paramRef: undefined })], checks)(attrs('x'));
    expect(checks.map(({ seconds: _s, ...c }) => c)).toEqual([
      { policy: 'p', binding: 'b', errorType: 'no_error', enforcementAction: 'deny' },
      { policy: 'p', binding: 'w', errorType: 'no_error', enforcementAction: 'warn' },
      { policy: 'p', binding: 'w', errorType: 'no_error', enforcementAction: 'audit' },
      { policy: 'i', binding: 'ib', errorType: 'invalid_error', enforcementAction: 'allow' },
    ]);
    expect(checks.every((c) => c.seconds >= 0)).toBe(true);
  });

  it('auditAnnotations become <policy>/<key>; equal values from several bindings are kept once', async () => {
    const p = policy('p', { paramKind: undefined, validations: [], auditAnnotations: [{ key: 'who', valueExpression: 'request.userInfo.username + " made " + object.metadata.name' }, { key: 'none', valueExpression: 'null' }] });
    const a = attrs('x');
    await setup([p], [binding('b1', 'p', { paramRef: undefined }), binding('b2', 'p', { paramRef: undefined })])(a);
    expect(a.annotations).toEqual({ 'p/who': 'alice made x' });
  });

  it('the authorizer variable asks the server authorizer for the requesting user or a service account', async () => {
    const validations = [
      { expression: "authorizer.requestResource.check('delete').allowed()", message: 'may not delete' },
      { expression: "!authorizer.serviceAccount('team-a', 'robot').group('').resource('serviceaccounts').namespace('team-a').check('delete').allowed()", message: 'robot may delete' },
    ];
    const p = policy('p', { paramKind: undefined, validations });
    await setup([p], [binding('b', 'p', { paramRef: undefined })])(attrs('x'));
    const e = await refusal(setup([p], [binding('b', 'p', { paramRef: undefined })])(attrs('x', 'other')));
    expect(e.status.message).toContain('denied request: may not delete');
  });

  it('reads the namespace only when a selector can refuse or an expression reads namespaceObject', async () => {
    const byName = { matchConstraints: { resourceRules: rules, namespaceSelector: {}, objectSelector: {} }, paramKind: undefined };
    const cases: [string, Record<string, unknown>, string, boolean, string[]][] = [
      ['object only, empty selector', { ...byName, validations: [{ expression: "object.metadata.name != 'bad'" }] }, 'bad', false, []],
      ['object only, admitted', { ...byName, validations: [{ expression: "object.metadata.name != 'bad'" }] }, 'good', true, []],
      ['a namespace selector that matches', { ...byName, matchConstraints: { ...byName.matchConstraints, namespaceSelector: { matchLabels: { team: 'a' } } }, validations: [{ expression: 'false' }] }, 'x', false, ['team-a']],
      ['a namespace selector that does not', { ...byName, matchConstraints: { ...byName.matchConstraints, namespaceSelector: { matchLabels: { team: 'b' } } }, validations: [{ expression: 'false' }] }, 'x', true, ['team-a']],
      ['namespaceObject in a messageExpression', { ...byName, validations: [{ expression: 'false', messageExpression: 'namespaceObject.metadata.labels.team' }] }, 'x', false, ['team-a']],
      ['namespaceObject in a variable', { ...byName, variables: [{ name: 'team', expression: "namespaceObject.metadata.labels.team == 'a'" }], validations: [{ expression: '!variables.team' }] }, 'x', false, ['team-a']],
    ];
    for (const [name, spec, object, admitted, reads] of cases) {
      namespaceReads.length = 0;
      const run = setup([policy('p', spec)], [binding('b', 'p', { paramRef: undefined })])(attrs(object));
      if (admitted) await run;
      else await refusal(run);
      expect([name, namespaceReads]).toEqual([name, reads]);
    }
    namespaceReads.length = 0;
    const e = await refusal(setup([policy('p', cases[4]![1])], [binding('b', 'p', { paramRef: undefined })])(attrs('x')));
    expect(e.status.message).toBe('serviceaccounts "x" is forbidden: ValidatingAdmissionPolicy \'p\' with binding \'b\' denied request: a');
  });

  it('a binding namespace selector reads the namespace too', async () => {
    namespaceReads.length = 0;
    const p = policy('p', { paramKind: undefined, validations: [{ expression: 'false' }] });
    await setup([p], [binding('b', 'p', { paramRef: undefined, matchResources: { namespaceSelector: { matchLabels: { team: 'b' } } } })])(attrs('x'));
    expect(namespaceReads).toEqual(['team-a']);
  });

  it('a policy without bindings does nothing', async () => {
    await setup([policy('p')], [])(attrs('robot'));
  });

  it('requests on the policy kinds themselves are exempt', async () => {
    const everything = [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }];
    const p = policy('p', { paramKind: undefined, matchConstraints: { resourceRules: everything, namespaceSelector: {}, objectSelector: {} }, validations: [{ expression: 'false' }] });
    const plugin = setup([p], [binding('b', 'p', { paramRef: undefined })]);
    await plugin(attrs('x', '', { resource: { group: 'admissionregistration.svc.io', resource: 'validatingadmissionpolicies' }, namespaced: false }));
    await refusal(plugin(attrs('x', '', { resource: { group: 'rbac.authorization.svc.io', resource: 'clusterroles' }, namespaced: false })));
  });

  it('set lists in the object follow the kind schema: order-insensitive equality (§4.10.5)', async () => {
    const Sa = defineObject({ name: 'Sa', fields: { metadata: s.object(() => Meta), finalizers: s.array(s.string(), { listType: 'set' }) } });
    const Meta = defineObject({ name: 'Meta', fields: { name: s.string() } });
    const p = policy('p', { paramKind: undefined, validations: [{ expression: "object.finalizers == ['b', 'a']", message: 'finalizers' }] });
    const set = new PolicySet();
    set.replacePolicies([p]);
    set.replaceBindings([binding('b', 'p', { paramRef: undefined })]);
    const plugin = (schema?: ObjectSchema) =>
      validatingAdmissionPolicy({
        policies: set,
        namespace: async (n) => namespaces[n] ?? null,
        paramScope: () => undefined,
        param: async () => null,
        paramsBySelector: async () => [],
        versionsOf: () => ['v1'],
        schemaOf: () => schema,
      });
    const a = attrs('x', 'team-a', { obj: { metadata: { name: 'x' }, finalizers: ['a', 'b'] } as ApiObject });
    await plugin(Sa)(a);
    await refusal(plugin(undefined)(a));
  });

  it('only policies whose resourceRules name the group/resource are walked', () => {
    const set = new PolicySet();
    const other = [{ operations: ['*'], apiGroups: ['rbac.authorization.svc.io'], apiVersions: ['*'], resources: ['roles'] }];
    const star = [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }];
    set.replacePolicies([
      policy('sa'),
      policy('roles', { matchConstraints: { resourceRules: other } }),
      policy('all', { matchConstraints: { resourceRules: star } }),
    ]);
    set.replaceBindings([binding('b1', 'sa'), binding('b2', 'roles'), binding('b3', 'all')]);
    expect(set.hooksFor('', 'serviceaccounts').map((h) => h.policy.name)).toEqual(['all', 'sa']);
    expect(set.hooksFor('rbac.authorization.svc.io', 'roles').map((h) => h.policy.name)).toEqual(['all', 'roles']);
    set.removeBinding(binding('b3', 'all'));
    expect(set.hooksFor('', 'serviceaccounts').map((h) => h.policy.name)).toEqual(['sa']);
  });
});
