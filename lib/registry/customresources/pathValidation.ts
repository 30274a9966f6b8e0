// The JSON path checks of CRD validation (apiextensions validation.go): a printer column's
// jsonPath (validateSimpleJSONPath, only a leading dot is required: the Table printer takes any
// JSONPath), and a version's selectableFields (ValidateCustomResourceSelectableFields: a path of
// fields in the schema, outside metadata, to a string, boolean or integer; unique; at most 8).
// Messages and field paths are upstream's, including its "JSONPath" spelling for columns.
import { fieldErr, type FieldError } from '../../machinery/fieldErrors';
import { validFieldPath, type FieldPathSchema } from '../../machinery/jsonpath/validFieldPath';

/** MaxSelectableFields. */
export const maxSelectableFields = 8;

/** validateSimpleJSONPath: the path's own errors at `fieldPath` (a scale subresource's paths use it too). */
export function validateSimpleJsonPath(path: string, fieldPath: string): FieldError[] {
  if (path.length === 0) return [fieldErr.invalid(fieldPath, path, 'must not be empty')];
  if (path[0] !== '.') return [fieldErr.invalid(fieldPath, path, 'must be a simple json path starting with .')];
  // Upstream's third case ("must be a json path in the dot notation") cannot fail: a split has a part.
  return [];
}

/** The jsonPath of the printer column at `columnPath` (…additionalPrinterColumns[i]). */
export function validatePrinterColumnJsonPath(path: string, columnPath: string): FieldError[] {
  const at = `${columnPath}.JSONPath`;
  if (path.length === 0) return [fieldErr.required(at)];
  return validateSimpleJsonPath(path, at);
}

/**
 * One selectable field's jsonPath against the version's structural schema; `normalized` is the
 * field path it names, which duplicates are judged by.
 */
export function validateSelectableFieldPath(path: string, schema: FieldPathSchema | undefined, itemPath: string): { errors: FieldError[]; normalized?: string } {
  const at = `${itemPath}.jsonPath`;
  if (path.length === 0) return { errors: [fieldErr.required(at)] };
  const found = validFieldPath(path, schema, { allowArrayNotation: false });
  if (!found.ok) return { errors: [fieldErr.invalid(at, path, `is an invalid path: ${found.error}`)] };
  const errors: FieldError[] = [];
  if (found.root === 'metadata') errors.push(fieldErr.invalid(at, path, 'must not point to fields in metadata'));
  const type = found.schema?.type;
  if (type !== 'string' && type !== 'boolean' && type !== 'integer') {
    errors.push(fieldErr.invalid(at, path, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
  }
  return { errors, normalized: found.path.toString() };
}

/** A version's selectableFields at `listPath` (…versions[i].selectableFields). */
export function validateSelectableFields(fields: readonly { jsonPath: string }[], schema: FieldPathSchema | undefined, listPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const itemPath = `${listPath}[${i}]`;
    const { errors, normalized } = validateSelectableFieldPath(f.jsonPath, schema, itemPath);
    errs.push(...errors);
    if (normalized === undefined) return;
    if (unique.has(normalized)) errs.push(fieldErr.duplicate(`${itemPath}.jsonPath`, f.jsonPath));
    else unique.add(normalized);
  });
  if (unique.size > maxSelectableFields) errs.push(fieldErr.tooMany(listPath, unique.size, maxSelectableFields));
  return errs;
}
