import type { RoleBinding } from '../../api';
import { renderFieldError } from '../../machinery/fieldErrors';
import { withSchemaMarkers } from '../schemaMarkers';
import type { RequestContext } from '../strategy';
import { roleBindingStrategy as strategy } from './roleBindings';

const ctx: RequestContext = { user: { name: 'u', groups: [] }, namespace: 'team', subresource: '', dryRun: false, now: () => new Date(0) };
const group = 'rbac.authorization.svc.io';

function binding(extra: Partial<RoleBinding> = {}): RoleBinding {
  return {
    apiVersion: `${group}/v1`,
    kind: 'RoleBinding',
    metadata: { name: 'readers', namespace: 'team' },
    roleRef: { apiGroup: group, kind: 'Role', name: 'reader' },
    subjects: [{ kind: 'ServiceAccount', name: 'builder' }],
    ...extra,
  };
}

const render = (errs: ReturnType<typeof strategy.validate>): string[] => errs.map(renderFieldError);
/** The strategy as the store runs it: roleRef's immutability is the schema's marker. */
const enforced = withSchemaMarkers(strategy);

describe('RoleBinding strategy', () => {
  it('accepts a Role or ClusterRole reference and ServiceAccount subjects without namespace', () => {
    expect(strategy.validate(ctx, binding())).toEqual([]);
    expect(strategy.validate(ctx, binding({ roleRef: { apiGroup: group, kind: 'ClusterRole', name: 'view' }, subjects: undefined }))).toEqual([]);
  });

  it('defaults roleRef and subject groups before validation makes them valid', () => {
    const obj = binding({ roleRef: { kind: 'Role', name: 'reader' }, subjects: [{ kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', name: 'b' }] });
    strategy.applyDefaults!(obj);
    expect(obj.roleRef).toEqual({ kind: 'Role', name: 'reader', apiGroup: group });
    expect(obj.subjects).toEqual([{ kind: 'User', name: 'alice', apiGroup: group }, { kind: 'ServiceAccount', name: 'b' }]);
    expect(strategy.validate(ctx, obj)).toEqual([]);
  });

  const invalid: [string, Partial<RoleBinding>, string[]][] = [
    ['an unknown role kind', { roleRef: { apiGroup: group, kind: 'Pod', name: 'x' } }, ['roleRef.kind: Unsupported value: "Pod": supported values: "Role", "ClusterRole"']],
    ['a missing role name', { roleRef: { apiGroup: group, kind: 'Role' } }, ['roleRef.name: Required value']],
    [
      'a User from another group',
      { subjects: [{ kind: 'User', apiGroup: 'example.com', name: 'a' }] },
      ['subjects[0].apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.svc.io"'],
    ],
  ];
  it.each(invalid)('refuses %s', (_name, extra, expected) => {
    expect(render(strategy.validate(ctx, binding(extra)))).toEqual(expected);
  });

  it('refuses a roleRef change on update; subjects may change', () => {
    const old = binding();
    expect(enforced.validateUpdate(ctx, binding({ subjects: [{ kind: 'Group', apiGroup: group, name: 'devs' }] }), old)).toEqual([]);
    const changed = binding({ roleRef: { apiGroup: group, kind: 'ClusterRole', name: 'edit' } });
    expect(render(enforced.validateUpdate(ctx, changed, old))).toEqual([
      'roleRef: Invalid value: {"APIGroup":"rbac.authorization.svc.io","Kind":"ClusterRole","Name":"edit"}: cannot change roleRef',
    ]);
  });

  it('lists create errors twice and the roleRef change once on update', () => {
    const old = binding();
    const bad = binding({ roleRef: { apiGroup: group, kind: 'Role', name: 'other' }, subjects: [{ kind: 'Robot', name: 'r' }] });
    expect(render(enforced.validateUpdate(ctx, bad, old))).toEqual([
      'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
      'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
      'roleRef: Invalid value: {"APIGroup":"rbac.authorization.svc.io","Kind":"Role","Name":"other"}: cannot change roleRef',
    ]);
  });

  it('validates names as path segments', () => {
    expect(strategy.validateName('system:controller:Binding', false)).toEqual([]);
    expect(strategy.validateName('.', false)).toEqual(["may not be '.'"]);
    // Upstream's ValidateRBACName ignores the generateName prefix flag.
    expect(strategy.validateName('..', true)).toEqual(["may not be '..'"]);
    expect(strategy.validateName('gen-', true)).toEqual([]);
  });

  it('is namespaced, updatable without resourceVersion, creatable by PUT, and deletes with a Status', () => {
    expect(strategy.resource.resource).toBe('rolebindings');
    expect(strategy.resource.namespaced).toBe(true);
    expect(strategy.allowUnconditionalUpdate).toBe(true);
    expect(strategy.allowCreateOnUpdate).toBe(true);
    expect(strategy.deleteReturnsObject).toBe(false);
    expect(strategy.subresourceStrategies).toEqual({});
    expect(strategy.selectableFields(binding())).toEqual({ 'metadata.name': 'readers', 'metadata.namespace': 'team' });
  });
});
