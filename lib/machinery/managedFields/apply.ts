// Server-side apply (upstream's field manager chain for Apply over structured-merge-diff's
// Updater.Apply): the configuration is merged into the live object, the applier's Apply entry
// becomes exactly the configuration's field set, fields it stopped applying that nobody else
// owns are pruned, and fields another manager owns whose value changes are conflicts unless
// forced, in which case they move to the applier.
import type { ManagedFieldsEntry } from '../../api/meta';
import { errors } from '../errors';
import { compareObjects } from '../fieldpath/compare';
import { FieldSet } from '../fieldpath/fieldSet';
import { fieldSetOf } from '../fieldpath/fieldSetOf';
import { mergeObjects, removeItems, withNamedParents } from '../fieldpath/merge';
import { typedValidationErrors, typedValidationText, TypedValueError } from '../fieldpath/validateTyped';
import type { Path } from '../fieldpath/pathElement';
import { compareStrings, pathString, pe } from '../fieldpath/pathElement';
import type { JsonObject, JsonValue } from '../jsonValue';
import { isJsonObject } from '../jsonValue';
import type { Managed, ManagedEntry, ManagerInfo } from './managed';
import { decodeManagedFields, encodeManagedFields, managerId } from './managed';
import type { WriteScope } from './recordUpdate';
import { capUpdateManagers, strippedFields } from './recordUpdate';

/** Upstream's manager that owns what an untracked object held before its first apply. */
export const beforeFirstApplyManager = 'before-first-apply';

export interface ApplyResult {
  object: JsonObject;
  managedFields: ManagedFieldsEntry[] | undefined;
}

// Never pruned even when no manager owns them: the object's identity.
const neverPruned = new FieldSet([['metadata'], ['apiVersion'], ['kind']].map((p): Path => p.map(pe.field)));

function withoutManagedFields(obj: JsonObject): JsonObject {
  const meta = obj.metadata;
  if (!isJsonObject(meta) || !('managedFields' in meta)) return obj;
  const { managedFields: _m, ...rest } = meta;
  return { ...obj, metadata: rest };
}

export interface ApplyScope extends WriteScope {
  force: boolean;
  /**
   * Upstream's lastAppliedManager: when this manager applies, conflicts on fields whose live
   * value still equals the client-side apply record (this annotation) are taken over silently,
   * so moving from client-side to server-side apply does not conflict with the old self.
   */
  clientSideApply?: { manager: string; annotation: string };
}

/**
 * Applies config (already checked for apiVersion/kind and managedFields) to live ({} when the
 * object does not exist yet). Throws the 409 conflict Status unless force; a config or live
 * object that does not convert to the schema's typed value throws TypedValueError.
 */
export function applyConfiguration(live: JsonObject, config: JsonObject, scope: ApplyScope): ApplyResult {
  const { schema } = scope;
  // Upstream converts the configuration, then the live object, to typed values first: a value of
  // the wrong type, an undeclared field or a badly named list item fails before anything else;
  // repeated list items only in the configuration (a stored object may hold them).
  const invalidConfig = typedValidationErrors(config, schema);
  if (invalidConfig.length) throw new TypedValueError('patch', typedValidationText(invalidConfig));
  const invalidLive = typedValidationErrors(live, schema, { allowDuplicates: true });
  if (invalidLive.length) throw new TypedValueError('live', typedValidationText(invalidLive));
  const fullConfigSet = fieldSetOf(config, schema);
  const configSet = fullConfigSet.withoutPrefixes(scope.resetFields);
  const liveObj = withoutManagedFields(live);
  const managed: Managed = decodeManagedFields(
    isJsonObject(live.metadata) && Array.isArray(live.metadata.managedFields) ? (live.metadata.managedFields as ManagedFieldsEntry[]) : undefined,
  );
  // Upstream's skipNonAppliedManager: existing fields of an untracked object get an owner first.
  if (managed.size === 0) {
    const existing = compareObjects({}, liveObj, schema);
    const set = existing.added.union(existing.modified).withoutPrefixes(scope.resetFields).difference(strippedFields);
    if (!set.isEmpty()) {
      const info: ManagerInfo = { manager: beforeFirstApplyManager, operation: 'Update', apiVersion: scope.apiVersion };
      if (scope.subresource) info.subresource = scope.subresource;
      managed.set(managerId(info), { ...info, set, time: scope.now });
    }
  }
  const me: ManagerInfo = { manager: scope.manager, operation: 'Apply', apiVersion: scope.apiVersion };
  if (scope.subresource) me.subresource = scope.subresource;
  const myId = managerId(me);
  const lastSet = managed.get(myId)?.set;
  const previous = managed.get(myId);
  managed.set(myId, { ...me, set: configSet, ...(previous?.time ? { time: previous.time } : {}) });

  let merged = mergeObjects(liveObj, config, schema) as JsonObject;
  if (lastSet && !lastSet.isEmpty()) {
    let owned = new FieldSet();
    for (const e of managed.values()) owned = owned.union(e.set);
    // The config's own fields count as owned even where the reset filter hid them.
    owned = owned.union(fullConfigSet);
    const prune = withNamedParents(lastSet, schema).difference(withNamedParents(owned, schema)).difference(neverPruned);
    if (!prune.isEmpty()) merged = removeItems(merged, prune, schema) as JsonObject;
  }

  const cmp = compareObjects(liveObj, merged, schema);
  const changed = cmp.added.union(cmp.modified).withoutPrefixes(scope.resetFields);
  const removed = cmp.removed.withoutPrefixes(scope.resetFields);
  const conflicts: { id: string; entry: ManagedEntry; set: FieldSet }[] = [];
  for (const [id, e] of managed) {
    if (id === myId) continue;
    const c = e.set.intersection(changed);
    if (!c.isEmpty()) conflicts.push({ id, entry: e, set: c });
  }
  if (conflicts.length && !scope.force) {
    const allowed = scope.clientSideApply?.manager === scope.manager ? allowedByLastApplied(liveObj, scope) : undefined;
    const remaining = conflicts.map((c) => ({ ...c, set: allowed ? c.set.difference(allowed) : c.set })).filter((c) => !c.set.isEmpty());
    if (remaining.length) throw conflictError(remaining);
  }
  for (const c of conflicts) c.entry.set = c.entry.set.difference(c.set);
  for (const [id, e] of managed) {
    if (id !== myId) e.set = e.set.difference(removed);
    e.set = e.set.difference(strippedFields);
    if (e.set.isEmpty()) managed.delete(id);
  }
  // Upstream's managedFieldsUpdater: the applier's time moves only when the object changes.
  const unchanged = cmp.added.isEmpty() && cmp.modified.isEmpty() && cmp.removed.isEmpty();
  const mine = managed.get(myId);
  if (mine && !unchanged) mine.time = scope.now;
  capUpdateManagers(managed);
  return { object: merged, managedFields: encodeManagedFields(managed) };
}

/** Fields of the client-side apply record whose live value is still the recorded one. */
function allowedByLastApplied(live: JsonObject, scope: ApplyScope): FieldSet | undefined {
  const meta = live.metadata;
  const annotations = isJsonObject(meta) && isJsonObject(meta.annotations) ? meta.annotations : undefined;
  const text = annotations?.[scope.clientSideApply!.annotation];
  if (typeof text !== 'string' || !text) return undefined;
  try {
    const recorded = JSON.parse(text) as JsonValue;
    if (!isJsonObject(recorded)) return undefined;
    const cmp = compareObjects(recorded, live, scope.schema);
    return fieldSetOf(recorded, scope.schema).difference(cmp.modified).difference(cmp.added).difference(cmp.removed);
  } catch {
    return undefined;
  }
}

/** Upstream's printManager: name, subresource, and the apiVersion of Update managers. */
function printManager(e: ManagedEntry): string {
  let s = JSON.stringify(e.manager);
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === 'Update') s += ` using ${e.apiVersion}`;
  return s;
}

function conflictError(conflicts: { id: string; entry: ManagedEntry; set: FieldSet }[]) {
  conflicts.sort((a, b) => compareStrings(a.id, b.id));
  const all = conflicts.flatMap((c) => c.set.paths().map((p) => ({ who: printManager(c.entry), path: pathString(p) })));
  let message: string;
  if (all.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${all[0].who}: ${all[0].path}`;
  } else {
    const lines: string[] = [];
    for (const c of conflicts) {
      lines.push(`conflicts with ${printManager(c.entry)}:`);
      for (const p of c.set.paths()) lines.push(`- ${pathString(p)}`);
    }
    message = `Apply failed with ${all.length} conflicts: ${lines.join('\n')}`;
  }
  return errors.applyConflict(
    message,
    all.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${c.who}`, field: c.path })),
  );
}
