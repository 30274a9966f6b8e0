// Upstream's list library (apiserver/pkg/cel/library/lists.go): isSorted, sum, min, max,
// indexOf, lastIndexOf. Cost: one unit per element walked (library/cost.go).
import type { CelFunction } from './types';
import { celCompare, celEquals } from './compare';

function minMax(name: 'min' | 'max', sign: number) {
  return function (this: unknown, list: unknown[]): unknown {
    if (list.length === 0) throw new Error(`${name}(list) called on empty list`);
    let best = list[0];
    for (const x of list.slice(1)) if (celCompare(x, best) * sign < 0) best = x;
    return best;
  };
}

function sum(list: unknown[]): unknown {
  if (list.length === 0) return 0n;
  let acc = list[0] as bigint | number;
  for (const x of list.slice(1)) {
    if (typeof acc !== typeof x) throw new Error('no such overload');
    acc = (acc as number) + (x as number);
  }
  if (typeof acc === 'bigint' && (acc > 9223372036854775807n || acc < -9223372036854775808n)) throw new Error('integer overflow');
  return acc;
}

function lastIndexOf(list: unknown[], x: unknown): bigint {
  for (let i = list.length - 1; i >= 0; i--) if (celEquals(list[i], x)) return BigInt(i);
  return -1n;
}

export const listFunctions: readonly CelFunction[] = [
  { signature: 'list.isSorted(): bool', cost: (l) => (l as unknown[]).length, handler: (l) => (l as unknown[]).every((x, i, a) => i === 0 || celCompare(a[i - 1], x) <= 0) },
  { signature: 'list.sum(): dyn', cost: (l) => (l as unknown[]).length, handler: (l) => sum(l as unknown[]) },
  { signature: 'list.min(): dyn', cost: (l) => (l as unknown[]).length, handler: (l) => minMax('min', 1)(l as unknown[]) },
  { signature: 'list.max(): dyn', cost: (l) => (l as unknown[]).length, handler: (l) => minMax('max', -1)(l as unknown[]) },
  { signature: 'list.indexOf(dyn): int', cost: (l) => (l as unknown[]).length, handler: (l, x) => BigInt((l as unknown[]).findIndex((e) => celEquals(e, x))) },
  { signature: 'list.lastIndexOf(dyn): int', cost: (l) => (l as unknown[]).length, handler: (l, x) => lastIndexOf(l as unknown[], x) },
];
