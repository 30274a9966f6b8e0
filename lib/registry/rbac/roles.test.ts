import type { Role } from '../../api';
import { renderFieldError } from '../../machinery/fieldErrors';
import type { RequestContext } from '../strategy';
import { roleStrategy as strategy } from './roles';

const ctx: RequestContext = { user: { name: 'u', groups: [] }, namespace: 'team', subresource: '', dryRun: false, now: () => new Date(0) };

function role(rules: Role['rules']): Role {
  return { apiVersion: 'rbac.authorization.svc.io/v1', kind: 'Role', metadata: { name: 'reader', namespace: 'team' }, rules };
}

describe('Role strategy', () => {
  const good = role([{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]);

  it('accepts resource rules and no rules at all', () => {
    expect(strategy.validate(ctx, good)).toEqual([]);
    expect(strategy.validate(ctx, role(undefined))).toEqual([]);
    expect(strategy.validateUpdate(ctx, good, role([]))).toEqual([]);
  });

  it('refuses non-resource URLs (namespaced rules)', () => {
    const bad = role([{ verbs: ['get'], nonResourceURLs: ['/metrics'] }]);
    expect(strategy.validate(ctx, bad).map(renderFieldError)).toEqual([
      'rules[0].nonResourceURLs: Invalid value: ["/metrics"]: namespaced rules cannot apply to non-resource URLs',
    ]);
  });

  it('reports each error twice on update, as upstream', () => {
    const bad = role([{ apiGroups: [''], resources: ['pods'] }]);
    expect(strategy.validateUpdate(ctx, bad, good).map(renderFieldError)).toEqual([
      'rules[0].verbs: Required value: verbs must contain at least one value',
      'rules[0].verbs: Required value: verbs must contain at least one value',
    ]);
  });

  it('sets nothing on create or update', () => {
    const obj = role([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
    const before = structuredClone(obj);
    strategy.prepareForCreate(ctx, obj);
    strategy.prepareForUpdate(ctx, obj, good);
    expect(obj).toEqual(before);
    expect(strategy.applyDefaults).toBeUndefined();
  });

  const names: [string, boolean, string[]][] = [
    ['system:aggregate-to-view', false, []],
    ['Upper Case_and:colons', false, []],
    ['.', false, ["may not be '.'"]],
    ['..', false, ["may not be '..'"]],
    ['a/b', false, ["may not contain '/'"]],
    ['a%2F', false, ["may not contain '%'"]],
  ];
  it.each(names)('validateName(%p, prefix=%p)', (name, prefix, expected) => {
    expect(strategy.validateName(name, prefix)).toEqual(expected);
  });

  it('is namespaced, updatable without resourceVersion, creatable by PUT, and deletes with a Status', () => {
    expect(strategy.resource.resource).toBe('roles');
    expect(strategy.resource.namespaced).toBe(true);
    expect(strategy.allowUnconditionalUpdate).toBe(true);
    expect(strategy.allowCreateOnUpdate).toBe(true);
    expect(strategy.deleteReturnsObject).toBe(false);
    expect(strategy.subresourceStrategies).toEqual({});
    expect(strategy.selectableFields(good)).toEqual({ 'metadata.name': 'reader', 'metadata.namespace': 'team' });
    expect(strategy.selectableFields({})).toEqual({ 'metadata.name': '', 'metadata.namespace': '' });
  });
});
