// The comparisons of JSONPath filters: client-go's fork of text/template's eq, ne, lt, le, gt, ge
// (third_party/forked/golang/template/funcs.go) over decoded JSON values. Whole numbers are Go's
// int64 and others float64 (as unstructured decoding makes them); a float literal of the filter
// (`3.0`) stays a float, so it arrives here as GoFloat.
import { JsonPathError } from './errors';

/** A float64 that JavaScript would take for a whole number (a filter's float literal). */
export class GoFloat {
  constructor(readonly value: number) {}
}

type Kind = 'bool' | 'int' | 'float' | 'string';

const errBadComparisonType = 'invalid type for comparison';
const errBadComparison = 'incompatible types for comparison';

function basicKind(v: unknown): Kind {
  if (v instanceof GoFloat) return 'float';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? 'int' : 'float';
  }
  throw new JsonPathError(errBadComparisonType);
}

function num(v: unknown): number {
  return v instanceof GoFloat ? v.value : (v as number);
}

/** Go's string comparison: byte order of UTF-8, which is code point order. */
function compareStrings(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const cx = x.value.codePointAt(0) as number;
    const cy = y.value.codePointAt(0) as number;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

export function goEqual(a: unknown, b: unknown): boolean {
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 !== k2) throw new JsonPathError(errBadComparison);
  if (k1 === 'int' || k1 === 'float') return num(a) === num(b);
  return a === b;
}

export function goLess(a: unknown, b: unknown): boolean {
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 !== k2) throw new JsonPathError(errBadComparison);
  if (k1 === 'bool') throw new JsonPathError(errBadComparisonType);
  if (k1 === 'string') return compareStrings(a as string, b as string) < 0;
  return num(a) < num(b);
}

/** The filter operators; anything else is "unrecognized filter operator". */
export function compareWith(operator: string, a: unknown, b: unknown): boolean {
  switch (operator) {
    case '<':
      return goLess(a, b);
    case '>':
      return !(goLess(a, b) || goEqual(a, b));
    case '==':
      return goEqual(a, b);
    case '!=':
      return !goEqual(a, b);
    case '<=':
      return goLess(a, b) || goEqual(a, b);
    case '>=':
      return !goLess(a, b);
  }
  throw new JsonPathError(`unrecognized filter operator ${operator}`);
}
