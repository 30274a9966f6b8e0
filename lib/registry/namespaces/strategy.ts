// The Namespace strategy: Active on create with the namespace finalizer; the main endpoint
// keeps status and spec.finalizers, /status keeps spec, /finalize changes only spec.finalizers;
// DELETE first marks the namespace Terminating (upstream's namespace REST Delete).
import type { Namespace } from '../../api';
import { immortalNamespaces, namespaceFinalizer, namespaces } from '../../api';
import { labels } from '../../api/product';
import { errors } from '../../machinery/errors';
import { fieldErr, FieldError } from '../../machinery/fieldErrors';
import { nameIsDNSLabel } from '../../machinery/validation/names';
import type { Strategy, UpdateStrategy } from '../strategy';
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

export const namespaceStrategy: Strategy<Namespace> = {
  tableColumns: namespaceTableColumns,
  resource: namespaces,
  validateName: nameIsDNSLabel,
  // v1 defaulting: a namespace without a phase is Active.
  applyDefaults(obj) {
    if (!obj.status?.phase) obj.status = { ...obj.status, phase: phases.active };
  },
  prepareForCreate(_ctx, obj) {
    obj.status = { phase: phases.active };
    labelWithName(obj);
    // The namespace controller must get to empty the namespace before it goes away.
    const finalizers = finalizersOf(obj);
    if (!finalizers.includes(namespaceFinalizer)) obj.spec = { ...obj.spec, finalizers: [...finalizers, namespaceFinalizer] };
  },
  validate(_ctx, obj) {
    return validateNamespace(obj);
  },
  resetFields: [['status']],
  prepareForUpdate(_ctx, obj, old) {
    labelWithName(obj);
    const finalizers = old.spec?.finalizers;
    if (finalizers === undefined) {
      if (obj.spec) delete obj.spec.finalizers;
    } else obj.spec = { ...obj.spec, finalizers: [...finalizers] };
    if (old.status === undefined) delete obj.status;
    else obj.status = structuredClone(old.status);
  },
  validateUpdate(_ctx, obj) {
    return validateNamespace(obj);
  },
  allowUnconditionalUpdate: true,
  selectableFields(obj) {
    return { 'metadata.name': obj.metadata?.name ?? '', 'status.phase': obj.status?.phase ?? '' };
  },
  subresourceStrategies: { status: statusStrategy, finalize: finalizeStrategy },
  beforeDelete(ctx, obj) {
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
  },
  hasPendingFinalizers(obj) {
    return finalizersOf(obj).length > 0;
  },
  deleteReturnsObject: true,
};
