// CEL's heterogeneous numeric equality (cel-go's default, in upstream's environments):
// int, uint and double compare by value, so `1 == 1.0` and `1u == 1` are true. cel-js has no
// such overloads for scalars; lists and maps of mixed numeric types still do not compare.
import type { CelLibrary, CelOperator } from './types';

/** A number's exact value: bigint for int and uint (cel-js's UnsignedInt holds one), or a double. */
function numeric(v: unknown): bigint | number {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  return (v as { valueOf(): bigint }).valueOf();
}

function equal(a: unknown, b: unknown): boolean {
  const x = numeric(a);
  const y = numeric(b);
  if (typeof x === typeof y) return x === y;
  const [i, d] = typeof x === 'bigint' ? [x, y as number] : [y as bigint, x];
  return Number.isInteger(d) && BigInt(d) === i;
}

const operators: CelOperator[] = ['int == double', 'int == uint', 'uint == double'].map((signature) => ({ signature, handler: equal }));

export const numericEqualityLibrary: CelLibrary = { functions: [], operators };
