// upstream's URL library (apiserver/pkg/cel/library/urls.go): url() and isURL() accept what
// Go's url.ParseRequestURI accepts (an absolute URI or an absolute path); the accessors read
// the url.Parse result. Parsing costs a traversal of the string, accessors 1 (library/cost.go).
import { parseRequestURI, parseURL, urlEscapedPath, urlHostname, urlPort, urlQuery } from '../../machinery/goUrl';
import type { GoURL } from '../../machinery/goUrl';
import { traversalCost } from '../cost';
import type { CelFunction, CelLibrary } from './types';

export class URLValue {
  constructor(
    readonly url: GoURL,
    /** the parsed text, for equality (upstream compares URL.String()) */
    readonly text: string,
  ) {}
}

function toURL(s: string): URLValue {
  try {
    parseRequestURI(s);
    // Parsed again without the request form: ParseRequestURI keeps a fragment in the path or query.
    return new URLValue(parseURL(s), s);
  } catch (e) {
    throw new Error(`URL parse error during conversion from string: ${(e as Error).message}`);
  }
}

function isURL(s: string): boolean {
  try {
    parseRequestURI(s);
    return true;
  } catch {
    return false;
  }
}

const one = (): number => 1;
const u = (v: unknown): GoURL => (v as URLValue).url;

const functions: CelFunction[] = [
  { signature: 'url(string): kubernetes.URL', cost: (s) => traversalCost(s), handler: (s) => toURL(s as string) },
  { signature: 'isURL(string): bool', cost: (s) => traversalCost(s), handler: (s) => isURL(s as string) },
  { signature: 'kubernetes.URL.getScheme(): string', cost: one, handler: (v) => u(v).scheme },
  { signature: 'kubernetes.URL.getHost(): string', cost: one, handler: (v) => u(v).host },
  { signature: 'kubernetes.URL.getHostname(): string', cost: one, handler: (v) => urlHostname(u(v)) },
  { signature: 'kubernetes.URL.getPort(): string', cost: one, handler: (v) => urlPort(u(v)) },
  { signature: 'kubernetes.URL.getEscapedPath(): string', cost: one, handler: (v) => urlEscapedPath(u(v)) },
  { signature: 'kubernetes.URL.getQuery(): map<string, list<string>>', cost: one, handler: (v) => Object.fromEntries(urlQuery(u(v))) },
];

export const urlLibrary: CelLibrary = {
  types: [{ name: 'kubernetes.URL', ctor: URLValue }],
  functions,
  operators: [{ signature: 'kubernetes.URL == kubernetes.URL', handler: (a, b) => (a as URLValue).text === (b as URLValue).text }],
};
