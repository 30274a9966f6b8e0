import type { Lease, LeaseSpec } from '../../api';
import { renderFieldError } from '../../machinery/fieldErrors';
import type { RequestContext } from '../strategy';
import { leaseStrategy as strategy, newLeaseStrategy } from './strategy';

const ctx: RequestContext = { user: { name: 'u', groups: [] }, namespace: 'svc-node-lease', subresource: '', dryRun: false, now: () => new Date(0) };

function lease(spec?: LeaseSpec): Lease {
  return { apiVersion: 'coordination.svc.io/v1', kind: 'Lease', metadata: { name: 'node-1', namespace: 'svc-node-lease' }, spec };
}

const qualifiedNameMsg =
  "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";

describe('Lease validation', () => {
  const cases: [string, LeaseSpec | undefined, string[]][] = [
    ['no spec', undefined, []],
    [
      'a held lease',
      { holderIdentity: 'node-1', leaseDurationSeconds: 40, acquireTime: '2026-01-10T08:05:00.123456Z', renewTime: '2026-01-10T08:05:10.000001Z', leaseTransitions: 0 },
      [],
    ],
    ['zero duration', { leaseDurationSeconds: 0 }, ['spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0']],
    ['negative duration', { leaseDurationSeconds: -5 }, ['spec.leaseDurationSeconds: Invalid value: -5: must be greater than 0']],
    ['negative transitions', { leaseTransitions: -1 }, ['spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0']],
    ['the known strategy', { strategy: 'OldestEmulationVersion', preferredHolder: 'node-2' }, []],
    ['a prefixed custom strategy', { strategy: 'example.com/Newest' }, []],
    [
      'an unknown unprefixed strategy (path as upstream, doubled)',
      { strategy: 'Newest' },
      ['spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"'],
    ],
    ['a badly prefixed strategy', { strategy: 'a/b/c' }, [`spec.strategy.strategy: Invalid value: "a/b/c": ${qualifiedNameMsg}`]],
    ['a preferred holder without strategy', { preferredHolder: 'node-2' }, ['spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined']],
    ['an empty preferred holder', { preferredHolder: '' }, []],
    [
      'everything wrong',
      { leaseDurationSeconds: 0, leaseTransitions: -2, preferredHolder: 'x' },
      [
        'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
        'spec.leaseTransitions: Invalid value: -2: must be greater than or equal to 0',
        'spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined',
      ],
    ],
  ];
  it.each(cases)('%s', (_name, spec, expected) => {
    expect(strategy.validate(ctx, lease(spec)).map(renderFieldError)).toEqual(expected);
    // Update runs the same spec rules once (ObjectMeta update rules are the store's).
    expect(strategy.validateUpdate(ctx, lease(spec), lease()).map(renderFieldError)).toEqual(expected);
  });
});

describe('Lease strategy: CoordinatedLeaderElection fields', () => {
  const gated: LeaseSpec = { holderIdentity: 'a', strategy: 'OldestEmulationVersion', preferredHolder: 'b' };

  it('gate off: create drops strategy and preferredHolder', () => {
    const obj = lease({ ...gated });
    strategy.prepareForCreate(ctx, obj);
    expect(obj.spec).toEqual({ holderIdentity: 'a' });
  });

  it('gate off: update drops them unless the stored lease has them', () => {
    const fresh = lease({ ...gated });
    strategy.prepareForUpdate(ctx, fresh, lease({ holderIdentity: 'a' }));
    expect(fresh.spec).toEqual({ holderIdentity: 'a' });

    const kept = lease({ ...gated, preferredHolder: 'c' });
    strategy.prepareForUpdate(ctx, kept, lease({ ...gated }));
    expect(kept.spec).toEqual({ ...gated, preferredHolder: 'c' });

    const partly = lease({ ...gated });
    strategy.prepareForUpdate(ctx, partly, lease({ strategy: 'OldestEmulationVersion' }));
    expect(partly.spec).toEqual({ holderIdentity: 'a', strategy: 'OldestEmulationVersion' });
  });

  it('gate on: the fields are kept', () => {
    const on = newLeaseStrategy({ coordinatedLeaderElection: true });
    const created = lease({ ...gated });
    on.prepareForCreate(ctx, created);
    expect(created.spec).toEqual(gated);
    const updated = lease({ ...gated });
    on.prepareForUpdate(ctx, updated, lease());
    expect(updated.spec).toEqual(gated);
  });

  it('a lease without spec is left alone', () => {
    const obj = lease();
    strategy.prepareForCreate(ctx, obj);
    strategy.prepareForUpdate(ctx, obj, lease(gated));
    expect(obj.spec).toBeUndefined();
  });
});

describe('Lease strategy: fixed properties', () => {
  const names: [string, boolean, number][] = [
    ['node-1', false, 0],
    ['kube.scheduler', false, 0],
    ['Node-1', false, 1],
    ['a_b', false, 1],
    ['x'.repeat(254), false, 1],
    ['holder-', true, 0],
  ];
  it.each(names)('validateName(%p, prefix=%p) is a DNS subdomain', (name, prefix, count) => {
    expect(strategy.validateName(name, prefix)).toHaveLength(count);
  });

  it('needs a resourceVersion to update, may be created by PUT, and deletes with a Status', () => {
    expect(strategy.resource.resource).toBe('leases');
    expect(strategy.resource.group).toBe('coordination.svc.io');
    expect(strategy.resource.namespaced).toBe(true);
    expect(strategy.allowUnconditionalUpdate).toBe(false);
    expect(strategy.allowCreateOnUpdate).toBe(true);
    expect(strategy.deleteReturnsObject).toBe(false);
    expect(strategy.subresourceStrategies).toEqual({});
    expect(strategy.selectableFields(lease())).toEqual({ 'metadata.name': 'node-1', 'metadata.namespace': 'svc-node-lease' });
  });
});
