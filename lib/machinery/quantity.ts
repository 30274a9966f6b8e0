// Kubernetes resource quantities (apimachinery api/resource): parsing, exact arithmetic and the
// canonical form. A value is unscaled·10^-scale, exact (binary suffixes are powers of two, whose
// decimal expansion is finite), so comparison and sums need no rounding.

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

const splitREString = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
/** upstream's ErrFormatWrong, ErrSuffix and ErrNumeric texts. */
export const quantityErrors = {
  formatWrong: `quantities must match the regular expression '${splitREString}'`,
  suffix: "unable to parse quantity's suffix",
  numeric: 'unable to parse numeric part of quantity',
} as const;

export class QuantityParseError extends Error {}

const decimalSuffixes: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySuffixes: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const decimalByExponent = new Map(Object.entries(decimalSuffixes).map(([s, e]) => [e, s]));
const binaryByExponent = new Map(Object.entries(binarySuffixes).map(([s, e]) => [e, s]));
const suffixChars = 'eEinumkKMGTP';
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
/** Parsed values are rounded up to nano units (Nano = scale 9). */
const nanoScale = 9;
const maxInt64 = 9223372036854775807n;
/** Our bound on e<n> exponents (see interpret). */
export const maxExponent = 1000;
const minInt64 = -9223372036854775808n;

export class Quantity {
  private constructor(
    /** value = unscaled · 10^-scale */
    readonly unscaled: bigint,
    readonly scale: number,
    readonly format: QuantityFormat,
  ) {}

  static fromInt(n: bigint, format: QuantityFormat = 'DecimalExponent'): Quantity {
    return new Quantity(n, 0, format);
  }

  /** resource.ParseQuantity. */
  static parse(str: string): Quantity {
    if (str.length === 0) throw new QuantityParseError(quantityErrors.formatWrong);
    if (str === '0') return new Quantity(0n, 0, 'DecimalSI');
    const { positive, num, denom, suffix } = split(str);
    const interpreted = interpret(suffix);
    if (!interpreted) throw new QuantityParseError(quantityErrors.suffix);
    const { base, exponent } = interpreted;
    let format = interpreted.format;
    let unscaled = BigInt(num + denom);
    let scale = denom.length;
    if (base === 10) scale -= exponent;
    else unscaled <<= BigInt(exponent);
    if (!positive) unscaled = -unscaled;
    // Non-zero values round up (away from zero) to the smallest representable unit: asking for
    // some resources gets some.
    if (unscaled !== 0n && scale > nanoScale) {
      unscaled = roundUp(unscaled, scale - nanoScale);
      scale = nanoScale;
    }
    let q = new Quantity(unscaled, scale, format);
    if (format === 'BinarySI') {
      const abs = q.abs();
      if (abs.cmp(Quantity.fromInt(maxInt64)) > 0) q = new Quantity(positive ? maxInt64 : -maxInt64, 0, format);
      if (abs.cmp(Quantity.fromInt(1n)) < 0 && unscaled !== 0n) format = 'DecimalSI';
      q = new Quantity(q.unscaled, q.scale, format);
    }
    return q;
  }

  /** Whether str parses (isQuantity). */
  static isValid(str: string): boolean {
    try {
      Quantity.parse(str);
      return true;
    } catch {
      return false;
    }
  }

  sign(): number {
    return this.unscaled > 0n ? 1 : this.unscaled < 0n ? -1 : 0;
  }

  isZero(): boolean {
    return this.unscaled === 0n;
  }

  cmp(o: Quantity): number {
    const [a, b] = align(this, o);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  equals(o: Quantity): boolean {
    return this.cmp(o) === 0;
  }

  /** Sum; keeps the receiver's format unless the receiver is zero (upstream's Add). */
  add(o: Quantity): Quantity {
    const [a, b] = align(this, o);
    return new Quantity(a + b, Math.max(this.scale, o.scale), this.isZero() ? o.format : this.format).normalized();
  }

  sub(o: Quantity): Quantity {
    return this.add(new Quantity(-o.unscaled, o.scale, o.format)).withFormat(this.isZero() ? o.format : this.format);
  }

  /** The exact int64 value, or undefined when the value has a fraction or does not fit (AsInt64). */
  asInt64(): bigint | undefined {
    const n = this.normalized();
    if (n.scale > 0) return undefined;
    const v = n.unscaled * 10n ** BigInt(-n.scale);
    return v > maxInt64 || v < minInt64 ? undefined : v;
  }

  asApproximateFloat(): number {
    return Number(`${this.unscaled}e${-this.scale}`);
  }

  /** The canonical form (Quantity.String, CanonicalizeBytes). */
  toString(): string {
    if (this.isZero()) return '0';
    let format = this.format;
    if (format === 'BinarySI') {
      const small = this.cmp(Quantity.fromInt(-1024n)) > 0 && this.cmp(Quantity.fromInt(1024n)) < 0;
      if (small || this.normalized().scale > 0) format = 'DecimalSI';
    }
    if (format === 'BinarySI') {
      const n = this.normalized();
      let amount = n.unscaled * 10n ** BigInt(-n.scale);
      let exp = 0;
      while (amount % 1024n === 0n) {
        amount /= 1024n;
        exp += 10;
      }
      return `${amount}${binaryByExponent.get(exp) ?? ''}`;
    }
    let amount = this.unscaled;
    let exp = -this.scale;
    while (amount % 10n === 0n) {
      amount /= 10n;
      exp++;
    }
    while (exp % 3 !== 0) {
      amount *= 10n;
      exp--;
    }
    if (format === 'DecimalExponent') return exp === 0 ? `${amount}` : `${amount}e${exp}`;
    // Beyond E (10^18) upstream finds no suffix and writes the number alone.
    return `${amount}${decimalByExponent.get(exp) ?? ''}`;
  }

  private abs(): Quantity {
    return new Quantity(this.unscaled < 0n ? -this.unscaled : this.unscaled, this.scale, this.format);
  }

  private withFormat(format: QuantityFormat): Quantity {
    return new Quantity(this.unscaled, this.scale, format);
  }

  /** Trailing zeros moved out of the fraction (the same value, smallest non-negative scale). */
  private normalized(): Quantity {
    let { unscaled, scale } = this;
    if (unscaled === 0n) return new Quantity(0n, 0, this.format);
    while (scale > 0 && unscaled % 10n === 0n) {
      unscaled /= 10n;
      scale--;
    }
    return new Quantity(unscaled, scale, this.format);
  }
}

function align(a: Quantity, b: Quantity): [bigint, bigint] {
  const s = Math.max(a.scale, b.scale);
  return [a.unscaled * 10n ** BigInt(s - a.scale), b.unscaled * 10n ** BigInt(s - b.scale)];
}

function roundUp(v: bigint, digits: number): bigint {
  const d = 10n ** BigInt(digits);
  const neg = v < 0n;
  const abs = neg ? -v : v;
  const r = (abs + d - 1n) / d;
  return neg ? -r : r;
}

/** upstream's parseQuantityString: sign, integer digits, fraction digits, suffix. */
function split(str: string): { positive: boolean; num: string; denom: string; suffix: string } {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') pos++;
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  const num = str.slice(pos, i) || '0';
  pos = i;
  let denom = '';
  if (str[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && isDigit(str[i])) i++;
    denom = str.slice(pos, i);
    pos = i;
  }
  const suffixStart = pos;
  while (pos < end && suffixChars.includes(str[pos]!)) pos++;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  // A character that is neither a suffix letter nor an exponent digit.
  if (pos < end) throw new QuantityParseError(quantityErrors.formatWrong);
  return { positive, num, denom, suffix: str.slice(suffixStart) };
}

function interpret(suffix: string): { base: 2 | 10; exponent: number; format: QuantityFormat } | undefined {
  const dec = decimalSuffixes[suffix];
  if (dec !== undefined) return { base: 10, exponent: dec, format: 'DecimalSI' };
  const bin = binarySuffixes[suffix];
  if (bin !== undefined) return { base: 2, exponent: bin, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E')) {
    const e = suffix.slice(1);
    if (!/^[+-]?[0-9]+$/.test(e)) return undefined;
    const n = Number(e);
    // Upstream accepts any int32 exponent (inf.Dec keeps it symbolic); exact BigInt arithmetic
    // would materialise 10^n, so exponents past ±maxExponent are refused as an invalid suffix.
    if (!Number.isSafeInteger(n) || Math.abs(n) > maxExponent) return undefined;
    return { base: 10, exponent: n, format: 'DecimalExponent' };
  }
  return undefined;
}
