// Upstream's regex library (apiserver/pkg/cel/library/regex.go): find and findAll, declared here
// for the checker. Evaluation runs on the linear-time RE2 engine; in a compiled program the call
// nodes are taken over (regexCalls.ts), which charges them before they match.
import { LinearRegex, RegexSyntaxError } from '../../machinery/linearRegex';
import { upstreamRegexCost } from '../regexCalls';
import type { CelFunction } from './types';

function compile(re: string): LinearRegex {
  try {
    return LinearRegex.compile(re);
  } catch (e) {
    if (e instanceof RegexSyntaxError) throw new Error(e.message);
    throw e;
  }
}

const cost = (s: unknown, r: unknown): number => upstreamRegexCost(s as string, r as string);

export const regexFunctions: readonly CelFunction[] = [
  { signature: 'string.find(string): string', cost, handler: (s, r) => compile(r as string).find(s as string) },
  { signature: 'string.findAll(string): list<string>', cost, handler: (s, r) => compile(r as string).findAll(s as string, -1) },
  { signature: 'string.findAll(string, int): list<string>', cost, handler: (s, r, n) => compile(r as string).findAll(s as string, Number(n as bigint)) },
];
