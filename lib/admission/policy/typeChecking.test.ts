import type { ValidatingAdmissionPolicy } from '../../api';
import { defineObject, s, type ObjectSchema } from '../../api/schema';
import { typeCheckPolicy, typesToCheck, type KindResolver } from './typeChecking';

// Cases after upstream's validating/typechecking_test.go (TestTypeCheck).
const deployments = { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] };
function policy(spec: Record<string, unknown>): ValidatingAdmissionPolicy {
  return { metadata: { name: 'p' }, spec: { matchConstraints: { resourceRules: [deployments] }, ...spec } } as ValidatingAdmissionPolicy;
}
const withFoo = (foo: 'string' | 'int') => defineObject({ name: `Deployment${foo}`, fields: { foo: foo === 'string' ? s.string() : s.int64() } });
const withBar = defineObject({ name: 'DeploymentBar', fields: { bar: s.string() } });
const Config = defineObject({ name: 'Config', fields: { bar: s.string() } });

function resolver(schema: ObjectSchema | undefined, params?: ObjectSchema): KindResolver {
  return {
    kindFor: (g, v, r) => (g === 'apps' && v === 'v1' && r === 'deployments' ? { group: 'apps', version: 'v1', kind: 'Deployment' } : undefined),
    schemaFor: (gvk) => (gvk.kind === 'Deployment' ? schema : gvk.kind === 'DoesNotMatter' ? params : undefined),
  };
}

const deploymentPolicy = policy({ validations: [{ expression: "object.foo == 'bar'" }] });

describe('typeCheckPolicy (upstream TestTypeCheck)', () => {
  it.each<[string, ValidatingAdmissionPolicy, KindResolver, { fieldRef: string; contains: string }[]]>([
    ['empty', { metadata: { name: 'p' }, spec: {} } as ValidatingAdmissionPolicy, resolver(withFoo('string')), []],
    ['unresolved schema', deploymentPolicy, resolver(undefined), []],
    ['passed check', deploymentPolicy, resolver(withFoo('string')), []],
    ['undefined field', deploymentPolicy, resolver(withBar), [{ fieldRef: 'spec.validations[0].expression', contains: "undefined field 'foo'" }]],
    ['field type mismatch', deploymentPolicy, resolver(withFoo('int')), [{ fieldRef: 'spec.validations[0].expression', contains: 'found no matching overload' }]],
    [
      'params',
      policy({ paramKind: { apiVersion: 'v1', kind: 'DoesNotMatter' }, validations: [{ expression: 'object.foo == params.bar' }] }),
      resolver(withFoo('string'), defineObject({ name: 'P', fields: { foo: s.string() } })),
      [{ fieldRef: 'spec.validations[0].expression', contains: "undefined field 'bar'" }],
    ],
    ['params without a schema', policy({ paramKind: { apiVersion: 'v1', kind: 'Config' }, validations: [{ expression: 'params != null' }] }), resolver(withFoo('string')), []],
    [
      'multiple expressions',
      policy({ validations: [{ expression: "object.foo == 'bar'" }, { expression: "object.bar == 'foo'" }] }),
      resolver(withFoo('string')),
      [{ fieldRef: 'spec.validations[1].expression', contains: "undefined field 'bar'" }],
    ],
    [
      'message expressions',
      policy({ validations: [{ expression: "object.foo == 'bar'", messageExpression: 'object.foo + 114514' }] }),
      resolver(withFoo('string')),
      [{ fieldRef: 'spec.validations[0].messageExpression', contains: "found no matching overload for '_+_' applied to '(string, int)'" }],
    ],
    ['request fields', policy({ validations: [{ expression: "request.userInfo.username == 'x' && request.operation == 'CREATE' && request.userInfo.groups.all(g, g != '')" }] }), resolver(withFoo('string')), []],
    ['request typo', policy({ validations: [{ expression: "request.usrInfo.username == 'x'" }] }), resolver(withFoo('string')), [{ fieldRef: 'spec.validations[0].expression', contains: "undefined field 'usrInfo'" }]],
    ['authorizer', policy({ validations: [{ expression: "authorizer.group('').resource('endpoints').check('create').allowed()" }] }), resolver(withFoo('string')), []],
    [
      'authorizer invalid',
      policy({ validations: [{ expression: 'authorizer.allowed()' }] }),
      resolver(withFoo('string')),
      [{ fieldRef: 'spec.validations[0].expression', contains: "found no matching overload for 'allowed' applied to 'kubernetes.authorization.Authorizer" }],
    ],
    ['variables valid', policy({ variables: [{ name: 'works', expression: 'true' }], validations: [{ expression: 'variables.works' }] }), resolver(withFoo('int')), []],
    [
      'variables missing field',
      policy({ variables: [{ name: 'works', expression: 'true' }], validations: [{ expression: 'variables.nonExisting' }] }),
      resolver(withFoo('int')),
      [{ fieldRef: 'spec.validations[0].expression', contains: "undefined field 'nonExisting'" }],
    ],
    [
      'variables field wrong type',
      policy({ variables: [{ name: 'name', expression: "'something'" }], validations: [{ expression: 'variables.name == object.foo' }] }),
      resolver(withFoo('int')),
      [{ fieldRef: 'spec.validations[0].expression', contains: "found no matching overload for '_==_' applied to '(string, int)'" }],
    ],
    [
      'error in variables, not reported during type checking',
      policy({ variables: [{ name: 'name', expression: "object.foo == 'str'" }], validations: [{ expression: 'variables.name == object.foo' }] }),
      resolver(withFoo('int')),
      [],
    ],
  ])('%s', (_name, p, r, want) => {
    const warnings = typeCheckPolicy(p, r);
    expect(warnings.map((w) => w.fieldRef)).toEqual(want.map((w) => w.fieldRef));
    warnings.forEach((w, i) => expect(w.warning).toContain(want[i]!.contains));
  });

  it('names the kind as Go prints a GroupVersionKind, and shows where', () => {
    const [w] = typeCheckPolicy(deploymentPolicy, resolver(withBar));
    expect(w!.warning).toBe("apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'foo'\n | object.foo == 'bar'\n | ......^\n");
  });

  it('checks the kinds named without wildcards, sorted, at most 10', () => {
    const r: KindResolver = {
      kindFor: (g, v, res) => ({ group: g, version: v, kind: res.toUpperCase() }),
      schemaFor: () => undefined,
    };
    const rules = [{ apiGroups: ['b', 'a'], apiVersions: ['v1'], resources: ['x', 'y'] }, { apiGroups: ['*'], apiVersions: ['v1'], resources: ['z'] }];
    expect(typesToCheck(policy({ matchConstraints: { resourceRules: rules } }), r).map((g) => `${g.group}/${g.kind}`)).toEqual(['a/X', 'a/Y', 'b/X', 'b/Y']);
    const many = [{ apiGroups: ['g'], apiVersions: ['v1'], resources: Array.from({ length: 12 }, (_, i) => `r${String(i).padStart(2, '0')}`) }];
    expect(typesToCheck(policy({ matchConstraints: { resourceRules: many } }), r)).toHaveLength(10);
  });
});
