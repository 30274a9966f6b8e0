// The CustomResourceDefinition strategy (upstream pkg/registry/customresourcedefinition/strategy.go):
// status is wiped on create and kept by the main endpoint, /status keeps the spec; generation
// follows the spec; the storage version is added to status.storedVersions on every write of
// the main resource. PUT must carry a resourceVersion. The Table is the default one (Name,
// Created At), as upstream has no printer for CRDs.
import type { CustomResourceDefinition } from '../../api';
import { customresourcedefinitions } from '../../api';
import { crdCleanupFinalizer, crdConditionTypes, setCrdCondition } from '../../api/apiextensions';
import type { FieldError } from '../../machinery/fieldErrors';
import { bumpGenerationOnSpecChange, keepSpecAndGeneration, startGeneration } from '../specGeneration';
import { DefaultStrategy, defaultSelectableFields } from '../defaultStrategy';
import type { RequestContext, UpdateStrategy } from '../strategy';
import { applyCrdDefaults } from './defaults';
import { validateCustomResourceDefinition, validateCustomResourceDefinitionStatusUpdate, validateCustomResourceDefinitionUpdate } from './validation';

type CRD = CustomResourceDefinition;

/** Appends the storage version to status.storedVersions when it is not there yet. */
function recordStorageVersion(crd: CRD): void {
  const storage = (crd.spec?.versions ?? []).find((v) => v.storage === true);
  if (!storage) return;
  const status = (crd.status ??= {});
  const stored = (status.storedVersions ??= []);
  if (!stored.includes(storage.name ?? '')) stored.push(storage.name ?? '');
}

const statusStrategy: UpdateStrategy<CRD> = {
  resetFields: [['spec']],
  // Upstream's ResetObjectMetaForStatus here copies new onto new (a no-op); generation is a
  // function of the spec, which this endpoint cannot change.
  prepareForUpdate(_ctx, obj, old) {
    keepSpecAndGeneration(obj, old);
  },
  validateUpdate(_ctx, obj) {
    return validateCustomResourceDefinitionStatusUpdate(obj);
  },
};

class CustomResourceDefinitionStrategy extends DefaultStrategy<CRD> {
  readonly resource = customresourcedefinitions;
  override readonly allowUnconditionalUpdate = false;
  override readonly subresourceStrategies = { status: statusStrategy };
  override readonly resetFields = [['status']];
  /** apimachinery's ObjectMeta rules (the cleanup finalizer has no '/'). */
  override readonly standardFinalizers = false as const;

  /** Upstream's CustomResourceDefinitionToSelectableFields: ObjectMetaFieldsSet with the namespace field (always ""). */
  override selectableFields(obj: CRD): Record<string, string> {
    return defaultSelectableFields(obj, true);
  }
  override applyDefaults(obj: CRD): void {
    applyCrdDefaults(obj);
  }
  override prepareForCreate(_ctx: RequestContext, obj: CRD): void {
    obj.status = {};
    startGeneration(obj);
    recordStorageVersion(obj);
  }
  override validate(_ctx: RequestContext, obj: CRD): FieldError[] {
    return validateCustomResourceDefinition(obj);
  }
  override prepareForUpdate(_ctx: RequestContext, obj: CRD, old: CRD): void {
    if (old.status === undefined) delete obj.status;
    else obj.status = structuredClone(old.status);
    bumpGenerationOnSpecChange(obj, old);
    recordStorageVersion(obj);
  }
  override validateUpdate(_ctx: RequestContext, obj: CRD, old: CRD): FieldError[] {
    return validateCustomResourceDefinitionUpdate(obj, old);
  }
  /**
   * The first DELETE marks the CRD Terminating and adds the cleanup finalizer (the object is
   * answered with 200, not deleted); the CRD controller deletes the custom resources, then removes
   * the finalizer. Later DELETEs are the store's (the finalizer keeps it).
   */
  override beforeDelete(ctx: RequestContext, obj: CRD): CRD | null {
    if (obj.metadata?.deletionTimestamp) return null;
    const m = (obj.metadata ??= {});
    if (!(m.finalizers ?? []).includes(crdCleanupFinalizer)) m.finalizers = [...(m.finalizers ?? []), crdCleanupFinalizer];
    const now = ctx.now().toISOString().replace(/\.\d{3}Z$/, 'Z');
    setCrdCondition(obj, { type: crdConditionTypes.terminating, status: 'True', reason: 'InstanceDeletionPending', message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon' }, now);
    return obj;
  }
}

export const customResourceDefinitionStrategy = new CustomResourceDefinitionStrategy();
