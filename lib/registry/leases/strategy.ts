// The Lease strategy (coordination/v1). Leases are written by leader-election loops: a PUT
// must carry a resourceVersion (no last-writer-wins) and may create the lease. spec.strategy
// and spec.preferredHolder belong to the alpha CoordinatedLeaderElection feature and are
// dropped while it is off, unless the stored lease already uses them.
import type { Lease, LeaseSpec } from '../../api';
import { leases } from '../../api';
import { fieldErr, FieldError } from '../../machinery/fieldErrors';
import { isQualifiedName } from '../../machinery/validation/names';
import { DefaultStrategy } from '../defaultStrategy';
import type { RequestContext } from '../strategy';
import { leaseTableColumns } from './tableColumns';

/** Strategy names defined upstream; others must be qualified names with a prefix ("x.io/y"). */
export const knownLeaseStrategies = ['OldestEmulationVersion'] as const;

export interface LeaseStrategyOptions {
  /** The CoordinatedLeaderElection feature gate (alpha, off by default in 1.32). */
  coordinatedLeaderElection: boolean;
}

function validateCoordinatedLeaseStrategy(strategy: string, path: string): FieldError[] {
  // Upstream appends "strategy" to a path that already ends in it (spec.strategy.strategy).
  const field = `${path}.strategy`;
  if (!strategy.includes('/')) {
    return (knownLeaseStrategies as readonly string[]).includes(strategy) ? [] : [fieldErr.notSupported(field, strategy, knownLeaseStrategies)];
  }
  return isQualifiedName(strategy).map((msg) => fieldErr.invalid(field, strategy, msg));
}

/** Upstream's ValidateLeaseSpec; absent fields (nil pointers) are not checked. */
export function validateLeaseSpec(spec: LeaseSpec | null | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const s = spec ?? {};
  if (typeof s.leaseDurationSeconds === 'number' && s.leaseDurationSeconds <= 0) {
    errs.push(fieldErr.invalid('spec.leaseDurationSeconds', s.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (typeof s.leaseTransitions === 'number' && s.leaseTransitions < 0) {
    errs.push(fieldErr.invalid('spec.leaseTransitions', s.leaseTransitions, 'must be greater than or equal to 0'));
  }
  if (typeof s.strategy === 'string') errs.push(...validateCoordinatedLeaseStrategy(s.strategy, 'spec.strategy'));
  if (s.preferredHolder && !s.strategy) {
    errs.push(fieldErr.forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
  }
  return errs;
}

class LeaseStrategy extends DefaultStrategy<Lease> {
  readonly resource = leases;
  override readonly tableColumns = leaseTableColumns;
  override readonly allowUnconditionalUpdate = false;
  override readonly allowCreateOnUpdate = true;

  constructor(private readonly opts: LeaseStrategyOptions) {
    super();
  }
  override prepareForCreate(_ctx: RequestContext, obj: Lease): void {
    if (this.opts.coordinatedLeaderElection || !obj.spec) return;
    delete obj.spec.strategy;
    delete obj.spec.preferredHolder;
  }
  override validate(_ctx: RequestContext, obj: Lease): FieldError[] {
    return validateLeaseSpec(obj.spec);
  }
  override prepareForUpdate(_ctx: RequestContext, obj: Lease, old: Lease): void {
    if (this.opts.coordinatedLeaderElection || !obj.spec) return;
    if (old.spec?.strategy === undefined) delete obj.spec.strategy;
    if (old.spec?.preferredHolder === undefined) delete obj.spec.preferredHolder;
  }
  override validateUpdate(_ctx: RequestContext, obj: Lease): FieldError[] {
    return validateLeaseSpec(obj.spec);
  }
}

export function newLeaseStrategy(opts: LeaseStrategyOptions): DefaultStrategy<Lease> {
  return new LeaseStrategy(opts);
}

/** The strategy with the feature gate at its default (off). */
export const leaseStrategy = newLeaseStrategy({ coordinatedLeaderElection: false });
