import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../api';
import { renderFieldError } from '../../machinery/fieldErrors';
import { validateBinding } from './bindingValidation';
import { validatePolicy } from './policyValidation';
import { validatingAdmissionPolicyBindingStrategy, validatingAdmissionPolicyStrategy } from '.';

const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts'], scope: '*' }];
const matchConstraints = { resourceRules: rules, matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} };

function policy(spec: Record<string, unknown>): ValidatingAdmissionPolicy {
  return { metadata: { name: 'p' }, spec: { failurePolicy: 'Fail', matchConstraints, validations: [{ expression: 'true' }], ...spec } } as ValidatingAdmissionPolicy;
}

const render = (errs: ReturnType<typeof validatePolicy>): string[] => errs.map(renderFieldError);

describe('ValidatingAdmissionPolicy validation', () => {
  it.each([
    ['a valid policy', {}, []],
    ['a compile error names the expression', { validations: [{ expression: 'object.metadata.name.startsWith(' }] }, ['spec.validations[0].expression: Invalid value: "object.metadata.name.startsWith(": compilation failed']],
    ['params without paramKind is undeclared', { validations: [{ expression: 'params.x == 1' }] }, ['spec.validations[0].expression: Invalid value: "params.x == 1": compilation failed']],
    ['no validations nor auditAnnotations', { validations: [] }, ['spec.validations: Required value: validations or auditAnnotations must contain at least one item', 'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item']],
    ['unknown failurePolicy', { failurePolicy: 'Maybe' }, ['spec.failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"']],
    ['unknown reason', { validations: [{ expression: 'true', reason: 'Teapot' }] }, ['spec.validations[0].reason: Unsupported value: "Teapot": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"']],
    ['message with a line break', { validations: [{ expression: 'true', message: 'a\nb' }] }, ['spec.validations[0].message: Invalid value: "a\\nb": message must not contain line breaks']],
    ['missing resourceRules', { matchConstraints: { ...matchConstraints, resourceRules: [] } }, ['spec.matchConstraints.resourceRules: Required value']],
    ['wildcard with other operations', { matchConstraints: { ...matchConstraints, resourceRules: [{ ...rules[0], operations: ['*', 'CREATE'] }] } }, ['spec.matchConstraints.resourceRules[0].operations: Invalid value: ["*","CREATE"]: if \'*\' is present, must not specify other operations']],
    ['bad variable name', { variables: [{ name: 'in', expression: '1' }] }, ['spec.variables[0].name: Invalid value: "in": name is not a valid CEL identifier']],
    ['params allowed with paramKind', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'params.data.x == "1"' }] }, []],
  ])('%s', (_name, spec, want) => {
    const got = render(validatePolicy(policy(spec)));
    expect(got.length).toBe(want.length);
    want.forEach((w, i) => expect(got[i].startsWith(w)).toBe(true));
  });
});

describe('ValidatingAdmissionPolicyBinding validation', () => {
  const binding = (spec: Record<string, unknown>): ValidatingAdmissionPolicyBinding => ({ metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Deny'], ...spec } }) as ValidatingAdmissionPolicyBinding;
  it.each([
    ['a valid binding', {}, []],
    ['no actions', { validationActions: [] }, ['spec.validationActions: Required value: at least one validation action is required']],
    ['Deny and Warn', { validationActions: ['Deny', 'Warn'] }, ['spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn']],
    ['paramRef without name or selector', { paramRef: { parameterNotFoundAction: 'Deny' } }, ['spec.paramRef: Required value: one of name or selector must be specified']],
    ['missing policyName', { policyName: '' }, ['spec.policyName: Required value']],
  ])('%s', (_name, spec, want) => {
    const got = validateBinding(binding(spec)).map(renderFieldError);
    expect(got.length).toBe(want.length);
    want.forEach((w, i) => expect(got[i].startsWith(w)).toBe(true));
  });
});

describe('strategies', () => {
  const ctx = { user: { name: 'u', groups: [] }, namespace: '', subresource: '', dryRun: false, now: () => new Date() };
  it('defaults failurePolicy, matchPolicy and selectors; status reset and generation 1 on create', () => {
    const p = { metadata: { name: 'p' }, spec: { matchConstraints: { resourceRules: rules }, validations: [{ expression: 'true' }] }, status: { observedGeneration: 9 } } as ValidatingAdmissionPolicy;
    validatingAdmissionPolicyStrategy.applyDefaults?.(p);
    validatingAdmissionPolicyStrategy.prepareForCreate(ctx, p);
    expect(p.spec?.failurePolicy).toBe('Fail');
    expect(p.spec?.matchConstraints).toMatchObject({ matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} });
    expect(p.status).toEqual({});
    expect(p.metadata?.generation).toBe(1);
  });
  it('bumps generation only when the spec changes', () => {
    const old = { metadata: { name: 'p', generation: 3 }, spec: { failurePolicy: 'Fail' } } as ValidatingAdmissionPolicy;
    const same = structuredClone(old);
    validatingAdmissionPolicyStrategy.prepareForUpdate(ctx, same, old);
    expect(same.metadata?.generation).toBe(3);
    const changed = { ...structuredClone(old), spec: { failurePolicy: 'Ignore' } } as ValidatingAdmissionPolicy;
    validatingAdmissionPolicyStrategy.prepareForUpdate(ctx, changed, old);
    expect(changed.metadata?.generation).toBe(4);
  });
  it('defaults parameterNotFoundAction to Deny', () => {
    const b = { metadata: { name: 'b' }, spec: { policyName: 'p', paramRef: { name: 'x' }, validationActions: ['Deny'] } } as ValidatingAdmissionPolicyBinding;
    validatingAdmissionPolicyBindingStrategy.applyDefaults?.(b);
    expect(b.spec?.paramRef?.parameterNotFoundAction).toBe('Deny');
  });
});
