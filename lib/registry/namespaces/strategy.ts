// The Namespace strategy: Active on create with the namespace finalizer; the main endpoint
// keeps status and spec.finalizers, /status keeps spec, /finalize changes only spec.finalizers;
// DELETE first marks the namespace Terminating (upstream's namespace REST Delete).
import type { Namespace } from '../../api';
import { immortalNamespaces, namespaceFinalizer, namespaces } from '../../api';
import { labels } from '../../api/product';
import { errors } from '../../machinery/errors';
import { fieldErr, FieldError } from '../../machinery/fieldErrors';
import { nameIsDNSLabel } from '../../machinery/validation/names';
import { DefaultStrategy } from '../defaultStrategy';
import type { RequestContext, UpdateStrategy } from '../strategy';
import { formatTime } from '../systemFields';
import { validateFinalizerName } from './finalizerName';
import { namespaceTableColumns } from './tableColumns';

const phases = { active: 'Active', terminating: 'Terminating' } as const;

const conflictWhileFinalizing =
  'The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.';

/** Upstream's default label (KEP-2161, GA): the namespace's own name, restored on every write so label selectors can name namespaces. */
function labelWithName(ns: Namespace): void {
  const name = ns.metadata?.name;
  if (!name) return;
  (ns.metadata ??= {}).labels = { ...ns.metadata.labels, [labels.metadataName]: name };
}

function finalizersOf(ns: Namespace): string[] {
  const f = ns.spec?.finalizers;
  return Array.isArray(f) ? f : [];
}

/** Upstream's ValidateNamespace: every finalizer, reported at the unindexed list path. */
function validateNamespace(ns: Namespace): FieldError[] {
  return finalizersOf(ns).flatMap((f) => validateFinalizerName(f, 'spec.finalizers'));
}

const statusStrategy: UpdateStrategy<Namespace> = {
  resetFields: [['spec']],
  prepareForUpdate(_ctx, obj, old) {
    labelWithName(obj);
    if (old.spec === undefined) delete obj.spec;
    else obj.spec = structuredClone(old.spec);
  },
  // The phase must agree with metadata.deletionTimestamp (field path spelled as upstream).
  validateUpdate(_ctx, obj) {
    const phase = obj.status?.phase ?? '';
    if (!obj.metadata?.deletionTimestamp) {
      if (phase !== phases.active) return [fieldErr.invalid('status.Phase', phase, "may only be 'Active' if `deletionTimestamp` is empty")];
    } else if (phase !== phases.terminating) {
      return [fieldErr.invalid('status.Phase', phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
    }
    return [];
  },
};

const finalizeStrategy: UpdateStrategy<Namespace> = {
  resetFields: [['status']],
  prepareForUpdate(_ctx, obj, old) {
    labelWithName(obj);
    if (old.status === undefined) delete obj.status;
    else obj.status = structuredClone(old.status);
  },
  validateUpdate(_ctx, obj) {
    return finalizersOf(obj).flatMap((f, i) => validateFinalizerName(f, `spec.finalizers[${i}]`));
  },
};

class NamespaceStrategy extends DefaultStrategy<Namespace> {
  readonly resource = namespaces;
  override readonly tableColumns = namespaceTableColumns;
  override readonly deleteReturnsObject = true;
  override readonly subresourceStrategies = { status: statusStrategy, finalize: finalizeStrategy };
  override readonly resetFields = [['status']];

  override validateName(name: string, prefix: boolean): string[] {
    return nameIsDNSLabel(name, prefix);
  }
  // v1 defaulting: a namespace without a phase is Active.
  override applyDefaults(obj: Namespace): void {
    if (!obj.status?.phase) obj.status = { ...obj.status, phase: phases.active };
  }
  override prepareForCreate(_ctx: RequestContext, obj: Namespace): void {
    obj.status = { phase: phases.active };
    labelWithName(obj);
    // The namespace controller must get to empty the namespace before it goes away.
    const finalizers = finalizersOf(obj);
    if (!finalizers.includes(namespaceFinalizer)) obj.spec = { ...obj.spec, finalizers: [...finalizers, namespaceFinalizer] };
  }
  override validate(_ctx: RequestContext, obj: Namespace): FieldError[] {
    return validateNamespace(obj);
  }
  override prepareForUpdate(_ctx: RequestContext, obj: Namespace, old: Namespace): void {
    labelWithName(obj);
    const finalizers = old.spec?.finalizers;
    if (finalizers === undefined) {
      if (obj.spec) delete obj.spec.finalizers;
    } else obj.spec = { ...obj.spec, finalizers: [...finalizers] };
    if (old.status === undefined) delete obj.status;
    else obj.status = structuredClone(old.status);
  }
  override validateUpdate(_ctx: RequestContext, obj: Namespace): FieldError[] {
    return validateNamespace(obj);
  }
  override selectableFields(obj: Namespace): Record<string, string> {
    return { ...super.selectableFields(obj), 'status.phase': obj.status?.phase ?? '' };
  }
  override beforeDelete(ctx: RequestContext, obj: Namespace): Namespace | null {
    const name = obj.metadata?.name ?? '';
    const gr = { group: namespaces.group, resource: namespaces.resource };
    // Upstream's NamespaceLifecycle admission refuses these before storage is touched.
    if ((immortalNamespaces as readonly string[]).includes(name)) throw errors.forbidden(gr, name, 'this namespace may not be deleted');
    if (!obj.metadata?.deletionTimestamp) {
      // First DELETE: mark for termination; the namespace controller empties and finalizes it.
      const next = structuredClone(obj);
      (next.metadata ??= {}).deletionTimestamp = formatTime(ctx.now());
      next.status = { ...next.status, phase: phases.terminating };
      return next;
    }
    if (finalizersOf(obj).length > 0) throw errors.conflict(gr, name, conflictWhileFinalizing);
    return null;
  }
  override hasPendingFinalizers(obj: Namespace): boolean {
    return finalizersOf(obj).length > 0;
  }
}

export const namespaceStrategy = new NamespaceStrategy();
