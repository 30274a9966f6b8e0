// Media type parsing for Content-Type and Accept headers, with upstream's quirks.

export interface MediaType {
  /** Lower-cased "type/subtype", or "" when the header is absent or empty. */
  mediaType: string;
  /** Parameters with lower-cased names and unquoted values. */
  params: Record<string, string>;
}

function unquote(v: string): string {
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) return v.slice(1, -1).replace(/\\(.)/g, '$1');
  return v;
}

/** Parses a Content-Type header ("application/json; charset=utf-8"). */
export function mediaTypeOf(header: string | undefined): MediaType {
  if (!header) return { mediaType: '', params: {} };
  const [type, ...rest] = header.split(';');
  const params: Record<string, string> = {};
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    const k = p.slice(0, eq).trim().toLowerCase();
    if (k) params[k] = unquote(p.slice(eq + 1).trim());
  }
  return { mediaType: type.trim().toLowerCase(), params };
}

export interface AcceptClause {
  type: string;
  subType: string;
  /** Parameters other than q, values trimmed. */
  params: Record<string, string>;
  q: number;
}

/** Go's strconv.ParseFloat syntax (no surrounding space); anything else parses as 0 upstream. */
const goFloat = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan)$/i;

/**
 * goautoneg.ParseAccept: clauses in the order upstream tries them. Its Less puts a
 * higher q first, else a concrete type before "*", else a concrete subtype before "*";
 * Go sorts short lists by insertion sort, which is stable, so equal clauses keep order.
 */
export function parseAccept(header: string): AcceptClause[] {
  const out: AcceptClause[] = [];
  for (const rawPart of header.split(',')) {
    const part = rawPart.replace(/^ +| +$/g, '');
    const [range, ...ps] = part.split(';');
    const sp = range.split('/');
    const type = sp[0].replace(/^ +| +$/g, '');
    let subType: string;
    if (sp.length === 1 && type === '*') subType = '*';
    else if (sp.length === 2) subType = sp[1].replace(/^ +| +$/g, '');
    else continue;
    const clause: AcceptClause = { type, subType, params: {}, q: 1 };
    for (const p of ps) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const token = p.slice(0, eq).replace(/^ +| +$/g, '');
      const value = p.slice(eq + 1);
      if (token === 'q') clause.q = goFloat.test(value) ? Math.fround(Number(value)) || 0 : 0;
      else clause.params[token] = value.replace(/^ +| +$/g, '');
    }
    out.push(clause);
  }
  const less = (a: AcceptClause, b: AcceptClause): boolean =>
    a.q > b.q || (a.type !== '*' && b.type === '*') || (a.subType !== '*' && b.subType === '*');
  for (let i = 1; i < out.length; i++) {
    for (let j = i; j > 0 && less(out[j], out[j - 1]); j--) [out[j], out[j - 1]] = [out[j - 1], out[j]];
  }
  return out;
}
