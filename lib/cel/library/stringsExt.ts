// The parts of cel-go's ext.Strings (version 2, upstream's admission environment) that cel-js
// lacks: charAt, replace and strings.quote. cel-js has indexOf, lastIndexOf, lowerAscii,
// upperAscii, split, substring, trim and join. Strings are indexed by code point, as cel-go's runes.
import { traversalCost } from '../cost';
import type { CelFunction, CelLibrary } from './types';

export class StringsNamespace {}

function charAt(s: string, i: bigint): string {
  const runes = Array.from(s);
  if (i < 0n || i > BigInt(runes.length)) throw new Error(`index out of range: ${i}`);
  return runes[Number(i)] ?? '';
}

/** Go's strings.Replace: n < 0 replaces all; an empty `old` matches before every rune and at the end. */
function replace(s: string, old: string, rep: string, n: bigint): string {
  if (n === 0n) return s;
  if (old === '') {
    const runes = Array.from(s);
    let out = '';
    let done = 0n;
    for (let i = 0; i <= runes.length; i++) {
      if (n < 0n || done < n) {
        out += rep;
        done++;
      }
      out += runes[i] ?? '';
    }
    return out;
  }
  const parts = s.split(old);
  if (n < 0n || BigInt(parts.length - 1) <= n) return parts.join(rep);
  const k = Number(n);
  return parts.slice(0, k + 1).join(rep) + old + parts.slice(k + 1).join(old);
}

const quoteEscapes: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\', '"': '\\"' };

/** cel-go's strings.quote: double quotes, backslash escapes for the C escapes, the rest as is. */
function quote(s: string): string {
  let out = '"';
  for (const c of s) out += quoteEscapes[c] ?? c;
  return `${out}"`;
}

const functions: CelFunction[] = [
  { signature: 'string.charAt(int): string', cost: () => 1, handler: (s, i) => charAt(s as string, i as bigint) },
  { signature: 'string.replace(string, string): string', cost: (s) => 2 * traversalCost(s), handler: (s, o, r) => replace(s as string, o as string, r as string, -1n) },
  { signature: 'string.replace(string, string, int): string', cost: (s) => 2 * traversalCost(s), handler: (s, o, r, n) => replace(s as string, o as string, r as string, n as bigint) },
  { signature: 'kubernetes.StringsFunctions.quote(string): string', cost: (_ns, s) => traversalCost(s), handler: (_ns, s) => quote(s as string) },
];

export const stringsExtLibrary: CelLibrary = {
  types: [{ name: 'kubernetes.StringsFunctions', ctor: StringsNamespace }],
  functions,
  constants: [{ name: 'strings', type: 'kubernetes.StringsFunctions', value: new StringsNamespace() }],
};
