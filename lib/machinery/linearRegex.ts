// Regular expressions that come from API objects (CEL matches/find/findAll, a schema's pattern)
// run with RE2 semantics in linear time, as upstream's Go regexp does: re2js is a port of Go's
// regexp package (same syntax, same limits, same error texts). JavaScript's backtracking RegExp let
// one 34-character value hold the event loop for minutes.
import { RE2JS, RE2JSException } from 're2js';
import { regexProgramSize } from './regexProgramSize';

/** A pattern RE2 refuses; the message is Go's (`error parsing regexp: …`). */
export class RegexSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegexSyntaxError';
  }
}

/** Go's regexp.ErrLarge text: refused before compiling, past what the caller allows. */
export const regexTooLargeMessage = 'error parsing regexp: expression too large';

export class LinearRegex {
  private constructor(
    private readonly re: RE2JS,
    /** The compiled program's instructions: a match costs O(input length × size). */
    readonly size: number,
  ) {}

  /**
   * Compiles `pattern` (Go syntax), or takes it from the cache. Compiling costs time per
   * instruction, so before it does, the program's size is estimated: over `maxSize` the pattern
   * is refused, and `beforeCompiling` (a cost tracker's charge) may stop it.
   */
  static compile(pattern: string, opts: { maxSize?: number; beforeCompiling?: (estimatedSize: number) => void } = {}): LinearRegex {
    const maxSize = opts.maxSize ?? Number.POSITIVE_INFINITY;
    const cached = cache.get(pattern);
    if (cached) {
      // Re-inserted: the map's order is the least recently used first.
      cache.delete(pattern);
      cache.set(pattern, cached);
      if (cached.size > maxSize) throw new RegexSyntaxError(regexTooLargeMessage);
      return cached;
    }
    const estimate = regexProgramSize(pattern);
    if (estimate > maxSize) throw new RegexSyntaxError(regexTooLargeMessage);
    opts.beforeCompiling?.(estimate);
    let re: RE2JS;
    try {
      re = RE2JS.compile(pattern);
    } catch (e) {
      if (e instanceof RE2JSException) throw new RegexSyntaxError(e.message);
      throw e;
    }
    const compiled = new LinearRegex(re, re.matcher('').programSize());
    cache.set(pattern, compiled);
    if (cache.size > cacheEntries) cache.delete(cache.keys().next().value!);
    return compiled;
  }

  /** Go's MatchString: is there a match anywhere in s. */
  test(s: string): boolean {
    return this.re.matcher(s).find();
  }

  /** Go's FindString: the leftmost match, '' when there is none. */
  find(s: string): string {
    const m = this.re.matcher(s);
    return m.find() ? (m.group() ?? '') : '';
  }

  /**
   * Go's FindAllString(s, n): successive non-overlapping matches, at most n when n ≥ 0; an empty
   * match right after the previous match is skipped, as Go does (Java's find() would keep it).
   */
  findAll(s: string, n: number): string[] {
    const out: string[] = [];
    if (n === 0) return out;
    const m = this.re.matcher(s);
    let pos = 0;
    let prevEnd = -1;
    while ((n < 0 || out.length < n) && pos <= s.length && m.find(pos)) {
      const start = m.start();
      const end = m.end();
      let accept = true;
      if (end === start) {
        if (start === prevEnd) accept = false;
        // Past one code point: a surrogate pair is one rune.
        const c = s.charCodeAt(end);
        pos = end + (c >= 0xd800 && c <= 0xdbff && end + 1 < s.length ? 2 : 1);
      } else pos = end;
      prevEnd = end;
      if (accept) out.push(s.slice(start, end));
    }
    return out;
  }
}

/** Compiled patterns by source, least recently used first (policies reuse a few patterns). */
const cache = new Map<string, LinearRegex>();
const cacheEntries = 512;
