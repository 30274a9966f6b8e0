// How client-go prints the values a template found (JSONPath.PrintResults, Execute): maps and
// lists as Go's json.Marshal writes them (keys sorted, HTML-safe escapes), everything else as
// fmt.Fprint does (null as "null"), values of one part separated by a space.
import { goFormatFloat } from '../goFormat';
import { goJsonQuoteString } from '../goJson';
import { isJsonObject } from '../jsonValue';
import { findResults, type FindOptions, type JsonPathValue } from './evaluate';
import { JsonPathLimitError } from './errors';
import type { ListNode } from './nodes';

const byBytes = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Go's json.Marshal of a decoded value: map keys in sorted order. Nesting is bounded by the decoder. */
export function goMarshalSorted(v: JsonPathValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map(goMarshalSorted).join(',')}]`;
  if (isJsonObject(v)) {
    const keys = Object.keys(v).sort(byBytes);
    return `{${keys.map((k) => `${goJsonQuoteString(k)}:${goMarshalSorted(Object.getOwnPropertyDescriptor(v, k)?.value as JsonPathValue)}`).join(',')}}`;
  }
  if (typeof v === 'string') return goJsonQuoteString(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  return v ? 'true' : 'false';
}

/** fmt.Fprint of a scalar: whole numbers as int64, others as float64's %v. */
function scalarText(v: JsonPathValue): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? BigInt(v).toString() : goFormatFloat(v);
  return String(v);
}

/** The text of one value as PrintResults writes it. */
export function valueText(v: JsonPathValue): string {
  return v !== null && typeof v === 'object' ? goMarshalSorted(v) : scalarText(v);
}

/** PrintResults: the values of one template part, space-separated. */
export function printResults(values: readonly JsonPathValue[]): string {
  return values.map(valueText).join(' ');
}

/** Longest text executeJsonPath writes: `{..}` prints every container again under its parent. */
export const maxPrintedLength = 8 * 1024 * 1024;

/** Execute: every part of the template found in `data` and printed, concatenated. */
export function executeJsonPath(template: ListNode, data: JsonPathValue, opts: FindOptions & { maxLength?: number } = {}): string {
  const max = opts.maxLength ?? maxPrintedLength;
  let out = '';
  for (const values of findResults(template, data, opts)) {
    for (let i = 0; i < values.length; i++) {
      out += (i > 0 ? ' ' : '') + valueText(values[i]);
      if (out.length > max) throw new JsonPathLimitError(`jsonpath output is longer than ${max} characters`);
    }
  }
  return out;
}
