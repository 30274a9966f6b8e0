// Query options of create, update and patch (errors.md §10): dryRun, fieldValidation, fieldManager.
import { groups } from '../../api/product';
import { errors } from '../../machinery/errors';
import { fieldErr, FieldError } from '../../machinery/fieldErrors';
import { validateFieldManager } from '../../machinery/validation/objectMeta';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';
export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

export interface WriteOptions {
  dryRun: boolean;
  fieldValidation: FieldValidation;
  fieldManager: string;
  force?: boolean;
}

export function invalidOptions(kind: OptionsKind, errs: FieldError[]): never {
  throw errors.invalid({ group: groups.meta, kind }, '', errs);
}

/** dryRun accepts no value or "All" (repeatable); anything else is refused. */
export function parseDryRun(values: string[], kind: OptionsKind): boolean {
  const set = values.filter((v) => v !== '');
  const bad = set.filter((v) => v !== 'All');
  if (bad.length) invalidOptions(kind, [fieldErr.notSupported('dryRun', set, ['All'])]);
  return set.includes('All');
}

export function parseWriteOptions(query: URLSearchParams, kind: Exclude<OptionsKind, 'DeleteOptions'>): WriteOptions {
  const dryRun = parseDryRun(query.getAll('dryRun'), kind);
  const errs: FieldError[] = [];
  const fv = query.get('fieldValidation') ?? '';
  const supported = ['', 'Ignore', 'Strict', 'Warn'];
  if (!supported.includes(fv)) errs.push(fieldErr.notSupported('fieldValidation', fv, supported));
  const fieldManager = query.get('fieldManager') ?? '';
  errs.push(...validateFieldManager(fieldManager, 'fieldManager'));
  const f = query.get('force');
  const force = f === null ? undefined : f === '' || f === 'true' || f === '1';
  if (errs.length) invalidOptions(kind, errs);
  return { dryRun, fieldValidation: (fv || 'Warn') as FieldValidation, fieldManager, force };
}
