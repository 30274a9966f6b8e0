// client-go's UnquoteExtend: strconv.Unquote that also takes single-quoted strings.
// Escapes follow strconv.UnquoteChar; \x and octal escapes are bytes, so the result is
// assembled as UTF-8 bytes and decoded (invalid sequences become U+FFFD, as Go prints them).

/** strconv.ErrSyntax's text. */
export const errSyntax = 'invalid syntax';

const simple: Readonly<Record<string, number>> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 0x5c };
const utf8 = new TextDecoder('utf-8', { fatal: false });
const encoder = new TextEncoder();

function hexDigit(c: string): number {
  const code = c.charCodeAt(0);
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x61 + 10;
  if (code >= 0x41 && code <= 0x46) return code - 0x41 + 10;
  return -1;
}

/** The unquoted text, or undefined where Go returns ErrSyntax. */
export function unquoteExtend(s: string): string | undefined {
  if (s.length < 2) return undefined;
  const quote = s[0];
  if (quote !== s[s.length - 1]) return undefined;
  if (quote !== '"' && quote !== "'") return undefined;
  const body = s.slice(1, -1);
  if (!body.includes('\\') && !body.includes(quote)) return body;
  const bytes: number[] = [];
  let i = 0;
  while (i < body.length) {
    const c = body[i];
    if (c === quote) return undefined;
    if (c !== '\\') {
      const cp = body.codePointAt(i) as number;
      const ch = String.fromCodePoint(cp);
      for (const b of encoder.encode(ch)) bytes.push(b);
      i += ch.length;
      continue;
    }
    if (i + 1 >= body.length) return undefined;
    const e = body[i + 1];
    i += 2;
    if (e in simple) {
      bytes.push(simple[e]);
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      if (body.length - i < n) return undefined;
      let v = 0;
      for (let j = 0; j < n; j++) {
        const x = hexDigit(body[i + j]);
        if (x < 0) return undefined;
        v = v * 16 + x;
      }
      i += n;
      if (e === 'x') bytes.push(v);
      else {
        // utf8.ValidRune: no surrogates, at most U+10FFFF.
        if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return undefined;
        for (const b of encoder.encode(String.fromCodePoint(v))) bytes.push(b);
      }
    } else if (e >= '0' && e <= '7') {
      if (body.length - i < 2) return undefined;
      let v = e.charCodeAt(0) - 0x30;
      for (let j = 0; j < 2; j++) {
        const x = body.charCodeAt(i + j) - 0x30;
        if (x < 0 || x > 7) return undefined;
        v = v * 8 + x;
      }
      i += 2;
      if (v > 255) return undefined;
      bytes.push(v);
    } else if (e === "'" || e === '"') {
      if (e !== quote) return undefined;
      bytes.push(e.charCodeAt(0));
    } else {
      return undefined;
    }
  }
  return utf8.decode(Uint8Array.from(bytes));
}
