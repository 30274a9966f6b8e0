// Go's strconv behaviour where its exact text reaches clients: %q quoting, %#U, and the
// integer parsers whose error messages the API returns verbatim (query parameters, RVs).

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** unicode.IsPrint: categories L, M, N, P, S plus the ASCII space. */
export function goIsPrint(cp: number): boolean {
  return cp === 0x20 || printable.test(String.fromCodePoint(cp));
}

const shortEscapes: Record<number, string> = {
  0x07: '\\a',
  0x08: '\\b',
  0x0c: '\\f',
  0x0a: '\\n',
  0x0d: '\\r',
  0x09: '\\t',
  0x0b: '\\v',
};

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** Go's strconv.Quote (the %q verb for strings). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    let cp = ch.codePointAt(0) as number;
    // A lone surrogate cannot come from valid UTF-8; Go would see U+FFFD.
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp === 0x22 || cp === 0x5c) out += `\\${String.fromCharCode(cp)}`;
    else if (goIsPrint(cp)) out += String.fromCodePoint(cp);
    else if (shortEscapes[cp]) out += shortEscapes[cp];
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (cp < 0x10000) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return `${out}"`;
}

/** Go's %#U: "U+0007", plus " 'x'" when the rune is printable. */
export function goFormatRune(cp: number): string {
  const u = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return goIsPrint(cp) ? `${u} '${String.fromCodePoint(cp)}'` : u;
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;
const uint64Max = 2n ** 64n - 1n;

export type GoParseResult = { ok: true; value: bigint } | { ok: false; error: string };

/** strconv.ParseInt(s, 10, 64). */
export function goParseInt64(s: string): GoParseResult {
  const fn = 'strconv.ParseInt';
  if (!/^[+-]?[0-9]+$/.test(s)) return { ok: false, error: `${fn}: parsing ${goQuote(s)}: invalid syntax` };
  const v = BigInt(s);
  if (v < int64Min || v > int64Max) return { ok: false, error: `${fn}: parsing ${goQuote(s)}: value out of range` };
  return { ok: true, value: v };
}

/** strconv.ParseUint(s, 10, 64). */
export function goParseUint64(s: string): GoParseResult {
  const fn = 'strconv.ParseUint';
  if (!/^[0-9]+$/.test(s)) return { ok: false, error: `${fn}: parsing ${goQuote(s)}: invalid syntax` };
  const v = BigInt(s);
  if (v > uint64Max) return { ok: false, error: `${fn}: parsing ${goQuote(s)}: value out of range` };
  return { ok: true, value: v };
}

/** strconv.Atoi on a 64-bit platform; undefined when Go would fail. */
export function goAtoi(s: string): number | undefined {
  const r = goParseInt64(s);
  return r.ok ? Number(r.value) : undefined;
}

/** Query-parameter booleans: only "0" and "false" (any case) are false; anything else is true. */
export function goQueryBool(s: string): boolean {
  return !(s === '0' || s.toLowerCase() === 'false');
}
