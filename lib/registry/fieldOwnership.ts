// Where the store records field ownership: once per write, on the object as the writer sent it
// (after defaulting, before the strategy's server-set fields), as upstream's handlers run the
// field manager before the registry's PrepareForCreate/PrepareForUpdate.
import type { ApiObject, ResourceInfo } from '../api';
import type { ManagedFieldsEntry } from '../api/meta';
import type { JsonObject } from '../machinery/jsonValue';
import type { WriteScope } from '../machinery/managedFields';
import { recordUpdate, resetFieldSet } from '../machinery/managedFields';
import type { RequestContext, UpdateStrategy } from './strategy';
import { formatTime } from './systemFields';

/** What to store as metadata.managedFields: computed, or 'keep' for in-process writes. */
export type Ownership = { entries: ManagedFieldsEntry[] | undefined } | 'keep';

/** How ownership is recorded for a write through this endpoint. */
export function ownershipScope(ctx: RequestContext, resource: ResourceInfo, strategy: UpdateStrategy): WriteScope {
  return {
    schema: resource.schema,
    apiVersion: resource.group ? `${resource.group}/${resource.version}` : resource.version,
    manager: ctx.fieldManager || 'unknown',
    subresource: ctx.subresource,
    resetFields: resetFieldSet(strategy.resetFields),
    now: formatTime(ctx.now()),
  };
}

/**
 * applied: the object comes from server-side apply, which already computed its managedFields
 * (upstream's field manager runs Apply instead of Update for it).
 */
export function recordOwnership(
  ctx: RequestContext,
  resource: ResourceInfo,
  strategy: UpdateStrategy,
  old: ApiObject | null,
  obj: ApiObject,
  applied = false,
): Ownership {
  if (ctx.fieldManager === undefined) return 'keep';
  if (applied) return { entries: obj.metadata?.managedFields };
  return { entries: recordUpdate(old as JsonObject | null, obj as JsonObject, ownershipScope(ctx, resource, strategy)) };
}

/** Puts the recorded entries on the object the strategy prepared (which may have reset metadata). */
export function applyOwnership(obj: ApiObject, ownership: Ownership): void {
  if (ownership === 'keep') return;
  const meta = (obj.metadata ??= {});
  if (ownership.entries) meta.managedFields = ownership.entries;
  else delete meta.managedFields;
}

/**
 * An update body's `managedFields: []` asks for a reset, as upstream's isResetManagedFields reads
 * a non-nil empty list; normalisation drops empty lists, so it is restated as the `[{}]` form
 * (which survives) before that happens. Protobuf bodies cannot express it, as in Go.
 */
export function markManagedFieldsReset(obj: ApiObject): ApiObject {
  const mf = obj.metadata?.managedFields;
  if (!Array.isArray(mf) || mf.length !== 0) return obj;
  return { ...obj, metadata: { ...obj.metadata, managedFields: [{} as ManagedFieldsEntry] } };
}
