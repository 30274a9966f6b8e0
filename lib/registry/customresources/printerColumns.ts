// A custom resource's Table columns from its version's additionalPrinterColumns: upstream's
// apiextensions tableconvertor (New, ConvertToTable, cellForJSONValue) and the logical default
// of apiserver/helpers.go (a version without columns is served Name and Age).
import { ObjectMetaSchema, type ApiObject } from '../../api';
import type { CustomResourceColumnDefinition } from '../../api/apiextensions';
import { parseGoRFC3339 } from '../../codec/goTime';
import { goQuote } from '../../machinery/goStrconv';
import { humanDuration } from '../../machinery/humanDuration';
import { JsonPathError } from '../../machinery/jsonpath/errors';
import { findResults, type JsonPathValue } from '../../machinery/jsonpath/evaluate';
import type { ListNode } from '../../machinery/jsonpath/nodes';
import { parseJsonPath } from '../../machinery/jsonpath/parser';
import { valueText } from '../../machinery/jsonpath/print';
import { describe, nameColumn, type TableCell, type TableColumn } from '../tableColumns';

/** apiextensions v1 CustomResourceColumnDefinition (name, type and jsonPath are required by CRD validation). */
export type AdditionalPrinterColumn = CustomResourceColumnDefinition;

/** serveDefaultColumnsIfEmpty: the column a version without any is served with. */
export const defaultPrinterColumns: readonly AdditionalPrinterColumn[] = [
  { name: 'Age', type: 'date', description: describe(ObjectMetaSchema, ['creationTimestamp']), jsonPath: '.metadata.creationTimestamp' },
];

// time.Time{}: metav1.Time's zero, which prints as "<unknown>".
const zeroTime = (() => {
  const d = new Date(0);
  d.setUTCFullYear(1, 0, 1);
  d.setUTCHours(0, 0, 0, 0);
  return d.getTime();
})();

/** metav1.Time.UnmarshalQueryParameter then table.ConvertToHumanReadableDateType. */
function dateCell(s: string, now: Date): string {
  let t = zeroTime;
  if (s !== '' && s !== 'null') {
    try {
      t = parseGoRFC3339(s);
    } catch {
      return '<invalid>';
    }
  }
  return t === zeroTime ? '<unknown>' : humanDuration(now.getTime() - t);
}

/** cellForJSONValue: the cell of a column that is not a string column. */
export function cellForJsonValue(type: string, value: JsonPathValue, now: Date): TableCell {
  if (value === null) return null;
  switch (type) {
    case 'integer':
      // Go's int64(float64) truncates; past the int64 range amd64 gives its minimum.
      if (typeof value !== 'number') return null;
      return Math.abs(value) < 2 ** 63 ? Math.trunc(value) : -(2 ** 63);
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return typeof value === 'string' ? value : null;
    case 'date':
      return typeof value === 'string' ? dateCell(value, now) : null;
  }
  return null;
}

function crdColumn(col: AdditionalPrinterColumn, path: ListNode): TableColumn {
  return {
    definition: {
      name: col.name ?? '',
      type: col.type ?? '',
      format: col.format ?? '',
      description: col.description ? col.description : `Custom resource definition column (in JSONPath format): ${col.jsonPath}`,
      priority: col.priority ?? 0,
    },
    cell(obj: ApiObject, now: Date): TableCell {
      let results: JsonPathValue[][];
      try {
        results = findResults(path, obj as unknown as JsonPathValue, { allowMissingKeys: true });
      } catch (e) {
        // An evaluation error is an empty cell, as upstream (the step budget's included).
        if (e instanceof JsonPathError) return null;
        throw e;
      }
      if (results.length === 0 || results[0].length === 0) return null;
      // Only the first value: columns are simple paths.
      const value = results[0][0];
      if (col.type === 'string') {
        // PrintResults of reflect.ValueOf(nil) is the template package's "<no value>".
        return value === null ? '<no value>' : valueText(value);
      }
      return cellForJsonValue(col.type ?? '', value, now);
    },
  };
}

function build(columns: readonly AdditionalPrinterColumn[]): { columns: TableColumn[]; error?: string } {
  const out: TableColumn[] = [nameColumn];
  for (const col of columns.length > 0 ? columns : defaultPrinterColumns) {
    let path: ListNode;
    try {
      path = parseJsonPath(`{${col.jsonPath ?? ''}}`);
    } catch (e) {
      if (!(e instanceof JsonPathError)) throw e;
      // Upstream serves what it built before the column it could not parse.
      return { columns: out, error: `unrecognized column definition ${goQuote(col.jsonPath ?? '')}` };
    }
    out.push(crdColumn(col, path));
  }
  return { columns: out };
}

/**
 * The Table columns of a custom resource version: Name, then each printer column (Age when the
 * version declares none). A column whose jsonPath does not parse ends the list there, as
 * upstream's convertor does; printerColumnsError says which.
 */
export function printerColumns(columns: readonly AdditionalPrinterColumn[]): TableColumn[] {
  return build(columns).columns;
}

/** Upstream's error from tableconvertor.New ("unrecognized column definition …"), logged at V(2). */
export function printerColumnsError(columns: readonly AdditionalPrinterColumn[]): string | undefined {
  return build(columns).error;
}

/**
 * getScaleColumnsForVersion: the columns of the /scale subresource's Table (the Scale object's
 * replicas, whatever the custom resource's own paths are), Age last.
 */
export function scalePrinterColumns(scale: { specReplicasPath?: string; statusReplicasPath?: string }): TableColumn[] {
  const cols: AdditionalPrinterColumn[] = [];
  if (scale.specReplicasPath) cols.push({ name: 'Desired', type: 'integer', description: 'Number of desired replicas', jsonPath: '.spec.replicas' });
  if (scale.statusReplicasPath) cols.push({ name: 'Available', type: 'integer', description: 'Number of actual replicas', jsonPath: '.status.replicas' });
  cols.push(...defaultPrinterColumns);
  return printerColumns(cols);
}
