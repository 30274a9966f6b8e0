// The string formats upstream checks in custom resources (apiextensions' supported formats for
// 1.32, validated by kube-openapi's strfmt registry; custom-resources.md §13). Names compare as
// go-openapi normalises them: without dashes, so "date-time" is "datetime". Other names are not
// checked at all. The checks follow strfmt/govalidator; the fixed patterns run on RE2 (their
// inputs are request data) and are compiled once.
import { parseGoDuration } from '../goDuration';
import { parseRequestURI } from '../goUrl';
import { LinearRegex } from '../linearRegex';

const re = (p: string): (() => LinearRegex) => {
  let c: LinearRegex | undefined;
  return () => (c ??= LinearRegex.compile(p));
};

const rx = {
  hostname: re(
    String.raw`^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$`,
  ),
  uuid: re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$'),
  uuid3: re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$'),
  uuid4: re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$'),
  uuid5: re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$'),
  creditcard: re(
    String.raw`^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$`,
  ),
  ssn: re(String.raw`^\d{3}[- ]?\d{2}[- ]?\d{4}$`),
  hexcolor: re('^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$'),
  rgbcolor: re(
    String.raw`^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$`,
  ),
  base64: re('^(?:[A-Za-z0-9+\\/]{4})*(?:[A-Za-z0-9+\\/]{2}==|[A-Za-z0-9+\\/]{3}=|[A-Za-z0-9+\\/]{4})$'),
  durationPart: re(String.raw`((\d+)\s*([A-Za-zµ]+))`),
  email: re(String.raw`^(?:[^<>]*<)?[^\s@<>(),;:"\[\]\\]+@[^\s@<>(),;:"\[\]\\]+>?$`),
};

function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1]!;
  return d <= days;
}

/** strfmt.IsDateTime: a date, a "t", and a time matched loosely (hours ≤ "23" compared as text). */
function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  // Anchored, no nested repetition: linear on JS's engine too (the groups are needed).
  const m = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/.exec(parts[1]!);
  return m !== null && m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59';
}

/** time.ParseDuration, else strfmt's "<n> <unit>" sequences (units by name or prefix). */
function isDuration(s: string): boolean {
  try {
    parseGoDuration(s);
    return true;
  } catch {
    // strfmt's own grammar below.
  }
  const units = [['ns', 'nano'], ['us', 'µs', 'micro'], ['ms', 'milli'], ['s', 'sec'], ['m', 'min'], ['h', 'hr', 'hour'], ['d', 'day'], ['w', 'wk', 'week']];
  for (const match of rx.durationPart().findAll(s, -1)) {
    const unit = /[A-Za-zµ]+$/.exec(match)![0].toLowerCase();
    for (const variants of units) {
      const last = variants.length - 1;
      if (variants.some((v, i) => (i === last && unit.startsWith(v)) || v === unit)) return true;
    }
  }
  return false;
}

/** Go's old net.ParseIP for IPv4 as ParseIPSloppy keeps it: leading zeros allowed. */
function isSloppyIPv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

function isIPv6(s: string): boolean {
  if (!s.includes(':') || s.includes('%')) return false;
  let body = s;
  const groupsWanted = 8;
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    if (!isSloppyIPv4(s.slice(lastColon + 1))) return false;
    body = s.slice(0, lastColon + 1) + '0:0';
  }
  const halves = body.split('::');
  if (halves.length > 2) return false;
  const groups = (h: string): string[] | undefined => (h === '' ? [] : h.split(':'));
  const hexOk = (g: string): boolean => /^[0-9a-fA-F]{1,4}$/.test(g);
  const a = groups(halves[0]!);
  const b = halves.length === 2 ? groups(halves[1]!) : [];
  if (!a || !b || ![...a, ...b].every(hexOk)) return false;
  return halves.length === 2 ? a.length + b.length < groupsWanted : a.length === groupsWanted;
}

const isIP = (s: string): boolean => isSloppyIPv4(s) || isIPv6(s);

function isCIDR(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const addr = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return false;
  if (isSloppyIPv4(addr)) return Number(bits) <= 32;
  return isIPv6(addr) && Number(bits) <= 128;
}

/** net.ParseMAC: 6, 8 or 20 octets as xx:xx…, xx-xx… or xxxx.xxxx…. */
function isMAC(s: string): boolean {
  if (s.length < 14) return false;
  if (s[2] === ':' || s[2] === '-') {
    if ((s.length + 1) % 3 !== 0) return false;
    const n = (s.length + 1) / 3;
    if (n !== 6 && n !== 8 && n !== 20) return false;
    const parts = s.split(s[2]);
    return parts.length === n && parts.every((p) => /^[0-9a-fA-F]{2}$/.test(p));
  }
  if (s[4] === '.') {
    if ((s.length + 1) % 5 !== 0) return false;
    const n = ((s.length + 1) * 2) / 5;
    if (n !== 6 && n !== 8 && n !== 20) return false;
    return s.split('.').every((p) => /^[0-9a-fA-F]{4}$/.test(p));
  }
  return false;
}

function isISBN10(s: string): boolean {
  const t = s.replace(/[\s-]+/g, '');
  if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(t)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * Number(t[i]);
  sum += t[9] === 'X' ? 100 : 10 * Number(t[9]);
  return sum % 11 === 0;
}

function isISBN13(s: string): boolean {
  const t = s.replace(/[\s-]+/g, '');
  if (!/^[0-9]{13}$/.test(t)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * Number(t[i]);
  return Number(t[12]) === (10 - (sum % 10)) % 10;
}

function isCreditCard(s: string): boolean {
  const t = s.replace(/[^0-9]+/g, '');
  if (!rx.creditcard().test(t)) return false;
  let sum = 0;
  let double = false;
  for (let i = t.length - 1; i >= 0; i--) {
    let d = Number(t[i]);
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

const checks: Record<string, (s: string) => boolean> = {
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  uri: (s) => {
    try {
      parseRequestURI(s);
      return true;
    } catch {
      return false;
    }
  },
  email: (s) => rx.email().test(s),
  hostname: (s) => rx.hostname().test(s) && s.length <= 255 && s.split('.').every((p) => p.length <= 63),
  ipv4: (s) => isIP(s) && s.includes('.'),
  ipv6: (s) => isIP(s) && s.includes(':'),
  cidr: isCIDR,
  mac: isMAC,
  uuid: (s) => rx.uuid().test(s),
  uuid3: (s) => rx.uuid3().test(s),
  uuid4: (s) => rx.uuid4().test(s),
  uuid5: (s) => rx.uuid5().test(s),
  isbn: (s) => isISBN10(s) || isISBN13(s),
  isbn10: isISBN10,
  isbn13: isISBN13,
  creditcard: isCreditCard,
  ssn: (s) => s.length === 11 && rx.ssn().test(s),
  hexcolor: (s) => rx.hexcolor().test(s),
  rgbcolor: (s) => rx.rgbcolor().test(s),
  byte: (s) => rx.base64().test(s),
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
};

const normalized = (format: string): string => format.replace(/-/g, '');

/** Whether upstream checks this format on strings (unknown names are stripped and ignored). */
export function knownStringFormat(format: string): boolean {
  return Object.prototype.hasOwnProperty.call(checks, normalized(format));
}

/** Whether the string is valid in the (known) format. */
export function checkStringFormat(format: string, s: string): boolean {
  const check = checks[normalized(format)];
  return check ? check(s) : true;
}
