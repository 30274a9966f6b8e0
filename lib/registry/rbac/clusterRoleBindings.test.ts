import type { ClusterRoleBinding } from '../../api';
import { renderFieldError } from '../../machinery/fieldErrors';
import { withSchemaMarkers } from '../schemaMarkers';
import type { RequestContext } from '../strategy';
import { clusterRoleBindingStrategy as strategy } from './clusterRoleBindings';

const ctx: RequestContext = { user: { name: 'u', groups: [] }, namespace: '', subresource: '', dryRun: false, now: () => new Date(0) };
const group = 'rbac.authorization.svc.io';

function binding(extra: Partial<ClusterRoleBinding> = {}): ClusterRoleBinding {
  return {
    apiVersion: `${group}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'viewers' },
    roleRef: { apiGroup: group, kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'ServiceAccount', name: 'builder', namespace: 'team' }, { kind: 'Group', apiGroup: group, name: 'system:authenticated' }],
    ...extra,
  };
}

const render = (errs: ReturnType<typeof strategy.validate>): string[] => errs.map(renderFieldError);
/** The strategy as the store runs it: roleRef's immutability is the schema's marker. */
const enforced = withSchemaMarkers(strategy);

describe('ClusterRoleBinding strategy', () => {
  it('accepts a ClusterRole reference', () => {
    expect(strategy.validate(ctx, binding())).toEqual([]);
  });

  const invalid: [string, Partial<ClusterRoleBinding>, string[]][] = [
    ['a Role reference', { roleRef: { apiGroup: group, kind: 'Role', name: 'r' } }, ['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"']],
    ['a ServiceAccount without namespace', { subjects: [{ kind: 'ServiceAccount', name: 'b' }] }, ['subjects[0].namespace: Required value']],
    [
      'an empty roleRef and subject',
      { roleRef: {}, subjects: [{}] },
      [
        'roleRef.apiGroup: Unsupported value: "": supported values: "rbac.authorization.svc.io"',
        'roleRef.kind: Unsupported value: "": supported values: "ClusterRole"',
        'roleRef.name: Required value',
        'subjects[0].name: Required value',
        'subjects[0].kind: Unsupported value: "": supported values: "ServiceAccount", "User", "Group"',
      ],
    ],
  ];
  it.each(invalid)('refuses %s', (_name, extra, expected) => {
    expect(render(strategy.validate(ctx, binding(extra)))).toEqual(expected);
  });

  it('defaults the roleRef group, including a missing roleRef', () => {
    const obj = binding({ roleRef: undefined, subjects: [{ kind: 'Group', name: 'g' }] });
    strategy.applyDefaults!(obj);
    expect(obj.roleRef).toEqual({ apiGroup: group });
    expect(obj.subjects).toEqual([{ kind: 'Group', name: 'g', apiGroup: group }]);
  });

  it('refuses a roleRef change on update', () => {
    const changed = binding({ roleRef: { apiGroup: group, kind: 'ClusterRole', name: 'cluster-admin' } });
    expect(render(enforced.validateUpdate(ctx, changed, binding()))).toEqual([
      'roleRef: Invalid value: {"APIGroup":"rbac.authorization.svc.io","Kind":"ClusterRole","Name":"cluster-admin"}: cannot change roleRef',
    ]);
    expect(enforced.validateUpdate(ctx, binding({ subjects: [] }), binding())).toEqual([]);
  });

  it('validates names as path segments', () => {
    expect(strategy.validateName('system:node-proxier', false)).toEqual([]);
    expect(strategy.validateName('a%b', false)).toEqual(["may not contain '%'"]);
  });

  it('is cluster-scoped, updatable without resourceVersion, creatable by PUT, and deletes with a Status', () => {
    expect(strategy.resource.resource).toBe('clusterrolebindings');
    expect(strategy.resource.namespaced).toBe(false);
    expect(strategy.allowUnconditionalUpdate).toBe(true);
    expect(strategy.allowCreateOnUpdate).toBe(true);
    expect(strategy.deleteReturnsObject).toBe(false);
    expect(strategy.subresourceStrategies).toEqual({});
    expect(strategy.selectableFields(binding())).toEqual({ 'metadata.name': 'viewers' });
  });
});
