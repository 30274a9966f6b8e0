// metadata.managedFields decoded into managers (upstream's fieldmanager "Managed"): one field set
// per manager identifier, the JSON of (manager, operation, apiVersion for updates, subresource)
// as upstream builds it, so entries merge exactly when upstream's would.
import type { ManagedFieldsEntry } from '../../api/meta';
import { FieldSet } from '../fieldpath/fieldSet';
import { decodeFieldsV1, encodeFieldsV1 } from '../fieldpath/fieldsV1';
import { compareStrings } from '../fieldpath/pathElement';
import type { JsonValue } from '../jsonValue';

export type Operation = 'Apply' | 'Update';

export interface ManagerInfo {
  manager: string;
  operation: Operation;
  apiVersion: string;
  subresource?: string;
}

export interface ManagedEntry extends ManagerInfo {
  set: FieldSet;
  /** RFC 3339 seconds; absent when the entry never carried one. */
  time?: string;
}

/** Keyed by managerId. */
export type Managed = Map<string, ManagedEntry>;

/** Upstream's BuildManagerIdentifier: appliers are one manager whatever apiVersion they used. */
export function managerId(m: ManagerInfo): string {
  const id: Record<string, string> = { manager: m.manager, operation: m.operation };
  if (m.operation === 'Update' && m.apiVersion) id.apiVersion = m.apiVersion;
  if (m.subresource) id.subresource = m.subresource;
  return JSON.stringify(id);
}

/** Upstream's isResetManagedFields: `[]` or `[{}]` clears ownership. */
export function isResetManagedFields(entries: unknown): boolean {
  if (!Array.isArray(entries)) return false;
  if (entries.length === 0) return true;
  if (entries.length !== 1) return false;
  const e = entries[0];
  return typeof e === 'object' && e !== null && !Array.isArray(e) && Object.values(e).every((v) => v === undefined);
}

/** Decodes stored or sent entries; throws with upstream's text when one is malformed. */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | undefined): Managed {
  const managed: Managed = new Map();
  (entries ?? []).forEach((e, i) => {
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new Error('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new Error('apiVersion must not be empty');
    if (!e.fieldsType) throw new Error(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new Error(`invalid fieldsType "${e.fieldsType}" in managed fields entry ${i}`);
    const info: ManagerInfo = { manager: e.manager ?? '', operation: e.operation, apiVersion: e.apiVersion };
    if (e.subresource) info.subresource = e.subresource;
    const entry: ManagedEntry = { ...info, set: decodeFieldsV1(e.fieldsV1 as JsonValue | undefined) };
    if (e.time) entry.time = e.time;
    managed.set(managerId(info), entry);
  });
  return managed;
}

const seconds = (t: string | undefined): number => (t ? Math.floor(Date.parse(t) / 1000) : 0);

/** Upstream's order: Apply before Update, then time (seconds), manager, apiVersion, subresource. */
function entryOrder(a: ManagedEntry, b: ManagedEntry): number {
  if (a.operation !== b.operation) return a.operation < b.operation ? -1 : 1;
  return (
    seconds(a.time) - seconds(b.time) ||
    compareStrings(a.manager, b.manager) ||
    compareStrings(a.apiVersion, b.apiVersion) ||
    compareStrings(a.subresource ?? '', b.subresource ?? '')
  );
}

/** The managedFields to store; undefined (field omitted) when nobody owns anything. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  const entries = [...managed.values()].filter((e) => !e.set.isEmpty()).sort(entryOrder);
  if (!entries.length) return undefined;
  return entries.map((e) => {
    const out: ManagedFieldsEntry = { manager: e.manager, operation: e.operation, apiVersion: e.apiVersion };
    if (e.time) out.time = e.time;
    out.fieldsType = 'FieldsV1';
    out.fieldsV1 = encodeFieldsV1(e.set);
    if (e.subresource) out.subresource = e.subresource;
    return out;
  });
}
