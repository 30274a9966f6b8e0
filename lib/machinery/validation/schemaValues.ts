// OpenAPI value validation of a custom resource against its schema, as upstream's kube-openapi
// validator followed by apiextensions' kubeOpenAPIResultToFieldErrors (custom-resources.md §13):
// details are kube-openapi's texts ("spec.x in body should be …"); the field error types are the
// ones that conversion picks (Required, NotSupported, TooLong, TooMany, TypeInvalid, else Invalid);
// errors kube-openapi raises as plain errors land on the nil path ("<nil>") with the value "".
// Per node the validators run in kube-openapi's order — type, allOf/anyOf/oneOf/not, string,
// format, number, array, enum, object — and each keyword group applies by the kind of the value
// found, not by the declared type (so a wrong type is reported once, by the type check).
import type { FieldSchema, ObjectSchema, ValueRules } from '../../api/schema';
import { deepEqual } from '../deepEqual';
import type { FieldError } from '../fieldErrors';
import { fieldErr } from '../fieldErrors';
import { goFormatFloat } from '../goFormat';
import { goJsonStringify } from '../goJson';
import { goQuote } from '../goStrconv';
import { isJsonObject } from '../jsonValue';
import { LinearRegex, RegexSyntaxError } from '../linearRegex';
import { checkStringFormat, knownStringFormat } from './schemaFormats';

/** Deeper than the decoders ever produce (they stop at 1000): a guard, not a limit anyone meets. */
const maxDepth = 1100;

type Rules = ValueRules & { nullable?: boolean; validationFormat?: string };
type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

/** One schema node: its keywords, its declared type, and how to find its children. */
interface Node {
  rules: Rules;
  /** Declared JSON type; undefined accepts any (junctor rules, untyped and int-or-string nodes). */
  type?: JsonType;
  /** The format the type check reads (int32/int64, float/double, or a known string format). */
  format?: string;
  intOrString?: boolean;
  field?: FieldSchema;
  object?: ObjectSchema;
}

const nodes = new WeakMap<FieldSchema, Node>();

function nodeOf(f: FieldSchema): Node {
  let n = nodes.get(f);
  if (n) return n;
  const rules = f as Rules;
  switch (f.type) {
    case 'object': {
      const o = f.ref();
      n = { rules: { ...(o.rules ?? {}), ...rules }, type: 'object', field: f, object: o };
      break;
    }
    case 'map':
      n = { rules, type: 'object', field: f };
      break;
    case 'array':
      n = { rules, type: 'array', field: f };
      break;
    case 'any':
      n = { rules, type: f.untyped ? undefined : 'object', field: f };
      break;
    case 'intOrString':
      n = { rules, intOrString: true, field: f };
      break;
    default:
      n = { rules, type: f.type, field: f };
  }
  n.format = declaredFormat(n.type, rules.validationFormat);
  nodes.set(f, n);
  return n;
}

/** Upstream strips formats it does not support before validating (StripUnsupportedFormatsPostProcess). */
function declaredFormat(type: JsonType | undefined, format: string | undefined): string | undefined {
  if (!format) return undefined;
  switch (type) {
    case 'integer':
      return format === 'int32' || format === 'int64' ? format : undefined;
    case 'number':
      return format === 'float' || format === 'double' ? format : undefined;
    case 'string':
    case undefined:
      return knownStringFormat(format) ? format : undefined;
    default:
      return undefined;
  }
}

/** The JSON type and Go format kube-openapi infers from a decoded value (schemaInfoForType). */
function infoOf(v: unknown): [JsonType, string] {
  if (typeof v === 'string') return ['string', ''];
  if (typeof v === 'boolean') return ['boolean', ''];
  if (typeof v === 'number') return Number.isInteger(v) ? ['integer', 'int64'] : ['number', 'double'];
  if (Array.isArray(v)) return ['array', ''];
  return ['object', ''];
}

/** swag.IsFloat64AJSONInteger. */
function isJsonInteger(f: number): boolean {
  if (!Number.isFinite(f) || Math.abs(f) > Number.MAX_SAFE_INTEGER) return false;
  if (Number.isInteger(f)) return true;
  const g = Math.trunc(f);
  const diff = Math.abs(f - g);
  if (g === 0) return diff < 1e-9 * Number.MIN_VALUE;
  return diff / (Math.abs(f) + Math.abs(g)) < 1e-9;
}

const int32Min = -(2 ** 31);
const int32Max = 2 ** 31 - 1;
const float32Max = 3.4028234663852886e38;

/** IsValueValidAgainstRange: can the value be parsed as the declared numeric type and format. */
function inRange(v: number, type: JsonType | undefined, format: string | undefined): boolean {
  if (type === 'integer') {
    if (!Number.isInteger(v)) return false;
    return format === 'int32' ? v >= int32Min && v <= int32Max : Math.abs(v) <= 2 ** 63;
  }
  if (format === 'float') return Math.abs(v) <= float32Max;
  return true;
}

const patterns = new WeakMap<object, LinearRegex | null>();

/** The pattern compiled once per schema node (null: RE2 refuses it, which the CRD's own validation reports). */
function patternOf(rules: Rules): LinearRegex | null {
  let re = patterns.get(rules);
  if (re === undefined) {
    try {
      re = LinearRegex.compile(rules.pattern!);
    } catch (e) {
      if (!(e instanceof RegexSyntaxError)) throw e;
      re = null;
    }
    patterns.set(rules, re);
  }
  return re;
}

function runeCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** %v of a numeric bound: integral data compares (and prints) against the bound as int64. */
function bound(b: number, data: number): string {
  return Number.isInteger(data) ? BigInt(Math.trunc(b)).toString() : goFormatFloat(b);
}

/** An error kube-openapi makes with errors.New (no field): the nil path, value "". */
const plain = (detail: string): FieldError => fieldErr.invalid('<nil>', '', detail);

const intOrStringAlternatives: readonly Node[] = [
  { rules: {}, type: 'integer' },
  { rules: {}, type: 'string' },
];

class Validator {
  node(v: unknown, n: Node, path: string, depth: number, errs: FieldError[]): void {
    if (depth > maxDepth) return;
    const r = n.rules;
    if (v === null || v === undefined) {
      if (n.type && !r.nullable) errs.push(fieldErr.typeInvalid(path, 'null', `${path} in body must be of type ${n.type}: "null"`));
      this.enumCheck(v, r, path, errs);
      return;
    }
    this.typeCheck(v, n, path, errs);
    this.junctors(v, n, path, depth, errs);
    if (typeof v === 'string') {
      this.string(v, r, path, errs);
      if (n.format && knownStringFormat(n.format) && !checkStringFormat(n.format, v)) {
        errs.push(fieldErr.typeInvalid(path, v, `${path} in body must be of type ${n.format}: ${goQuote(v)}`));
      }
    }
    if (typeof v === 'number') this.number(v, n, path, errs);
    if (Array.isArray(v)) this.array(v, n, path, depth, errs);
    this.enumCheck(v, r, path, errs);
    if (isJsonObject(v)) this.object(v, n, path, depth, errs);
  }

  /** kube-openapi's typeValidator, with its format quirks. */
  private typeCheck(v: unknown, n: Node, path: string, errs: FieldError[]): void {
    if (!n.type) return;
    const [got, gotFormat] = infoOf(v);
    const isFloatInt = got === 'number' && n.type === 'integer' && isJsonInteger(v as number);
    const isIntFloat = got === 'integer' && n.type === 'number';
    const scalarKind = got !== 'string' && got !== 'array';
    if (scalarKind && n.format && !(n.type === got || gotFormat === n.format || isFloatInt || isIntFloat)) {
      errs.push(fieldErr.typeInvalid(path, gotFormat, `${path} in body must be of type ${n.format}: ${goQuote(gotFormat)}`));
      return;
    }
    if (n.type !== 'number' && n.type !== 'integer' && n.format && !scalarKind) return;
    if (!(n.type === got || isFloatInt || isIntFloat)) errs.push(fieldErr.typeInvalid(path, got, `${path} in body must be of type ${n.type}: ${goQuote(got)}`));
  }

  private junctors(v: unknown, n: Node, path: string, depth: number, errs: FieldError[]): void {
    const r = n.rules;
    const attempt = (x: Node | ValueRules): FieldError[] => {
      const out: FieldError[] = [];
      if ('rules' in x) this.node(v, x, path, depth + 1, out);
      else this.rules(v, x, path, depth + 1, out);
      return out;
    };
    // x-kubernetes-int-or-string is validated as anyOf [{type: integer}, {type: string}].
    const anyOf: readonly (Node | ValueRules)[] | undefined = n.intOrString ? intOrStringAlternatives : r.anyOf;
    if (anyOf?.length) {
      let best: FieldError[] | undefined;
      let ok = false;
      for (const x of anyOf) {
        const e = attempt(x);
        if (e.length === 0) {
          ok = true;
          break;
        }
        // Upstream keeps the failure with the most passing checks; ties go to the first.
        best ??= e;
      }
      if (!ok) errs.push(plain(`${goQuote(path)} must validate at least one schema (anyOf)`), ...(best ?? []));
    }
    if (r.oneOf?.length) {
      let valid = 0;
      let best: FieldError[] | undefined;
      for (const x of r.oneOf) {
        const e = attempt(x);
        if (e.length === 0) valid++;
        else if (valid === 0) best ??= e;
      }
      if (valid !== 1) {
        const extra = valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`;
        errs.push(plain(`${goQuote(path)} must validate one and only one schema (oneOf). ${extra}`));
        if (valid === 0) errs.push(...(best ?? []));
      }
    }
    if (r.allOf?.length) {
      let valid = 0;
      for (const x of r.allOf) {
        const e = attempt(x);
        if (e.length === 0) valid++;
        errs.push(...e);
      }
      if (valid !== r.allOf.length) errs.push(plain(`${goQuote(path)} must validate all the schemas (allOf)${valid === 0 ? '. None validated' : ''}`));
    }
    if (r.not && attempt(r.not).length === 0) errs.push(plain(`${goQuote(path)} must not validate the schema (not)`));
  }

  /** A junctor's rule tree: its keywords on this value, then its properties, items and map values. */
  private rules(v: unknown, r: ValueRules, path: string, depth: number, errs: FieldError[]): void {
    if (depth > maxDepth) return;
    const n: Node = { rules: r, format: declaredFormat(undefined, r.validationFormat) };
    this.node(v, n, path, depth, errs);
    if (isJsonObject(v)) {
      for (const [k, x] of Object.entries(v)) {
        const sub = r.properties && Object.prototype.hasOwnProperty.call(r.properties, k) ? r.properties[k] : r.additionalProperties;
        if (sub) this.rules(x, sub, path ? `${path}.${k}` : k, depth + 1, errs);
      }
    } else if (Array.isArray(v) && r.items) {
      for (let i = 0; i < v.length; i++) this.rules(v[i], r.items, `${path}[${i}]`, depth + 1, errs);
    }
  }

  /** kube-openapi's stringValidator: the first failure only. */
  private string(v: string, r: Rules, path: string, errs: FieldError[]): void {
    const n = r.maxLength !== undefined || r.minLength !== undefined ? runeCount(v) : 0;
    if (r.maxLength !== undefined && n > r.maxLength) {
      errs.push(fieldErr.tooLong(path, r.maxLength));
    } else if (r.minLength !== undefined && n < r.minLength) {
      errs.push(fieldErr.invalid(path, v, `${path} in body should be at least ${r.minLength} chars long`));
    } else if (r.pattern !== undefined) {
      const re = patternOf(r);
      if (re && !re.test(v)) errs.push(fieldErr.invalid(path, v, `${path} in body should match '${r.pattern}'`));
    }
  }

  private number(v: number, n: Node, path: string, errs: FieldError[]): void {
    const r = n.rules;
    const type = n.intOrString ? undefined : n.type;
    if (!inRange(v, type, n.format)) {
      const t = type === 'integer' ? 'integer' : 'number';
      errs.push(plain(`Checked value must be of type ${t} ${n.format ? `with format ${n.format}` : '(default format)'} in ${path}`));
    }
    const isInt = Number.isInteger(v);
    if (r.multipleOf !== undefined) {
      const factor = isInt ? Math.trunc(r.multipleOf) : r.multipleOf;
      if (factor <= 0) errs.push(plain(`factor MultipleOf declared for ${path} must be positive: ${isInt ? factor : goFormatFloat(factor)}`));
      else if (isInt ? v % factor !== 0 : !isJsonInteger(factor < 1 ? (1 / factor) * v : v / factor)) {
        errs.push(fieldErr.invalid(path, v, `${path} in body should be a multiple of ${isInt ? factor : goFormatFloat(factor)}`));
      }
    }
    if (r.minimum !== undefined) {
      const min = isInt ? Math.trunc(r.minimum) : r.minimum;
      if (r.exclusiveMinimum ? v <= min : v < min) {
        errs.push(fieldErr.invalid(path, v, `${path} in body should be greater than ${r.exclusiveMinimum ? '' : 'or equal to '}${bound(r.minimum, v)}`));
      }
    }
    if (r.maximum !== undefined) {
      const max = isInt ? Math.trunc(r.maximum) : r.maximum;
      if (r.exclusiveMaximum ? v >= max : v > max) {
        errs.push(fieldErr.invalid(path, v, `${path} in body should be less than ${r.exclusiveMaximum ? '' : 'or equal to '}${bound(r.maximum, v)}`));
      }
    }
  }

  private array(v: unknown[], n: Node, path: string, depth: number, errs: FieldError[]): void {
    const r = n.rules;
    if (n.field?.type === 'array') {
      const items = nodeOf(n.field.items);
      for (let i = 0; i < v.length; i++) this.node(v[i], items, `${path}[${i}]`, depth + 1, errs);
    }
    if (r.minItems !== undefined && v.length < r.minItems) errs.push(fieldErr.invalid(path, v.length, `${path} in body should have at least ${r.minItems} items`));
    if (r.maxItems !== undefined && v.length > r.maxItems) errs.push(fieldErr.tooMany(path, v.length, r.maxItems));
    if (r.uniqueItems && hasDuplicates(v)) errs.push(fieldErr.invalid(path, '', `${path} in body shouldn't contain duplicates`));
  }

  private enumCheck(v: unknown, r: Rules, path: string, errs: FieldError[]): void {
    if (!r.enum?.length) return;
    const value = v ?? null;
    if (r.enum.some((e) => deepEqual(e, value))) return;
    errs.push(fieldErr.notSupported(path, value, r.enum.map((e) => (typeof e === 'string' ? e : goJsonStringify(e)))));
  }

  /** kube-openapi's objectValidator: counts, map values, properties, then required. */
  private object(v: Record<string, unknown>, n: Node, path: string, depth: number, errs: FieldError[]): void {
    const r = n.rules;
    const size = Object.keys(v).length;
    if (r.minProperties !== undefined && size < r.minProperties) errs.push(fieldErr.invalid(path, size, `${path} in body should have at least ${r.minProperties} properties`));
    if (r.maxProperties !== undefined && size > r.maxProperties) errs.push(fieldErr.tooMany(path, size, r.maxProperties));
    const child = (k: string): string => (path ? `${path}.${k}` : k);
    if (n.field?.type === 'map') {
      const values = nodeOf(n.field.values);
      for (const k of Object.keys(v)) this.node(v[k], values, child(k), depth + 1, errs);
    }
    if (n.object) {
      for (const [k, f] of Object.entries(n.object.fields)) {
        if (Object.prototype.hasOwnProperty.call(v, k)) this.node(v[k], nodeOf(f), child(k), depth + 1, errs);
      }
    }
    for (const k of r.requiredProperties ?? []) if (!Object.prototype.hasOwnProperty.call(v, k)) errs.push(fieldErr.required(child(k)));
  }
}

/** Pairwise, as upstream (uniqueItems is refused in CRDs for this cost; junctor rules may still carry it). */
function hasDuplicates(v: readonly unknown[]): boolean {
  for (let i = 1; i < v.length; i++) for (let j = 0; j < i; j++) if (deepEqual(v[i], v[j])) return true;
  return false;
}

/**
 * The OpenAPI schema errors of a custom resource (paths as upstream: `spec.items[0].name`), in
 * upstream's order. Types, required, enum, bounds, lengths, pattern, formats, items, properties,
 * map values, nullable and allOf/anyOf/oneOf/not; not the metadata, list-type or CEL checks.
 */
export function validateSchemaValues(schema: ObjectSchema, obj: unknown): FieldError[] {
  const errs: FieldError[] = [];
  new Validator().node(obj, { rules: schema.rules ?? {}, type: 'object', object: schema }, '', 0, errs);
  return errs;
}
