// Ownership of a non-apply write (create, update, non-apply patch), upstream's field manager
// chain for Update: the changed fields (old vs new, compared once) move to the writer's Update
// entry and leave everyone else's; removed fields leave every set; updates never conflict.
import type { ManagedFieldsEntry } from '../../api/meta';
import type { ObjectSchema } from '../../api/schema';
import { compareObjects } from '../fieldpath/compare';
import { FieldSet } from '../fieldpath/fieldSet';
import type { Path } from '../fieldpath/pathElement';
import { pe } from '../fieldpath/pathElement';
import type { JsonObject } from '../jsonValue';
import { isJsonObject } from '../jsonValue';
import type { Managed, ManagerInfo } from './managed';
import { decodeManagedFields, encodeManagedFields, isResetManagedFields, managerId } from './managed';

/** Upstream's DefaultMaxUpdateManagers and the bucket the oldest updaters merge into. */
export const maxUpdateManagers = 10;
export const ancientChangesManager = 'ancient-changes';

/** Never owned by anyone (upstream's stripMetaManager). */
export const strippedFields = new FieldSet(
  [
    ['apiVersion'],
    ['kind'],
    ['metadata'],
    ['metadata', 'name'],
    ['metadata', 'namespace'],
    ['metadata', 'creationTimestamp'],
    ['metadata', 'selfLink'],
    ['metadata', 'uid'],
    ['metadata', 'clusterName'],
    ['metadata', 'generation'],
    ['metadata', 'managedFields'],
    ['metadata', 'resourceVersion'],
  ].map((p): Path => p.map(pe.field)),
);

export interface WriteScope {
  schema: ObjectSchema;
  /** group/version of the request. */
  apiVersion: string;
  /** The resolved manager name (never empty). */
  manager: string;
  /** '' for the main resource. */
  subresource: string;
  /** Fields this endpoint resets, with everything below them (upstream's reset fields). */
  resetFields: FieldSet;
  /** RFC 3339, seconds. */
  now: string;
}

export function resetFieldSet(paths: readonly (readonly string[])[] | undefined): FieldSet {
  return new FieldSet((paths ?? []).map((p) => p.map(pe.field)));
}

function withoutManagedFields(obj: JsonObject | null): JsonObject {
  if (!obj) return {};
  const meta = obj.metadata;
  if (!isJsonObject(meta) || !('managedFields' in meta)) return obj;
  const { managedFields: _m, ...rest } = meta;
  return { ...obj, metadata: rest };
}

/**
 * Upstream's decodeLiveOrNew: a subresource write keeps the stored entries; `[]`/`[{}]` clears;
 * entries sent that are empty or undecodable yield to the stored ones.
 */
function startingPoint(old: JsonObject | null, obj: JsonObject, subresource: string): Managed {
  const stored = () => decodeManagedFields(managedFieldsOf(old));
  if (subresource) return stored();
  const sent = managedFieldsOf(obj);
  if (isResetManagedFields(sent)) return new Map();
  try {
    const m = decodeManagedFields(sent);
    if (m.size) return m;
  } catch {
    // fall through to the stored entries
  }
  return stored();
}

function managedFieldsOf(obj: JsonObject | null): ManagedFieldsEntry[] | undefined {
  const meta = obj?.metadata;
  const mf = isJsonObject(meta) ? meta.managedFields : undefined;
  return Array.isArray(mf) ? (mf as ManagedFieldsEntry[]) : undefined;
}

/**
 * The managedFields to store for a non-apply write; `old` is null on create. Never throws:
 * anything undecodable ends tracking for this object, as upstream's UpdateNoErrors does.
 */
export function recordUpdate(old: JsonObject | null, obj: JsonObject, scope: WriteScope): ManagedFieldsEntry[] | undefined {
  let managed: Managed;
  try {
    managed = startingPoint(old, obj, scope.subresource);
    // Upstream's skipNonAppliedManager: an object with no ownership recorded stays untracked on
    // update; only create (or apply) starts tracking.
    if (old && managed.size === 0) return undefined;
    const cmp = compareObjects(withoutManagedFields(old), withoutManagedFields(obj), scope.schema);
    const changed = cmp.added.union(cmp.modified).withoutPrefixes(scope.resetFields);
    const removed = cmp.removed.withoutPrefixes(scope.resetFields);
    const me: ManagerInfo = { manager: scope.manager, operation: 'Update', apiVersion: scope.apiVersion };
    if (scope.subresource) me.subresource = scope.subresource;
    const myId = managerId(me);
    for (const [id, e] of managed) {
      e.set = e.set.difference(removed);
      if (id !== myId) e.set = e.set.difference(changed);
      if (e.set.isEmpty()) managed.delete(id);
    }
    const took = changed.difference(strippedFields);
    if (!took.isEmpty()) {
      const previous = managed.get(myId)?.set ?? new FieldSet();
      managed.set(myId, { ...me, set: took.union(previous), time: scope.now });
    }
    capUpdateManagers(managed);
    return encodeManagedFields(managed);
  } catch {
    return undefined;
  }
}

const seconds = (t: string | undefined): number => (t ? Math.floor(Date.parse(t) / 1000) : 0);

/** Upstream's capManagersManager: past the cap, the oldest updaters merge into a bucket per apiVersion. */
export function capUpdateManagers(managed: Managed, max = maxUpdateManagers): void {
  // Nearly every write is under the cap: no list built for it.
  if (managed.size <= max) return;
  const updaters = [...managed.entries()].filter(([, e]) => e.operation === 'Update').map(([id]) => id);
  if (updaters.length <= max) return;
  updaters.sort((a, b) => seconds(managed.get(a)!.time) - seconds(managed.get(b)!.time) || (a < b ? -1 : a > b ? 1 : 0));
  const firstPerVersion = new Map<string, string>();
  for (let i = 0, length = updaters.length; i < updaters.length && length > max; i++) {
    const id = updaters[i];
    const e = managed.get(id)!;
    const bucketInfo: ManagerInfo = { manager: ancientChangesManager, operation: 'Update', apiVersion: e.apiVersion };
    const bucketId = managerId(bucketInfo);
    if (id !== bucketId) {
      if (!firstPerVersion.has(e.apiVersion)) firstPerVersion.set(e.apiVersion, id);
      const bucket = managed.get(bucketId);
      const time = bucket?.time && seconds(bucket.time) > seconds(e.time) ? bucket.time : e.time;
      managed.set(bucketId, { ...bucketInfo, set: bucket ? e.set.union(bucket.set) : e.set, ...(time ? { time } : {}) });
      managed.delete(id);
    }
    if (firstPerVersion.get(e.apiVersion) !== id) length--;
  }
}

