// Go's fmt and strconv spelling of decoded JSON values (interface{} holding map[string]interface{},
// []interface{}, string, bool, int64 or float64), where upstream puts such a value into an error
// text a client reads: %v, %s, %#v, %T and strconv.FormatFloat's shortest 'g'. Whole numbers are
// taken for int64 (Go's decoders keep integers as int64), others for float64.
import { goQuote } from './goStrconv';

export type GoKind = 'map' | 'slice' | 'string' | 'bool' | 'int64' | 'float64' | 'bytes' | 'nil';

export function goKind(v: unknown): GoKind {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  if (v instanceof Uint8Array) return 'bytes';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? 'int64' : 'float64';
    default:
      return 'map';
  }
}

/** %T of the value (what reflect.TypeOf names); nil prints as %!s(<nil>) under %s. */
export const goTypeNames: Record<GoKind, string> = {
  map: 'map[string]interface {}',
  slice: '[]interface {}',
  string: 'string',
  bool: 'bool',
  int64: 'int64',
  float64: 'float64',
  bytes: '[]uint8',
  nil: '%!s(<nil>)',
};

/** The shortest decimal digits that read back as f at this precision, and the exponent of the first. */
function shortestDigits(f: number, bitSize: 32 | 64): { digits: string; exp: number } {
  if (bitSize === 64) {
    const [mant, e] = Math.abs(f).toExponential().split('e');
    return { digits: mant.replace('.', ''), exp: Number(e) };
  }
  const single = Math.fround(Math.abs(f));
  for (let p = 1; p <= 9; p++) {
    const text = single.toExponential(p - 1);
    if (Math.fround(Number(text)) === single) {
      const [mant, e] = text.split('e');
      return { digits: mant.replace('.', '').replace(/0+$/, '') || '0', exp: Number(e) };
    }
  }
  const [mant, e] = single.toExponential(8).split('e');
  return { digits: mant.replace('.', ''), exp: Number(e) };
}

/** strconv.FormatFloat(f, 'g', -1, bitSize): fmt's %v of a float. */
export function goFormatFloat(f: number, bitSize: 32 | 64 = 64): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const sign = f < 0 ? '-' : '';
  const { digits, exp } = shortestDigits(f, bitSize);
  // %e when the exponent is < -4 or >= 6 (the shortest-precision rule), else %f.
  if (exp < -4 || exp >= 6) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${whole}${frac ? `.${frac}` : ''}`;
}

function number(v: number): string {
  return goKind(v) === 'int64' ? BigInt(v).toString() : goFormatFloat(v);
}

const byBytes = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** fmt's %v (verb 'v') or %s (verb 's') of a decoded JSON value; map keys sorted as fmt does. */
export function goFormatValue(v: unknown, verb: 'v' | 's' = 'v'): string {
  const k = goKind(v);
  switch (k) {
    case 'nil':
      return verb === 'v' ? '<nil>' : '%!s(<nil>)';
    case 'string':
      return v as string;
    case 'map': {
      const o = v as Record<string, unknown>;
      return `map[${Object.keys(o)
        .sort(byBytes)
        .map((key) => `${key}:${goFormatValue(o[key], verb)}`)
        .join(' ')}]`;
    }
    case 'slice':
      return `[${(v as unknown[]).map((x) => goFormatValue(x, verb)).join(' ')}]`;
    case 'bytes':
      return `[${Array.from(v as Uint8Array).join(' ')}]`;
    default: {
      const text = typeof v === 'number' ? number(v) : String(v);
      return verb === 'v' ? text : `%!s(${k}=${text})`;
    }
  }
}

/** fmt's %#v of a decoded JSON value held in an interface{} (Go syntax: typed composites, quoted strings). */
export function goSharpV(v: unknown): string {
  switch (goKind(v)) {
    case 'nil':
      return 'interface {}(nil)';
    case 'string':
      return goQuote(v as string);
    case 'bool':
      return String(v);
    case 'int64':
    case 'float64':
      return number(v as number);
    case 'bytes':
      return `[]byte{${Array.from(v as Uint8Array, (b) => `0x${b.toString(16)}`).join(', ')}}`;
    case 'slice':
      return `[]interface {}{${(v as unknown[]).map(goSharpV).join(', ')}}`;
    case 'map': {
      const o = v as Record<string, unknown>;
      return `map[string]interface {}{${Object.keys(o)
        .sort(byBytes)
        .map((key) => `${goQuote(key)}:${goSharpV(o[key])}`)
        .join(', ')}}`;
    }
  }
}
