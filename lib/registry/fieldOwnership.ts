// Where the store records field ownership: once per write, on the object as the writer sent it
// (after defaulting, before the strategy's server-set fields), as upstream's handlers run the
// field manager before the registry's PrepareForCreate/PrepareForUpdate.
import type { ApiObject, ResourceInfo } from '../api';
import type { ManagedFieldsEntry } from '../api/meta';
import type { JsonObject } from '../machinery/jsonValue';
import { recordUpdate, resetFieldSet } from '../machinery/managedFields';
import type { RequestContext, UpdateStrategy } from './strategy';
import { formatTime } from './systemFields';

/** What to store as metadata.managedFields: computed, or 'keep' for in-process writes. */
export type Ownership = { entries: ManagedFieldsEntry[] | undefined } | 'keep';

export function recordOwnership(
  ctx: RequestContext,
  resource: ResourceInfo,
  strategy: UpdateStrategy,
  old: ApiObject | null,
  obj: ApiObject,
): Ownership {
  if (ctx.fieldManager === undefined) return 'keep';
  const apiVersion = resource.group ? `${resource.group}/${resource.version}` : resource.version;
  const entries = recordUpdate(old as JsonObject | null, obj as JsonObject, {
    schema: resource.schema,
    apiVersion,
    manager: ctx.fieldManager || 'unknown',
    subresource: ctx.subresource,
    resetFields: resetFieldSet(strategy.resetFields),
    now: formatTime(ctx.now()),
  });
  return { entries };
}

/** Puts the recorded entries on the object the strategy prepared (which may have reset metadata). */
export function applyOwnership(obj: ApiObject, ownership: Ownership): void {
  if (ownership === 'keep') return;
  const meta = (obj.metadata ??= {});
  if (ownership.entries) meta.managedFields = ownership.entries;
  else delete meta.managedFields;
}
