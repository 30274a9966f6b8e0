// Where the store records field ownership: once per write, on the object as the writer sent it
// (after defaulting, before the strategy's server-set fields), as upstream's handlers run the
// field manager before the registry's PrepareForCreate/PrepareForUpdate.
import type { ApiObject, ResourceInfo } from '../api';
import type { ManagedFieldsEntry } from '../api/meta';
import type { JsonObject } from '../machinery/jsonValue';
import type { OwnershipHint, RecordedOwnership, WriteScope } from '../machinery/managedFields';
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
  hint?: OwnershipHint,
): Ownership {
  if (hint) hint.recorded = undefined;
  if (ctx.fieldManager === undefined) return 'keep';
  if (applied) return { entries: obj.metadata?.managedFields };
  return { entries: recordUpdate(old as JsonObject | null, obj as JsonObject, ownershipScope(ctx, resource, strategy), hint) };
}

/**
 * The ownership this process's last writes recorded, by key and the revision each write made:
 * the (key, revision) names exactly the stored value those entries are in, so the next update
 * of it starts from their decoded form. Bounded; the oldest write is forgotten first.
 */
export class OwnershipMemo {
  private readonly byKey = new Map<string, { revision: number; recorded: RecordedOwnership }>();

  constructor(private readonly capacity = 1024) {}

  /** What the write that stored revision `revision` of key recorded, when this memo saw it. */
  previous(key: string, revision: number): RecordedOwnership | undefined {
    const e = this.byKey.get(key);
    return e && e.revision === revision ? e.recorded : undefined;
  }

  /** After a write of key at revision: what it recorded (undefined: nothing to remember). */
  remember(key: string, revision: number, recorded: RecordedOwnership | undefined): void {
    this.byKey.delete(key);
    if (!recorded) return;
    this.byKey.set(key, { revision, recorded });
    if (this.byKey.size > this.capacity) {
      const oldest = this.byKey.keys().next().value;
      if (oldest !== undefined) this.byKey.delete(oldest);
    }
  }

  get size(): number {
    return this.byKey.size;
  }
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
