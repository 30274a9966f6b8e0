// Upstream's regex library (apiserver/pkg/cel/library/regex.go): find and findAll. Cost is
// about length(regex)·length(input) (library/cost.go). JavaScript RegExp stands in for RE2.
import { regexCost } from '../cost';
import type { CelFunction } from './types';

function compile(re: string, flags = ''): RegExp {
  try {
    return new RegExp(re, flags);
  } catch (e) {
    throw new Error(`error parsing regexp: ${(e as Error).message}`);
  }
}

function findAll(s: string, re: string, limit: bigint): string[] {
  if (limit === 0n) return [];
  const out: string[] = [];
  for (const m of s.matchAll(compile(re, 'g'))) {
    out.push(m[0]);
    if (limit > 0n && BigInt(out.length) >= limit) break;
  }
  return out;
}

export const regexFunctions: readonly CelFunction[] = [
  { signature: 'string.find(string): string', cost: (s, r) => regexCost(s as string, r as string), handler: (s, r) => compile(r as string).exec(s as string)?.[0] ?? '' },
  { signature: 'string.findAll(string): list<string>', cost: (s, r) => regexCost(s as string, r as string), handler: (s, r) => findAll(s as string, r as string, -1n) },
  { signature: 'string.findAll(string, int): list<string>', cost: (s, r) => regexCost(s as string, r as string), handler: (s, r, n) => findAll(s as string, r as string, n as bigint) },
];
