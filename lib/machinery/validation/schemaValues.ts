// OpenAPI value validation of a custom resource against its schema, as upstream's kube-openapi
// validator followed by apiextensions' kubeOpenAPIResultToFieldErrors (custom-resources.md §13):
// details are kube-openapi's texts ("spec.x in body should be …"); the field error types are the
// ones that conversion picks (Required, NotSupported, TooLong, TooMany, TypeInvalid, else Invalid);
// errors kube-openapi raises as plain errors land on the nil path ("<nil>") with the value "".
// Per node the validators run in kube-openapi's order — type, allOf/anyOf/oneOf/not, string,
// format, number, array, enum, object — and each keyword group applies by the kind of the value
// found, not by the declared type (so a wrong type is reported once, by the type check).
// x-kubernetes-int-or-string validates as type [integer, string], as upstream converts it.
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
  /** A junctor's rule tree: its properties, items and map values. */
  tree?: ValueRules;
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

/** The type list as kube-openapi prints it (x-kubernetes-int-or-string is type [integer, string]). */
const typeName = (n: Node): string => (n.intOrString ? 'integer,string' : (n.type ?? ''));

const ruleNodes = new WeakMap<ValueRules, Node>();

/** A junctor's rule tree as a node: no type; its properties, items and map values are rule trees too. */
function ruleNode(r: ValueRules): Node {
  let n = ruleNodes.get(r);
  if (!n) ruleNodes.set(r, (n = { rules: r, type: r.type, format: declaredFormat(r.type, r.validationFormat), tree: r }));
  return n;
}

/**
 * Validation results as kube-openapi's: errors and a match count (its Result.MatchCount, the
 * number of checks that ran), by which anyOf and oneOf pick the failure they report.
 */
class Validator {
  /** kube-openapi's SchemaValidator.Validate: the applicable validators in order; returns the match count. */
  node(v: unknown, n: Node, path: string, depth: number, errs: FieldError[]): number {
    if (depth > maxDepth) return 0;
    const r = n.rules;
    if (v === null || v === undefined) {
      // Only the type and enum checks run on null.
      const typeOk = !(n.type || n.intOrString) || r.nullable === true;
      if (!typeOk) errs.push(fieldErr.typeInvalid(path, 'null', `${path} in body must be of type ${typeName(n)}: "null"`));
      this.enumCheck(v, r, path, errs);
      return typeOk ? 1 : 0;
    }
    let count = 1;
    if (n.type || n.intOrString || n.format) count += this.typeCheck(v, n, path, errs) + 1;
    count += this.junctors(v, n, path, depth, errs) + 1;
    if (typeof v === 'string') {
      this.string(v, r, path, errs);
      count++;
      if (n.format && knownStringFormat(n.format)) {
        if (!checkStringFormat(n.format, v)) errs.push(fieldErr.typeInvalid(path, v, `${path} in body must be of type ${n.format}: ${goQuote(v)}`));
        count++;
      }
    }
    if (typeof v === 'number') count += this.number(v, n, path, errs) + 1;
    if (Array.isArray(v)) count += this.array(v, n, path, depth, errs) + 1;
    this.enumCheck(v, r, path, errs);
    count++;
    if (isJsonObject(v)) count += this.object(v, n, path, depth, errs) + 1;
    return count;
  }

  /** kube-openapi's typeValidator, with its format quirks; 1 when it passes. */
  private typeCheck(v: unknown, n: Node, path: string, errs: FieldError[]): number {
    const [got, gotFormat] = infoOf(v);
    const has = (t: JsonType): boolean => (n.intOrString ? t === 'integer' || t === 'string' : n.type === t);
    const isFloatInt = got === 'number' && has('integer') && isJsonInteger(v as number);
    const isIntFloat = got === 'integer' && has('number');
    const scalarKind = got !== 'string' && got !== 'array';
    if (scalarKind && n.format && !(has(got) || gotFormat === n.format || isFloatInt || isIntFloat)) {
      errs.push(fieldErr.typeInvalid(path, gotFormat, `${path} in body must be of type ${n.format}: ${goQuote(gotFormat)}`));
      return 0;
    }
    if (!has('number') && !has('integer') && n.format && !scalarKind) return 1;
    if (!(has(got) || isFloatInt || isIntFloat)) {
      errs.push(fieldErr.typeInvalid(path, got, `${path} in body must be of type ${typeName(n)}: ${goQuote(got)}`));
      return 0;
    }
    return 1;
  }

  /** kube-openapi's schemaPropsValidator: anyOf, oneOf, allOf, not; returns its match count. */
  private junctors(v: unknown, n: Node, path: string, depth: number, errs: FieldError[]): number {
    const r = n.rules;
    let count = 1;
    const attempt = (x: Node): { errs: FieldError[]; count: number } => {
      const out: FieldError[] = [];
      return { count: this.node(v, x, path, depth + 1, out), errs: out };
    };
    const anyOf = r.anyOf?.map(ruleNode);
    if (anyOf?.length) {
      let best: { errs: FieldError[]; count: number } | undefined;
      let success: { count: number } | undefined;
      for (const x of anyOf) {
        const a = attempt(x);
        if (a.errs.length === 0) {
          success = a;
          break;
        }
        // The failure with the most checks that ran is reported; ties go to the first.
        if (!best || a.count > best.count) best = a;
      }
      if (!success) errs.push(plain(`${goQuote(path)} must validate at least one schema (anyOf)`), ...best!.errs);
      count += success ? success.count : best!.count;
    }
    if (r.oneOf?.length) {
      let valid = 0;
      let best: { errs: FieldError[]; count: number } | undefined;
      let first: { count: number } | undefined;
      for (const x of r.oneOf.map(ruleNode)) {
        const a = attempt(x);
        if (a.errs.length === 0) {
          valid++;
          best = undefined;
          first ??= a;
        } else if (valid === 0 && (!best || a.count > best.count)) best = a;
      }
      if (valid !== 1) {
        const extra = valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`;
        errs.push(plain(`${goQuote(path)} must validate one and only one schema (oneOf). ${extra}`));
        if (best) {
          errs.push(...best.errs);
          count += best.count;
        }
      } else count += first!.count;
    }
    if (r.allOf?.length) {
      let valid = 0;
      for (const x of r.allOf.map(ruleNode)) {
        const a = attempt(x);
        if (a.errs.length === 0) valid++;
        errs.push(...a.errs);
        count += a.count;
      }
      if (valid !== r.allOf.length) errs.push(plain(`${goQuote(path)} must validate all the schemas (allOf)${valid === 0 ? '. None validated' : ''}`));
    }
    if (r.not && attempt(ruleNode(r.not)).errs.length === 0) errs.push(plain(`${goQuote(path)} must not validate the schema (not)`));
    return count;
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

  /** kube-openapi's numberValidator: range of the declared type, multipleOf, minimum, maximum. */
  private number(v: number, n: Node, path: string, errs: FieldError[]): number {
    const r = n.rules;
    if (!inRange(v, n.type, n.format)) {
      const t = n.type === 'integer' ? 'integer' : 'number';
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
    return 1;
  }

  /** kube-openapi's sliceValidator: items, then minItems, maxItems, uniqueItems. */
  private array(v: unknown[], n: Node, path: string, depth: number, errs: FieldError[]): number {
    const r = n.rules;
    let count = 1;
    const items = n.field?.type === 'array' ? nodeOf(n.field.items) : n.tree?.items ? ruleNode(n.tree.items) : undefined;
    if (items) for (let i = 0; i < v.length; i++) count += this.node(v[i], items, `${path}[${i}]`, depth + 1, errs);
    if (r.minItems !== undefined && v.length < r.minItems) errs.push(fieldErr.invalid(path, v.length, `${path} in body should have at least ${r.minItems} items`));
    if (r.maxItems !== undefined && v.length > r.maxItems) errs.push(fieldErr.tooMany(path, v.length, r.maxItems));
    if (r.uniqueItems && hasDuplicates(v)) errs.push(fieldErr.invalid(path, '', `${path} in body shouldn't contain duplicates`));
    return count;
  }

  private enumCheck(v: unknown, r: Rules, path: string, errs: FieldError[]): void {
    if (!r.enum?.length) return;
    const value = v ?? null;
    if (r.enum.some((e) => deepEqual(e, value))) return;
    errs.push(fieldErr.notSupported(path, value, r.enum.map((e) => (typeof e === 'string' ? e : goJsonStringify(e)))));
  }

  /** kube-openapi's objectValidator: counts, map values, properties, then required. */
  private object(v: Record<string, unknown>, n: Node, path: string, depth: number, errs: FieldError[]): number {
    const r = n.rules;
    let count = 0;
    const size = Object.keys(v).length;
    if (r.minProperties !== undefined && size < r.minProperties) errs.push(fieldErr.invalid(path, size, `${path} in body should have at least ${r.minProperties} properties`));
    if (r.maxProperties !== undefined && size > r.maxProperties) errs.push(fieldErr.tooMany(path, size, r.maxProperties));
    const child = (k: string): string => (path ? `${path}.${k}` : k);
    const has = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
    if (n.field?.type === 'map') {
      const values = nodeOf(n.field.values);
      for (const k of Object.keys(v)) count += this.node(v[k], values, child(k), depth + 1, errs);
    }
    if (n.object) {
      for (const [k, f] of Object.entries(n.object.fields)) if (has(v, k)) count += this.node(v[k], nodeOf(f), child(k), depth + 1, errs);
    }
    const t = n.tree;
    if (t?.additionalProperties) {
      const values = ruleNode(t.additionalProperties);
      for (const k of Object.keys(v)) if (!t.properties || !has(t.properties, k)) count += this.node(v[k], values, child(k), depth + 1, errs);
    }
    if (t?.properties) {
      for (const [k, x] of Object.entries(t.properties)) if (has(v, k)) count += this.node(v[k], ruleNode(x), child(k), depth + 1, errs);
    }
    for (const k of r.requiredProperties ?? []) if (!has(v, k)) errs.push(fieldErr.required(child(k)));
    return count;
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
