// cel-go's ext.Sets (in upstream's admission environment): sets.contains(list, sublist),
// sets.equivalent(a, b) and sets.intersects(a, b), with CEL equality. Cost: the product of
// the two sizes (each element of one compared with the other's).
import { celEquals } from './compare';
import type { CelFunction, CelLibrary } from './types';

export class SetsNamespace {}

const has = (list: unknown[], x: unknown): boolean => list.some((y) => celEquals(y, x));
const contains = (a: unknown[], b: unknown[]): boolean => b.every((x) => has(a, x));
const product = (_ns: unknown, a: unknown, b: unknown): number => Math.max(1, (a as unknown[]).length * (b as unknown[]).length);

const functions: CelFunction[] = [
  { signature: 'kubernetes.SetsFunctions.contains(list, list): bool', cost: product, handler: (_ns, a, b) => contains(a as unknown[], b as unknown[]) },
  {
    signature: 'kubernetes.SetsFunctions.equivalent(list, list): bool',
    cost: product,
    handler: (_ns, a, b) => contains(a as unknown[], b as unknown[]) && contains(b as unknown[], a as unknown[]),
  },
  { signature: 'kubernetes.SetsFunctions.intersects(list, list): bool', cost: product, handler: (_ns, a, b) => (a as unknown[]).some((x) => has(b as unknown[], x)) },
];

export const setsLibrary: CelLibrary = {
  types: [{ name: 'kubernetes.SetsFunctions', ctor: SetsNamespace }],
  functions,
  constants: [{ name: 'sets', type: 'kubernetes.SetsFunctions', value: new SetsNamespace() }],
};
