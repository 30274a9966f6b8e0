// CEL equality and ordering over the values lib/cel hands the library (BigInt, number, string,
// bool, bytes, lists, maps), used by the list library.

/** cel-js's uint values (UnsignedInt, not exported by the package) hold a bigint behind valueOf(). */
function isUint(x: unknown): x is { valueOf(): bigint } {
  return typeof x === 'object' && x !== null && x.constructor?.name === 'UnsignedInt';
}

export function celEquals(a: unknown, b: unknown): boolean {
  // Numbers compare across int, uint and double, as cel-go's heterogeneous equality.
  if (isUint(a)) a = a.valueOf();
  if (isUint(b)) b = b.valueOf();
  if (typeof a === 'bigint' && typeof b === 'number') return Number(a) === b;
  if (typeof a === 'number' && typeof b === 'bigint') return a === Number(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => celEquals(x, b[i]));
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((x, i) => x === b[i]);
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const rb = b as Record<string, unknown>;
    return ka.length === Object.keys(b).length && ka.every((k) => k in rb && celEquals((a as Record<string, unknown>)[k], rb[k]));
  }
  return a === b;
}

/** <0, 0, >0 like cel-go's Compare; throws for values without an order. */
export function celCompare(a: unknown, b: unknown): number {
  const ordered = (x: unknown) => ['bigint', 'number', 'string', 'boolean'].includes(typeof x);
  if (!ordered(a) || !ordered(b) || (typeof a === 'string') !== (typeof b === 'string')) {
    throw new Error('no such overload');
  }
  const x = a as bigint | number | string | boolean;
  const y = b as bigint | number | string | boolean;
  return x < y ? -1 : x > y ? 1 : 0;
}
