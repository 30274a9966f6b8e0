// Go's text renderings that upstream error messages embed (strconv.Quote, the JSON
// scanner's quoteChar, %#v of a string). Kept exact so messages match byte for byte.

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

function escapeRune(cp: number): string {
  switch (cp) {
    case 0x07:
      return '\\a';
    case 0x08:
      return '\\b';
    case 0x0c:
      return '\\f';
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
    case 0x09:
      return '\\t';
    case 0x0b:
      return '\\v';
  }
  if (cp < 0x20 || cp === 0x7f) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\U${cp.toString(16).padStart(8, '0')}`;
}

/** Go's strconv.Quote: double quotes, printable runes kept, the rest escaped. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\\ufffd'; // a lone surrogate is invalid UTF-8 in Go
    else if (printable.test(ch)) out += ch;
    else out += escapeRune(cp);
  }
  return `${out}"`;
}

/** The JSON scanner's quoteChar(c) for one input byte. */
export function goQuoteByte(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return `'"'`;
  // Go quotes string(c), i.e. the rune U+00XX, then swaps the quote marks.
  const q = goQuote(String.fromCharCode(c));
  return `'${q.slice(1, -1)}'`;
}
