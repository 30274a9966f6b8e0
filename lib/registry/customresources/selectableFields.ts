// The field-selector labels of a custom resource: metadata.name (and metadata.namespace when
// namespaced) plus each of its version's selectableFields, as upstream's customresource strategy
// (prepareSelectableFields, selectableFields) reads them: the label is the path without its
// leading dot, the value fmt.Sprint of the single value found, "" when absent or null.
import type { ApiObject } from '../../api';
import { errors } from '../../machinery/errors';
import { goFormatValue } from '../../machinery/goFormat';
import { JsonPathError } from '../../machinery/jsonpath/errors';
import { findResults, type JsonPathValue } from '../../machinery/jsonpath/evaluate';
import type { ListNode } from '../../machinery/jsonpath/nodes';
import { parseJsonPath } from '../../machinery/jsonpath/parser';
import { defaultSelectableFields } from '../defaultStrategy';

interface PreparedField {
  name: string;
  path?: ListNode;
  parseError?: string;
}

function prepare(jsonPath: string): PreparedField {
  const name = jsonPath.startsWith('.') ? jsonPath.slice(1) : jsonPath;
  try {
    return { name, path: parseJsonPath(`{${jsonPath}}`) };
  } catch (e) {
    if (e instanceof JsonPathError) return { name, parseError: e.message };
    throw e;
  }
}

function valueOf(f: PreparedField, obj: ApiObject): string {
  // CRD validation admits only paths that parse; upstream reports a stored one that does not.
  if (!f.path) throw errors.internal(`unexpected error parsing jsonPath: ${f.parseError}`);
  let results: JsonPathValue[][];
  try {
    results = findResults(f.path, obj as unknown as JsonPathValue, { allowMissingKeys: true });
  } catch (e) {
    if (e instanceof JsonPathError) throw errors.internal(`unexpected error finding value with jsonPath: ${e.message}`);
    throw e;
  }
  if (results.length === 0 || results[0].length === 0) return '';
  if (results.length > 1 || results[0].length > 1) throw errors.internal('unexpectedly received more than one JSON path result');
  const value = results[0][0];
  return value === null ? '' : goFormatValue(value);
}

/**
 * The fields function of a custom resource version: its selectableFields' jsonPaths are parsed
 * once here; the function maps an object to its field-selector labels. It throws an internal
 * error where upstream's GetAttrs returns one.
 */
export function selectableFieldValues(paths: readonly string[], namespaced: boolean): (obj: ApiObject) => Record<string, string> {
  const prepared = paths.map(prepare);
  return (obj) => {
    const fields = defaultSelectableFields(obj, namespaced);
    for (const f of prepared) fields[f.name] = valueOf(f, obj);
    return fields;
  };
}
