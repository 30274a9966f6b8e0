// Upstream's validateFinalizerName for Namespace spec.finalizers: a qualified name, and a name
// without a "/" prefix must be one of the standard finalizers.
import { namespaceFinalizer } from '../../api';
import { fieldErr, FieldError } from '../../machinery/fieldErrors';
import { isQualifiedName } from '../../machinery/validation/names';

/** Finalizer names that need no domain prefix. */
export const standardFinalizers: ReadonlySet<string> = new Set([namespaceFinalizer, 'orphan', 'foregroundDeletion']);

export function validateFinalizerName(name: string, field: string): FieldError[] {
  const errs = isQualifiedName(name).map((m) => fieldErr.invalid(field, name, m));
  if (!name.includes('/') && !standardFinalizers.has(name)) {
    errs.push(fieldErr.invalid(field, name, 'name is neither a standard finalizer name nor is it fully qualified'));
  }
  return errs;
}
