import type { ClusterRole } from '../../api';
import { renderFieldError } from '../../machinery/fieldErrors';
import type { RequestContext } from '../strategy';
import { clusterRoleStrategy as strategy } from './clusterRoles';

const ctx: RequestContext = { user: { name: 'u', groups: [] }, namespace: '', subresource: '', dryRun: false, now: () => new Date(0) };
const sel = 'aggregationRule.clusterRoleSelectors';
const badValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

function clusterRole(extra: Partial<ClusterRole> = {}): ClusterRole {
  return { apiVersion: 'rbac.authorization.svc.io/v1', kind: 'ClusterRole', metadata: { name: 'view' }, ...extra };
}

const withBadValue = (): ClusterRole =>
  clusterRole({ aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'tier', operator: 'In', values: ['bad value'] }] }] } });

describe('ClusterRole strategy', () => {
  it('accepts non-resource URLs and aggregation selectors', () => {
    const obj = clusterRole({
      rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/metrics'] }],
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.svc.io/aggregate-to-view': 'true' } }] },
    });
    expect(strategy.validate(ctx, obj)).toEqual([]);
  });

  const invalid: [string, Partial<ClusterRole>, string[]][] = [
    ['an empty aggregationRule', { aggregationRule: {} }, [`${sel}: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil`]],
    [
      'rules and selectors both wrong',
      { rules: [{ verbs: ['get'], nonResourceURLs: ['/x'], resources: ['pods'] }], aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['v'] }] }] } },
      [
        'rules[0].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs',
        `${sel}[0].matchExpressions[0].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
        `${sel}[0]: Invalid value: null: invalid label selector.`,
      ],
    ],
  ];
  it.each(invalid)('refuses %s', (_name, extra, expected) => {
    expect(strategy.validate(ctx, clusterRole(extra)).map(renderFieldError)).toEqual(expected);
  });

  it('create refuses an invalid selector value', () => {
    expect(strategy.validate(ctx, withBadValue()).map(renderFieldError)).toEqual([
      `${sel}[0].matchExpressions[0].values[0]: Invalid value: "bad value": ${badValueMsg}`,
      `${sel}[0]: Invalid value: null: invalid label selector.`,
    ]);
  });

  it('update tolerates the value check when the stored selectors were already invalid, not the conversion check', () => {
    const fromValid = strategy.validateUpdate(ctx, withBadValue(), clusterRole()).map(renderFieldError);
    expect(fromValid).toEqual([
      `${sel}[0].matchExpressions[0].values[0]: Invalid value: "bad value": ${badValueMsg}`,
      `${sel}[0]: Invalid value: null: invalid label selector.`,
      `${sel}[0].matchExpressions[0].values[0]: Invalid value: "bad value": ${badValueMsg}`,
      `${sel}[0]: Invalid value: null: invalid label selector.`,
    ]);
    const fromInvalid = strategy.validateUpdate(ctx, withBadValue(), withBadValue()).map(renderFieldError);
    expect(fromInvalid).toEqual([`${sel}[0]: Invalid value: null: invalid label selector.`, `${sel}[0]: Invalid value: null: invalid label selector.`]);
  });

  it('update of a valid object reports nothing', () => {
    const obj = clusterRole({ rules: [{ verbs: ['get'], apiGroups: [''], resources: ['nodes'] }] });
    expect(strategy.validateUpdate(ctx, obj, clusterRole())).toEqual([]);
  });

  it('validates names as path segments', () => {
    expect(strategy.validateName('system:controller:node-controller', false)).toEqual([]);
    expect(strategy.validateName('a/b', false)).toEqual(["may not contain '/'"]);
  });

  it('is cluster-scoped, updatable without resourceVersion, creatable by PUT, and deletes with a Status', () => {
    expect(strategy.resource.resource).toBe('clusterroles');
    expect(strategy.resource.namespaced).toBe(false);
    expect(strategy.allowUnconditionalUpdate).toBe(true);
    expect(strategy.allowCreateOnUpdate).toBe(true);
    expect(strategy.deleteReturnsObject).toBe(false);
    expect(strategy.subresourceStrategies).toEqual({});
    expect(strategy.selectableFields(clusterRole())).toEqual({ 'metadata.name': 'view' });
  });
});
