// upstream's format library (apiserver/pkg/cel/library/format.go): format.named(name) →
// optional format, format.<name>() for each named format, and <format>.validate(s) → optional
// list of errors (none when valid). validate costs like a regex of the format's MaxRegexSize.
import { Optional } from '@marcbachmann/cel-js';
import { parseRequestURI } from '../../machinery/goUrl';
import { isQualifiedName, isValidLabelValue, nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain } from '../../machinery/validation/names';
import { unitCost } from '../cost';
import type { CelFunction, CelLibrary } from './types';

export class NamedFormat {
  constructor(
    readonly name: string,
    readonly validate: (s: string) => string[],
    readonly maxRegexSize: number,
  ) {}
}

export class FormatNamespace {}

const uuidPattern = '(?i)(^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$)|(^[0-9a-f]{32}$)';
const uuidRe = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})$/i;
const dateTimePattern = '^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$';
const dateTimeRe = new RegExp(dateTimePattern);
/** upstream's size estimates for the uri and byte formats (format.go urlLength, base64Length). */
const urlLength = 1103;
const base64Length = 84;

/** Go's time.Parse("2006-01-02", s): exact layout and a real calendar day. */
function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

/** strfmt IsDateTime: a date, 't', then hh:mm:ss[.frac](z|±hh:mm), case-insensitive. */
function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const m = dateTimeRe.exec(parts[1]!);
  return m !== null && m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59';
}

/** Go's base64.StdEncoding.DecodeString (padding required, CR/LF ignored). */
function isBase64(s: string): boolean {
  const t = s.replace(/[\r\n]/g, '');
  return t.length % 4 === 0 && /^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(t);
}

const check = (ok: (s: string) => boolean, msg: string) => (s: string) => (ok(s) ? [] : [msg]);

/** upstream's ConstantFormats: the CEL name → Name, validation, MaxRegexSize. */
export const namedFormats: ReadonlyMap<string, NamedFormat> = new Map([
  ['dns1123Label', new NamedFormat('DNS1123Label', (s) => nameIsDNSLabel(s, false), 30)],
  ['dns1123Subdomain', new NamedFormat('DNS1123Subdomain', (s) => nameIsDNSSubdomain(s, false), 60)],
  ['dns1035Label', new NamedFormat('DNS1035Label', (s) => nameIsDNS1035Label(s, false), 30)],
  ['qualifiedName', new NamedFormat('QualifiedName', isQualifiedName, 60)],
  ['dns1123LabelPrefix', new NamedFormat('DNS1123LabelPrefix', (s) => nameIsDNSLabel(s, true), 30)],
  ['dns1123SubdomainPrefix', new NamedFormat('DNS1123SubdomainPrefix', (s) => nameIsDNSSubdomain(s, true), 60)],
  ['dns1035LabelPrefix', new NamedFormat('DNS1035LabelPrefix', (s) => nameIsDNS1035Label(s, true), 30)],
  ['labelValue', new NamedFormat('LabelValue', isValidLabelValue, 40)],
  [
    'uri',
    new NamedFormat(
      'URI',
      (s) => {
        try {
          parseRequestURI(s);
          return [];
        } catch (e) {
          return [(e as Error).message];
        }
      },
      urlLength,
    ),
  ],
  ['uuid', new NamedFormat('uuid', check((s) => uuidRe.test(s), 'does not match the UUID format'), uuidPattern.length)],
  ['byte', new NamedFormat('byte', check(isBase64, 'invalid base64'), base64Length)],
  ['date', new NamedFormat('date', check(isDate, 'invalid date'), dateTimePattern.length)],
  ['datetime', new NamedFormat('datetime', check(isDateTime, 'invalid datetime'), dateTimePattern.length)],
]);

const fmt = (v: unknown): NamedFormat => v as NamedFormat;

const functions: CelFunction[] = [
  {
    signature: 'kubernetes.FormatFunctions.named(string): optional<kubernetes.NamedFormat>',
    cost: () => 1,
    handler: (_ns, name) => {
      const f = namedFormats.get(name as string);
      return f ? Optional.of(f) : Optional.none();
    },
  },
  {
    signature: 'kubernetes.NamedFormat.validate(string): optional<list<string>>',
    // regex cost with the format's MaxRegexSize: ⌈0.1·(1+len(s))⌉·⌈0.25·MaxRegexSize⌉
    cost: (f, s) => Math.ceil((1 + (s as string).length) * unitCost.stringTraversalFactor) * Math.ceil(fmt(f).maxRegexSize * unitCost.regexLengthFactor),
    handler: (f, s) => {
      const errs = fmt(f).validate(s as string);
      return errs.length === 0 ? Optional.none() : Optional.of(errs);
    },
  },
  ...[...namedFormats].map(
    ([name, f]): CelFunction => ({ signature: `kubernetes.FormatFunctions.${name}(): kubernetes.NamedFormat`, cost: () => 1, handler: () => f }),
  ),
];

export const formatLibrary: CelLibrary = {
  types: [
    { name: 'kubernetes.NamedFormat', ctor: NamedFormat },
    { name: 'kubernetes.FormatFunctions', ctor: FormatNamespace },
  ],
  functions,
  operators: [{ signature: 'kubernetes.NamedFormat == kubernetes.NamedFormat', handler: (a, b) => fmt(a).name === fmt(b).name }],
  constants: [{ name: 'format', type: 'kubernetes.FormatFunctions', value: new FormatNamespace() }],
};
