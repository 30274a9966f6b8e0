// Generic ObjectMeta rules on create and update (errors.md §4 "Common ObjectMeta texts"),
// following upstream's apimachinery objectmeta validation plus the core API's finalizer-name
// rule. Where releases differ the texts of errors.md win (owner references: indexed paths and
// "Required value: must not be empty"; managedFields operation: "Unsupported value").
import type { ManagedFieldsEntry, ObjectMeta, OwnerReference } from '../../api/meta';
import { namespaceFinalizer } from '../../api/product';
import { deepEqual } from '../deepEqual';
import { FieldError, fieldErr } from '../fieldErrors';
import { goFormatRune, goIsPrint, goQuote } from '../goStrconv';
import { isDNS1123Label, isQualifiedName, isValidLabelValue } from './names';

export type NameValidator = (name: string, prefix: boolean) => string[];

export const totalAnnotationSizeLimitBytes = 256 * 1024;
export const fieldManagerMaxLength = 128;
export const maxSubresourceNameLength = 256;
export const finalizerOrphanDependents = 'orphan';
export const finalizerDeleteDependents = 'foregroundDeletion';

/** Finalizers without a '/' that the core API accepts. */
export const standardFinalizers: readonly string[] = [namespaceFinalizer, finalizerOrphanDependents, finalizerDeleteDependents];

export interface ObjectMetaRules {
  /**
   * The core API's extra rule: a finalizer without '/' must be one of these (path
   * metadata.finalizers[i]). Default: standardFinalizers; false turns the rule off.
   */
  standardFinalizers?: readonly string[] | false;
  /**
   * Update only: report an empty metadata.resourceVersion (upstream's rule; its store fills the
   * stored RV in first when unconditional updates are allowed). Off by default because the
   * store here checks the RV itself before validation.
   */
  requireResourceVersion?: boolean;
}

export interface ObjectMetaCreateRules extends ObjectMetaRules {
  namespaced: boolean;
  /** Name rule of the kind; called with prefix=true for generateName. */
  nameFn: NameValidator;
}

const root = 'metadata';
const p = (name: string): string => `${root}.${name}`;

/** Create-time validation; expects name generation to have happened already. */
export function validateObjectMeta(meta: ObjectMeta | undefined, rules: ObjectMetaCreateRules): FieldError[] {
  const m = meta ?? {};
  const errs: FieldError[] = [];
  const generateName = m.generateName ?? '';
  if (generateName) {
    for (const msg of rules.nameFn(generateName, true)) errs.push(fieldErr.invalid(p('generateName'), generateName, msg));
  }
  const name = m.name ?? '';
  if (!name) errs.push(fieldErr.required(p('name'), 'name or generateName is required'));
  else for (const msg of rules.nameFn(name, false)) errs.push(fieldErr.invalid(p('name'), name, msg));

  const ns = m.namespace ?? '';
  if (rules.namespaced) {
    if (!ns) errs.push(fieldErr.required(p('namespace')));
    else for (const msg of isDNS1123Label(ns)) errs.push(fieldErr.invalid(p('namespace'), ns, msg));
  } else if (ns) errs.push(fieldErr.forbidden(p('namespace'), 'not allowed on this type'));

  errs.push(...nonNegative(m.generation, p('generation')));
  errs.push(...validateLabels(m.labels));
  errs.push(...validateAnnotations(m.annotations));
  errs.push(...validateOwnerReferences(m.ownerReferences));
  errs.push(...validateFinalizers(m.finalizers));
  errs.push(...validateManagedFields(m.managedFields));
  errs.push(...coreFinalizerNames(m.finalizers, rules));
  return errs;
}

/** Update-time validation of the new metadata against the stored one. */
export function validateObjectMetaUpdate(newMeta: ObjectMeta | undefined, oldMeta: ObjectMeta | undefined, rules: ObjectMetaRules = {}): FieldError[] {
  const n = newMeta ?? {};
  const o = oldMeta ?? {};
  const errs: FieldError[] = [];
  if (o.deletionTimestamp) errs.push(...noNewFinalizers(n.finalizers ?? [], o.finalizers ?? []));
  if (rules.requireResourceVersion && !n.resourceVersion) errs.push(fieldErr.invalid(p('resourceVersion'), n.resourceVersion ?? '', 'must be specified for an update'));
  errs.push(...nonNegative(n.generation, p('generation')));
  if ((n.generation ?? 0) < (o.generation ?? 0)) errs.push(fieldErr.invalid(p('generation'), n.generation ?? 0, 'must not be decremented'));

  errs.push(...immutable(n.name ?? '', o.name ?? '', p('name')));
  errs.push(...immutable(n.namespace ?? '', o.namespace ?? '', p('namespace')));
  errs.push(...immutable(n.uid ?? '', o.uid ?? '', p('uid')));
  errs.push(...immutableTime(n.creationTimestamp, o.creationTimestamp, p('creationTimestamp')));
  errs.push(...immutableTime(n.deletionTimestamp, o.deletionTimestamp, p('deletionTimestamp')));
  errs.push(...immutable(n.deletionGracePeriodSeconds ?? null, o.deletionGracePeriodSeconds ?? null, p('deletionGracePeriodSeconds')));

  errs.push(...validateLabels(n.labels));
  errs.push(...validateAnnotations(n.annotations));
  errs.push(...validateOwnerReferences(n.ownerReferences));
  errs.push(...validateManagedFields(n.managedFields));
  errs.push(...coreFinalizerNames(n.finalizers, rules));
  return errs;
}

function nonNegative(v: number | undefined, field: string): FieldError[] {
  return v !== undefined && v < 0 ? [fieldErr.invalid(field, v, 'must be greater than or equal to 0')] : [];
}

function immutable(newVal: unknown, oldVal: unknown, field: string): FieldError[] {
  return deepEqual(newVal, oldVal) ? [] : [fieldErr.invalid(field, newVal, 'field is immutable')];
}

/** Timestamps compare as instants (upstream compares decoded times, not their spelling). */
function immutableTime(newVal: string | undefined, oldVal: string | undefined, field: string): FieldError[] {
  // The same text (every update that keeps the field): no parse.
  if ((newVal ?? '') === (oldVal ?? '')) return [];
  const a = newVal ? Date.parse(newVal) : NaN;
  const b = oldVal ? Date.parse(oldVal) : NaN;
  const same = (newVal ?? '') === (oldVal ?? '') || (!Number.isNaN(a) && a === b);
  return same ? [] : [fieldErr.invalid(field, newVal ?? null, 'field is immutable')];
}

/** Label keys and values; errors carry the path metadata.labels (no key), as upstream. */
export function validateLabels(labels: Readonly<Record<string, string>> | undefined, field = p('labels')): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const msg of isQualifiedName(k)) errs.push(fieldErr.invalid(field, k, msg));
    for (const msg of isValidLabelValue(v)) errs.push(fieldErr.invalid(field, v, msg));
  }
  return errs;
}

/** Annotation keys (qualified names, case-insensitive) and the 256 KiB total size. */
export function validateAnnotations(annotations: Readonly<Record<string, string>> | undefined, field = p('annotations')): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(fieldErr.invalid(field, k, msg));
    size += Buffer.byteLength(k, 'utf8') + Buffer.byteLength(v ?? '', 'utf8');
  }
  if (size > totalAnnotationSizeLimitBytes) errs.push(fieldErr.tooLong(field, totalAnnotationSizeLimitBytes));
  return errs;
}

/** schema.ParseGroupVersion: undefined when the string is malformed. */
function parseGroupVersion(gv: string): { group: string; version: string } | undefined {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const parts = gv.split('/');
  if (parts.length === 1) return { group: '', version: gv };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  return undefined;
}

export function validateOwnerReferences(refs: readonly OwnerReference[] | undefined, field = p('ownerReferences')): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  (refs ?? []).forEach((ref, i) => {
    const f = `${field}[${i}]`;
    const apiVersion = ref.apiVersion ?? '';
    const gv = parseGroupVersion(apiVersion);
    if (!apiVersion) errs.push(fieldErr.required(`${f}.apiVersion`, 'must not be empty'));
    else if (!gv || !gv.version) errs.push(fieldErr.invalid(`${f}.apiVersion`, apiVersion, 'must be <group>/<version> or <version>'));
    if (!ref.kind) errs.push(fieldErr.required(`${f}.kind`, 'must not be empty'));
    if (!ref.name) errs.push(fieldErr.required(`${f}.name`, 'must not be empty'));
    if (!ref.uid) errs.push(fieldErr.required(`${f}.uid`, 'must not be empty'));
    // Events may not own objects (upstream's BannedOwners).
    if (gv && gv.group === '' && gv.version === 'v1' && ref.kind === 'Event') {
      errs.push(fieldErr.invalid(f, ref, '/v1, Kind=Event is disallowed from being an owner'));
    }
    if (ref.controller) {
      const cur = `${ref.kind ?? ''}/${ref.name ?? ''}`;
      if (firstController) {
        errs.push(
          fieldErr.invalid(field, refs, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${cur}`),
        );
      } else firstController = cur;
    }
  });
  return errs;
}

export function validateFinalizers(finalizers: readonly string[] | undefined, field = p('finalizers')): FieldError[] {
  const errs: FieldError[] = [];
  const list = finalizers ?? [];
  for (const f of list) for (const msg of isQualifiedName(f)) errs.push(fieldErr.invalid(field, f, msg));
  if (list.includes(finalizerOrphanDependents) && list.includes(finalizerDeleteDependents)) {
    errs.push(fieldErr.invalid(field, list, `finalizer ${finalizerOrphanDependents} and ${finalizerDeleteDependents} cannot be both set`));
  }
  return errs;
}

function coreFinalizerNames(finalizers: readonly string[] | undefined, rules: ObjectMetaRules): FieldError[] {
  const standard = rules.standardFinalizers ?? standardFinalizers;
  if (standard === false) return [];
  const errs: FieldError[] = [];
  (finalizers ?? []).forEach((f, i) => {
    if (!f.includes('/') && !standard.includes(f)) {
      errs.push(fieldErr.invalid(`${p('finalizers')}[${i}]`, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  });
  return errs;
}

/** Go's %#v of a sorted []string, as the "found new finalizers" text prints it. */
function goStringSlice(items: readonly string[]): string {
  return `[]string{${items.map(goQuote).join(', ')}}`;
}

function noNewFinalizers(newF: readonly string[], oldF: readonly string[]): FieldError[] {
  const extra = [...new Set(newF.filter((f) => !oldF.includes(f)))].sort();
  if (!extra.length) return [];
  return [fieldErr.forbidden(p('finalizers'), `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(extra)}`)];
}

export function validateFieldManager(manager: string, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (Buffer.byteLength(manager, 'utf8') > fieldManagerMaxLength) errs.push(fieldErr.tooLong(field, fieldManagerMaxLength));
  let pos = 0;
  for (const ch of manager) {
    const cp = ch.codePointAt(0) as number;
    if (!goIsPrint(cp)) {
      errs.push(fieldErr.invalid(field, manager, `invalid character ${goFormatRune(cp)} (at position ${pos})`));
    }
    pos += Buffer.byteLength(ch, 'utf8');
  }
  return errs;
}

export function validateManagedFields(entries: readonly ManagedFieldsEntry[] | undefined, field = p('managedFields')): FieldError[] {
  const errs: FieldError[] = [];
  (entries ?? []).forEach((e, i) => {
    const f = `${field}[${i}]`;
    const op = e.operation ?? '';
    if (op === '') errs.push(fieldErr.required(`${f}.operation`, 'must not be empty'));
    else if (op !== 'Apply' && op !== 'Update') errs.push(fieldErr.notSupported(`${f}.operation`, op, ['Apply', 'Update']));
    if (e.fieldsType && e.fieldsType !== 'FieldsV1') errs.push(fieldErr.invalid(`${f}.fieldsType`, e.fieldsType, 'must be `FieldsV1`'));
    errs.push(...validateFieldManager(e.manager ?? '', `${f}.manager`));
    if (Buffer.byteLength(e.subresource ?? '', 'utf8') > maxSubresourceNameLength) {
      errs.push(fieldErr.tooLong(`${f}.subresource`, maxSubresourceNameLength));
    }
  });
  return errs;
}
