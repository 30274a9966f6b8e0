// upstream's quantity library (apiserver/pkg/cel/library/quantity.go) over lib/machinery's
// Quantity: quantity(), isQuantity(), sign(), the comparisons, add/sub and the conversions.
// Parsing costs a traversal of the string; every method costs 1 (library/cost.go).
import { Quantity } from '../../machinery/quantity';
import { traversalCost } from '../cost';
import type { CelFunction, CelLibrary } from './types';

const one = (): number => 1;
const parseCost = (s: unknown): number => traversalCost(s);
const q = (v: unknown): Quantity => v as Quantity;

const functions: CelFunction[] = [
  { signature: 'quantity(string): kubernetes.Quantity', cost: parseCost, handler: (s) => Quantity.parse(s as string) },
  { signature: 'isQuantity(string): bool', cost: parseCost, handler: (s) => Quantity.isValid(s as string) },
  // Upstream declares only the global overload (quantity_sign), so there `q.sign()` fails to
  // compile although its documentation and the spec list the member form; we serve both.
  { signature: 'sign(kubernetes.Quantity): int', cost: one, handler: (a) => BigInt(q(a).sign()) },
  { signature: 'kubernetes.Quantity.sign(): int', cost: one, handler: (a) => BigInt(q(a).sign()) },
  { signature: 'kubernetes.Quantity.isGreaterThan(kubernetes.Quantity): bool', cost: one, handler: (a, b) => q(a).cmp(q(b)) === 1 },
  { signature: 'kubernetes.Quantity.isLessThan(kubernetes.Quantity): bool', cost: one, handler: (a, b) => q(a).cmp(q(b)) === -1 },
  { signature: 'kubernetes.Quantity.compareTo(kubernetes.Quantity): int', cost: one, handler: (a, b) => BigInt(q(a).cmp(q(b))) },
  { signature: 'kubernetes.Quantity.asApproximateFloat(): double', cost: one, handler: (a) => q(a).asApproximateFloat() },
  {
    signature: 'kubernetes.Quantity.asInteger(): int',
    cost: one,
    handler: (a) => {
      const v = q(a).asInt64();
      if (v === undefined) throw new Error('cannot convert value to integer');
      return v;
    },
  },
  { signature: 'kubernetes.Quantity.isInteger(): bool', cost: one, handler: (a) => q(a).asInt64() !== undefined },
  { signature: 'kubernetes.Quantity.add(kubernetes.Quantity): kubernetes.Quantity', cost: one, handler: (a, b) => q(a).add(q(b)) },
  { signature: 'kubernetes.Quantity.add(int): kubernetes.Quantity', cost: one, handler: (a, n) => q(a).add(Quantity.fromInt(n as bigint)) },
  { signature: 'kubernetes.Quantity.sub(kubernetes.Quantity): kubernetes.Quantity', cost: one, handler: (a, b) => q(a).sub(q(b)) },
  { signature: 'kubernetes.Quantity.sub(int): kubernetes.Quantity', cost: one, handler: (a, n) => q(a).sub(Quantity.fromInt(n as bigint)) },
];

export const quantityLibrary: CelLibrary = {
  types: [{ name: 'kubernetes.Quantity', ctor: Quantity as unknown as new (...args: never[]) => unknown }],
  functions,
  operators: [{ signature: 'kubernetes.Quantity == kubernetes.Quantity', handler: (a, b) => q(a).equals(q(b)) }],
};
