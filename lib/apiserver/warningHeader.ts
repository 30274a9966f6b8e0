// The Warning headers of a response, as upstream writes them (k8s.io/apiserver
// endpoints/filters/warning.go recorder; apimachinery util/net NewWarningHeader):
// - each text once (the first time it was added), empty texts skipped;
// - `299 - "<text>"` with only `"` and `\` escaped; a text that is not valid UTF-8 or holds a
//   control character (unicode.IsControl) gets no header;
// - at most 4 Ki runes of text in all: the warning that would pass it turns truncation on, every
//   warning so far is written again cut to 256 runes, later ones are cut as well and written while
//   fewer than 4 Ki runes went out (the last may pass it), the rest dropped.
// Go writes header values as raw UTF-8 bytes; Node refuses characters above U+00FF in a header and
// writes each one as a single byte, so the UTF-8 bytes are passed one character per byte.

export interface WarningLimits {
  /** Upstream's truncateAtTotalRunes. */
  totalRunes: number;
  /** Upstream's truncateItemRunes. */
  itemRunes: number;
}

export const warningLimits: WarningLimits = { totalRunes: 4 * 1024, itemRunes: 256 };

/** A lone surrogate: what a JavaScript string has where Go's would hold invalid UTF-8. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const loneSurrogates = new RegExp(loneSurrogate.source, 'g');

/** Go's unicode.IsControl: C0, DEL and C1. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

/** Upstream's makeQuotedString: `"` and `\` escaped, everything else as it is. */
function quoted(text: string): string {
  return `"${text.replace(/["\\]/g, '\\$&')}"`;
}

function headerValue(text: string): string | undefined {
  if (loneSurrogate.test(text) || hasControl(text)) return undefined;
  return Buffer.from(`299 - ${quoted(text)}`, 'utf8').toString('latin1');
}

/**
 * The text cut to `max` runes (code points: a string's iterator yields them). Go cuts through
 * []rune, which turns invalid UTF-8 into U+FFFD; a lone surrogate becomes U+FFFD here likewise.
 */
function cut(runes: string[], max: number): string {
  return runes.length > max ? runes.slice(0, max).join('').replace(loneSurrogates, '\uFFFD') : runes.join('');
}

/** The Warning header values for texts, in the order they were added. */
export function warningHeaderValues(texts: readonly string[], limits: WarningLimits = warningLimits): string[] {
  const { totalRunes, itemRunes } = limits;
  const seen = new Set<string>();
  const ordered: string[][] = [];
  let out: string[] = [];
  let written = 0;
  let truncating = false;
  for (const text of texts) {
    if (text.length === 0) continue;
    if (truncating && written >= totalRunes) break;
    if (seen.has(text)) continue;
    seen.add(text);
    const runes = [...text];
    ordered.push(runes);
    const value = headerValue(truncating ? cut(runes, itemRunes) : text);
    if (value === undefined) continue;
    const length = truncating ? Math.min(runes.length, itemRunes) : runes.length;
    if (truncating || written + length <= totalRunes) {
      written += length;
      out.push(value);
      continue;
    }
    // Over the limit for the first time: every warning so far again, each cut to itemRunes.
    truncating = true;
    written = 0;
    out = [];
    for (const r of ordered) {
      const v = headerValue(cut(r, itemRunes));
      if (v === undefined) continue;
      written += Math.min(r.length, itemRunes);
      out.push(v);
    }
  }
  return out;
}
