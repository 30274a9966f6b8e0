import type { ServiceAccount } from '../../api';
import type { RequestContext } from '../strategy';
import { serviceAccountStrategy as strategy } from './strategy';

const ctx: RequestContext = { user: { name: 'u', groups: [] }, namespace: 'team-a', subresource: '', dryRun: false, now: () => new Date(0) };
const warning =
  'metadata.annotations[svc.io/enforce-mountable-secrets]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets';

function sa(extra: Partial<ServiceAccount> = {}): ServiceAccount {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'team-a' }, ...extra };
}

describe('ServiceAccount strategy', () => {
  const cleaned: [string, ServiceAccount['secrets'], ServiceAccount['secrets']][] = [
    ['no secrets', undefined, undefined],
    ['names only', [{ name: 'a' }, { name: 'b' }], [{ name: 'a' }, { name: 'b' }]],
    ['other reference fields dropped', [{ name: 'a', namespace: 'elsewhere', kind: 'Secret', uid: 'x', fieldPath: 'f' }], [{ name: 'a' }]],
    ['an entry without a name', [{ kind: 'Secret' }], [{}]],
  ];
  it.each(cleaned)('secrets references on create and update: %s', (_name, secrets, expected) => {
    const created = sa({ secrets: structuredClone(secrets) });
    strategy.prepareForCreate(ctx, created);
    expect(created.secrets).toEqual(expected);
    const updated = sa({ secrets: structuredClone(secrets) });
    strategy.prepareForUpdate(ctx, updated, sa());
    expect(updated.secrets).toEqual(expected);
  });

  it('validates nothing beyond ObjectMeta (references are not checked, as upstream)', () => {
    const obj = sa({ secrets: [{ name: 'Not_A_Valid/Name' }], imagePullSecrets: [{ name: '' }, {}], automountServiceAccountToken: false });
    expect(strategy.validate(ctx, obj)).toEqual([]);
    expect(strategy.validateUpdate(ctx, obj, sa())).toEqual([]);
  });

  const names: [string, boolean, number][] = [
    ['builder', false, 0],
    ['a.b-c', false, 0],
    ['Builder', false, 1],
    ['a_b', false, 1],
    ['x'.repeat(254), false, 1],
    ['gen-', true, 0],
  ];
  it.each(names)('validateName(%p, prefix=%p) is a DNS subdomain', (name, prefix, count) => {
    expect(strategy.validateName(name, prefix)).toHaveLength(count);
  });

  const warnings: [string, ServiceAccount | null, ServiceAccount, string[]][] = [
    ['create without the annotation', null, sa(), []],
    ['create with the annotation', null, sa({ metadata: { name: 'b', annotations: { 'svc.io/enforce-mountable-secrets': 'true' } } }), [warning]],
    ['update adding the annotation', sa(), sa({ metadata: { name: 'b', annotations: { 'svc.io/enforce-mountable-secrets': 'false' } } }), [warning]],
    [
      'update keeping the annotation',
      sa({ metadata: { name: 'b', annotations: { 'svc.io/enforce-mountable-secrets': 'true' } } }),
      sa({ metadata: { name: 'b', annotations: { 'svc.io/enforce-mountable-secrets': 'true' } } }),
      [],
    ],
  ];
  it.each(warnings)('warnings: %s', (_name, old, obj, expected) => {
    expect(old ? strategy.warningsOnUpdate(ctx, obj, old) : strategy.warningsOnCreate(ctx, obj)).toEqual(expected);
  });

  it('selects on metadata.name and metadata.namespace, returns the object on DELETE', () => {
    expect(strategy.selectableFields(sa())).toEqual({ 'metadata.name': 'builder', 'metadata.namespace': 'team-a' });
    expect(strategy.resource.namespaced).toBe(true);
    expect(strategy.deleteReturnsObject).toBe(true);
    expect(strategy.allowUnconditionalUpdate).toBe(true);
    expect(strategy.subresourceStrategies).toEqual({});
  });
});
