// Field errors as upstream's field.Error: a type, a path, a value and a detail.
// Rendering follows errors.md §4 (value printed Go-style, detail appended with ": ").
import { goJsonStringify } from './goJson';
import { goQuote } from './goStrconv';

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueForbidden'
  | 'FieldValueInvalid'
  | 'FieldValueTypeInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueDuplicate'
  | 'FieldValueNotFound'
  | 'FieldValueTooLong'
  | 'FieldValueTooShort'
  | 'FieldValueTooMany'
  | 'FieldValueTooFew'
  | 'InternalError';

export interface FieldError {
  type: FieldErrorType;
  field: string;
  value?: unknown;
  detail: string;
}

/** Go's %q for a string (strconv.Quote); re-exported for the error constructors. */
export { goQuote };

/** Value rendering of errors.md §4: strings quoted, scalars bare, the rest JSON. */
export function renderValue(v: unknown): string {
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v === undefined || v === null) return 'null';
  // Go's json.Marshal: HTML-safe escapes, byte arrays as base64 strings.
  return goJsonStringify(v);
}

const prefixes: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueForbidden: 'Forbidden',
  FieldValueInvalid: 'Invalid value',
  FieldValueTypeInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueNotFound: 'Not found',
  FieldValueTooLong: 'Too long',
  FieldValueTooShort: 'Too short',
  FieldValueTooMany: 'Too many',
  FieldValueTooFew: 'Too few',
  InternalError: 'Internal error',
};

const printsValue: ReadonlySet<FieldErrorType> = new Set<FieldErrorType>([
  'FieldValueInvalid',
  'FieldValueTypeInvalid',
  'FieldValueNotSupported',
  'FieldValueDuplicate',
  'FieldValueNotFound',
  'FieldValueTooMany',
  'FieldValueTooFew',
]);

/** The body of a field error, without its path ("Invalid value: 599: may not …"). */
export function fieldErrorBody(e: FieldError): string {
  let s = prefixes[e.type];
  if (printsValue.has(e.type)) s += `: ${renderValue(e.value)}`;
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

export function renderFieldError(e: FieldError): string {
  return e.field ? `${e.field}: ${fieldErrorBody(e)}` : fieldErrorBody(e);
}

/** "a" or "[a, b]" with identical rendered errors printed once. */
export function renderFieldErrorList(errs: readonly FieldError[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const e of errs) {
    const r = renderFieldError(e);
    if (!seen.has(r)) {
      seen.add(r);
      parts.push(r);
    }
  }
  return parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
}

/** Builders, named as upstream's field package. */
export const fieldErr = {
  required: (field: string, detail = ''): FieldError => ({ type: 'FieldValueRequired', field, detail }),
  forbidden: (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail }),
  invalid: (field: string, value: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, value, detail }),
  typeInvalid: (field: string, value: unknown, detail: string): FieldError => ({ type: 'FieldValueTypeInvalid', field, value, detail }),
  notSupported: (field: string, value: unknown, supported: readonly string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field,
    value,
    detail: supported.length ? `supported values: ${supported.map(goQuote).join(', ')}` : '',
  }),
  duplicate: (field: string, value: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, value, detail: '' }),
  notFound: (field: string, value: unknown): FieldError => ({ type: 'FieldValueNotFound', field, value, detail: '' }),
  tooLong: (field: string, max: number, unit: 'bytes' | 'characters' = 'bytes'): FieldError => ({
    type: 'FieldValueTooLong',
    field,
    detail: `may not be more than ${max} ${max === 1 ? unit.slice(0, -1) : unit}`,
  }),
  tooMany: (field: string, actual: number, max: number): FieldError => ({
    type: 'FieldValueTooMany',
    field,
    value: actual,
    detail: `must have at most ${max} ${max === 1 ? 'item' : 'items'}`,
  }),
  internal: (field: string, err: string): FieldError => ({ type: 'InternalError', field, detail: err }),
};

/** Path helper: child("spec", "usages").index(2) → "spec.usages[2]". */
export class FieldPath {
  constructor(readonly path: string = '') {}
  child(...names: string[]): FieldPath {
    let p = this.path;
    for (const n of names) p = p ? `${p}.${n}` : n;
    return new FieldPath(p);
  }
  index(i: number): FieldPath {
    return new FieldPath(`${this.path}[${i}]`);
  }
  key(k: string): FieldPath {
    return new FieldPath(`${this.path}[${k}]`);
  }
  toString(): string {
    return this.path;
  }
}
