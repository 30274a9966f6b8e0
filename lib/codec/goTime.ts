// metav1.Time on the wire: parsed with Go's time.Parse(time.RFC3339, s) — which is more
// lenient than RFC 3339 (one-digit hours, any fraction) and has its own error wording —
// and always written back as UTC whole seconds with a Z.

const rfc3339Layout = '2006-01-02T15:04:05Z07:00';

/** Go's time.quote: ASCII kept, quotes and backslashes escaped, other bytes as \xNN. */
function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp >= 0x80 || cp < 0x20) {
      for (const byte of Buffer.from(ch, 'utf8')) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return `${out}"`;
}

export class TimeParseError extends Error {
  constructor(value: string, valueElem: string, layoutElem: string, message = '') {
    super(
      message
        ? `parsing time ${timeQuote(value)}${message}`
        : `parsing time ${timeQuote(value)} as ${timeQuote(rfc3339Layout)}: cannot parse ${timeQuote(valueElem)} as ${timeQuote(layoutElem)}`,
    );
    this.name = 'TimeParseError';
  }
}

const isDigitAt = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39;

/** Go's getnum: one or two digits (exactly two when fixed). */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigitAt(s, 0)) return undefined;
  if (!isDigitAt(s, 1)) {
    if (fixed) return undefined;
    return [s.charCodeAt(0) - 0x30, s.slice(1)];
  }
  return [(s.charCodeAt(0) - 0x30) * 10 + (s.charCodeAt(1) - 0x30), s.slice(2)];
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Milliseconds since the epoch, or throws TimeParseError with Go's message. */
// [literal prefix, element] for each element of the RFC 3339 layout.
const rfc3339Steps: ReadonlyArray<readonly [string, '2006' | '01' | '02' | '15' | '04' | '05']> = [
  ['', '2006'],
  ['-', '01'],
  ['-', '02'],
  ['T', '15'],
  [':', '04'],
  [':', '05'],
];
const rfc3339Ranges: Readonly<Record<string, readonly [number, number, string]>> = {
  '01': [1, 12, 'month'],
  '15': [0, 23, 'hour'],
  '04': [0, 59, 'minute'],
  '05': [0, 59, 'second'],
};

export function parseGoRFC3339(value: string): number {
  let v = value;
  const fields: number[] = [];
  const steps = rfc3339Steps;
  const ranges = rfc3339Ranges;
  for (const [prefix, elem] of steps) {
    if (prefix) {
      if (v.length === 0 || v[0] !== prefix) throw new TimeParseError(value, v, prefix);
      v = v.slice(1);
    }
    const hold = v;
    let n: number;
    if (elem === '2006') {
      if (v.length < 4 || !isDigitAt(v, 0) || !/^\d{4}$/.test(v.slice(0, 4))) throw new TimeParseError(value, hold, elem);
      n = Number(v.slice(0, 4));
      v = v.slice(4);
    } else {
      const got = getnum(v, elem !== '15');
      if (!got) throw new TimeParseError(value, hold, elem);
      [n, v] = got;
      const r = ranges[elem];
      if (r && (n < r[0] || n > r[1])) throw new TimeParseError(value, v, elem, `: ${r[2]} out of range`);
      if (elem === '05' && v.length >= 2 && (v[0] === '.' || v[0] === ',') && isDigitAt(v, 1)) {
        // A fraction the layout does not mention is accepted and (on output) dropped.
        let k = 2;
        while (isDigitAt(v, k)) k++;
        v = v.slice(k);
      }
    }
    fields.push(n);
  }
  // Z07:00
  let offsetSeconds = 0;
  const hold = v;
  if (v.length >= 1 && v[0] === 'Z') v = v.slice(1);
  else {
    if (v.length < 6 || v[3] !== ':') throw new TimeParseError(value, hold, 'Z07:00');
    const sign = v[0];
    const hr = getnum(v.slice(1, 3), true);
    const mm = getnum(v.slice(4, 6), true);
    if (!hr || !mm || (sign !== '+' && sign !== '-')) throw new TimeParseError(value, hold, 'Z07:00');
    v = v.slice(6);
    if (hr[0] > 24) throw new TimeParseError(value, v, 'Z07:00', ': time zone offset hour out of range');
    if (mm[0] > 60) throw new TimeParseError(value, v, 'Z07:00', ': time zone offset minute out of range');
    offsetSeconds = (hr[0] * 60 + mm[0]) * 60 * (sign === '-' ? -1 : 1);
  }
  if (v.length !== 0) throw new TimeParseError(value, v, '', `: extra text: ${timeQuote(v)}`);
  const [year, month, day, hour, minute, second] = fields;
  if (day < 1 || day > daysIn(month, year)) throw new TimeParseError(value, '', '', ': day out of range');
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day); // not Date.UTC: it maps years 0–99 to 1900–1999
  d.setUTCHours(hour, minute, second, 0);
  return d.getTime() - offsetSeconds * 1000;
}

/** Go's t.UTC().Format(time.RFC3339) for whole seconds. */
export function formatRFC3339(ms: number): string {
  const d = new Date(Math.floor(ms / 1000) * 1000);
  const y = d.getUTCFullYear();
  const year = y < 0 ? `-${String(-y).padStart(3, '0')}` : String(y).padStart(4, '0');
  const p2 = (n: number): string => String(n).padStart(2, '0');
  return `${year}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}T${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}Z`;
}

const canonicalTimes = new Map<string, string | undefined>();

/** The canonical wire form of a timestamp, or undefined when Go could not parse it. */
export function canonicalTime(value: string): string | undefined {
  // Every normalisation of every object asks for its timestamps again: most are the same few.
  const known = canonicalTimes.get(value);
  if (known !== undefined || canonicalTimes.has(value)) return known;
  let t: string | undefined;
  try {
    t = formatRFC3339(parseGoRFC3339(value));
  } catch {
    t = undefined;
  }
  if (canonicalTimes.size >= 1024) canonicalTimes.clear();
  canonicalTimes.set(value, t);
  return t;
}

/** Microseconds within the second as written in a timestamp's fraction (Go keeps them; Time drops them). */
function fractionMicros(value: string): number {
  const m = /T\d{1,2}:\d{2}:\d{2}[.,](\d+)/.exec(value);
  return m ? Number(m[1].slice(0, 6).padEnd(6, '0')) : 0;
}

/** metav1.MicroTime's wire form: RFC 3339 in UTC with exactly six fractional digits. */
export function formatMicroTime(ms: number, micros: number): string {
  return `${formatRFC3339(ms).slice(0, -1)}.${String(micros).padStart(6, '0')}Z`;
}

/** A MicroTime text parsed as Go does: whole seconds (ms since the epoch) and microseconds; throws TimeParseError. */
export function parseMicroTime(value: string): { ms: number; micros: number } {
  const ms = parseGoRFC3339(value);
  return { ms: Math.floor(ms / 1000) * 1000, micros: fractionMicros(value) };
}

/** The canonical MicroTime text, or undefined when Go could not parse it. */
export function canonicalMicroTime(value: string): string | undefined {
  try {
    const { ms, micros } = parseMicroTime(value);
    return formatMicroTime(ms, micros);
  } catch {
    return undefined;
  }
}

/** A Date (millisecond precision) as MicroTime text. */
export function microTimeOf(d: Date): string {
  const ms = d.getTime();
  return formatMicroTime(ms, (((ms % 1000) + 1000) % 1000) * 1000);
}
