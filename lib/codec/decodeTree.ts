// Schema-driven decoding of a parsed body, following the decoder upstream uses
// (sigs.k8s.io/json, a fork of Go's encoding/json):
// - unknown and duplicate fields become strict errors with dotted paths and [i] indexes;
// - type errors keep only the first one, worded like json.UnmarshalTypeError, whose
//   Field is the chain of struct field names (no map keys or indexes) and whose Struct
//   is the innermost struct;
// - errors returned by custom unmarshalers (metav1.Time) abort at once and win;
// - a repeated field decodes into the value already there (objects and maps merge).
// Custom resources (ObjectSchema.unstructured) decode as upstream's unstructured objects: a value
// of the wrong type or a null is kept as sent (schema validation reports it), numbers as sent;
// unknown fields are pruned (and reported) except under x-kubernetes-preserve-unknown-fields.
import type { FieldSchema, ObjectSchema } from '../api/schema';
import type { GoJsonNode } from '../machinery/goJson';
import { goJsonKindWord, goJsonNodeValue } from '../machinery/goJson';
import { goQuote } from '../machinery/goStrconv';
import { setOwn } from '../machinery/jsonValue';
import { maxProcessedNesting, nestsDeeperThan } from '../machinery/nesting';
import { Base64Error, decodeGoBase64 } from './goBase64';
import { formatMicroTime, formatRFC3339, parseGoRFC3339, parseMicroTime, TimeParseError } from './goTime';
import { goStructName, goStructType, goTypeOf } from './goTypes';
import { goZero } from './goZero';
import { compareCodePoints } from './normalize';

export interface TreeDecodeResult {
  /** The decoded object (meaningful only when `error` is absent). */
  value: Record<string, unknown>;
  /** `unknown field "a.b"`, `duplicate field "c"`: empty unless strict checking was asked for. */
  strictErrors: string[];
  /** The decoder's fatal error text (`json: cannot unmarshal …`), when there is one. */
  error?: string;
}

export interface TreeDecodeOptions {
  /** Collect unknown and duplicate field errors (fieldValidation Warn/Strict). */
  strict: boolean;
}

/** Upstream caps the accumulated strict errors. */
const maxStrictErrors = 100;

class Fatal extends Error {}

const KEEP = Symbol('keep');
const DELETE = Symbol('delete');
type Outcome = unknown | typeof KEEP | typeof DELETE;

const childKey = (p: string, k: string): string => (p ? `${p}.${k}` : k);

/**
 * Where a value sits: a chain of steps, spelt out only when an error needs it (building the
 * strings for every field of every body cost more than the rest of decoding).
 */
class Ctx {
  constructor(
    private readonly parent: Ctx | undefined,
    /** A struct field, a map key, or a list index. */
    private readonly step: string | number,
    private readonly kind: 'root' | 'field' | 'key' | 'index',
    /** Name of the innermost struct entered, for type errors. */
    readonly struct: string,
  ) {}

  static root(): Ctx {
    return new Ctx(undefined, '', 'root', '');
  }
  field(name: string, struct: string): Ctx {
    return new Ctx(this, name, 'field', struct);
  }
  key(k: string): Ctx {
    return new Ctx(this, k, 'key', this.struct);
  }
  index(i: number): Ctx {
    return new Ctx(this, i, 'index', this.struct);
  }

  /** Path used by strict errors: "spec.usages[0].x", "metadata.labels.app". */
  get strict(): string {
    if (!this.parent) return '';
    const p = this.parent.strict;
    return this.kind === 'index' ? `${p}[${this.step}]` : childKey(p, String(this.step));
  }

  /** Struct field names from the root, for type errors. */
  get fields(): readonly string[] {
    const out: string[] = [];
    for (let c: Ctx | undefined = this; c; c = c.parent) if (c.kind === 'field') out.push(String(c.step));
    return out.reverse();
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Up to this many members a struct looks for duplicates by scanning the earlier ones. */
const smallStruct = 16;

function seenBefore(members: readonly { key: string }[], i: number, key: string): boolean {
  for (let j = 0; j < i; j++) if (members[j].key === key) return true;
  return false;
}

const int32Range: [bigint, bigint] = [-(2n ** 31n), 2n ** 31n - 1n];
const int64Range: [bigint, bigint] = [-(2n ** 63n), 2n ** 63n - 1n];

class TreeDecoder {
  saved: string | undefined;
  readonly strictErrors: string[] = [];
  /** Per strict error: its group and path, for a custom resource's upstream order (ordered()). */
  private readonly origins: { group: number; path: string }[] = [];
  private readonly seenStrict = new Set<string>();

  constructor(private readonly strict: boolean) {}

  /** `group`: 0 the decoder's own (duplicates), 1 root metadata, 2 pruning, 3 embedded metadata. */
  private strictError(kind: 'unknown field' | 'duplicate field', path: string, group = 0): void {
    if (!this.strict || this.strictErrors.length >= maxStrictErrors) return;
    const text = `${kind} ${goQuote(path)}`;
    if (this.seenStrict.has(text)) return;
    this.seenStrict.add(text);
    this.strictErrors.push(text);
    this.origins.push({ group, path });
  }

  /**
   * A custom resource's strict errors in upstream's order: the JSON decoder's, then root metadata's
   * (ObjectMeta decoding, document order), then what pruning dropped (sorted), then what embedded
   * resources' metadata dropped (coercion, document order).
   */
  ordered(): string[] {
    const idx = this.strictErrors.map((_, i) => i);
    idx.sort((a, b) => {
      const x = this.origins[a]!;
      const y = this.origins[b]!;
      if (x.group !== y.group) return x.group - y.group;
      if (x.group === 2) return compareCodePoints(x.path, y.path);
      return a - b;
    });
    return idx.map((i) => this.strictErrors[i]!);
  }

  private typeErrorText(value: string, goType: string, ctx: Ctx): string {
    if (ctx.struct || ctx.fields.length)
      return `json: cannot unmarshal ${value} into Go struct field ${ctx.struct}.${ctx.fields.join('.')} of type ${goType}`;
    return `json: cannot unmarshal ${value} into Go value of type ${goType}`;
  }

  private typeError(value: string, goType: string, ctx: Ctx): typeof KEEP {
    this.saved ??= this.typeErrorText(value, goType, ctx);
    return KEEP;
  }

  struct(n: Extract<GoJsonNode, { kind: 'object' }>, schema: ObjectSchema, into: Record<string, unknown> | undefined, ctx: Ctx): Record<string, unknown> {
    const out = into ?? {};
    const members = n.members;
    // Few members (most structs): an earlier one of the same name is found by a scan, not a Set.
    const seen = members.length > smallStruct ? new Set<string>() : undefined;
    const structName = goStructName(schema);
    const loose = schema.unstructured === true;
    for (let i = 0; i < members.length; i++) {
      const { key, value: child } = members[i];
      const field = Object.prototype.hasOwnProperty.call(schema.fields, key) ? schema.fields[key] : undefined;
      if (!field) {
        if (schema.preserveUnknownFields) {
          // Kept as sent, and not reported: the schema asks for unknown fields here.
          if (seen ? seen.has(key) : seenBefore(members, i, key)) this.strictError('duplicate field', childKey(ctx.strict, key));
          seen?.add(key);
          setOwn(out, key, this.free(child, ctx.field(key, structName)));
        } else {
          const path = childKey(ctx.strict, key);
          this.strictError('unknown field', path, loose ? 2 : path.startsWith('metadata.') ? 1 : 3);
        }
        continue;
      }
      if (seen ? seen.has(key) : seenBefore(members, i, key)) this.strictError('duplicate field', childKey(ctx.strict, key));
      seen?.add(key);
      const sub = ctx.field(key, structName);
      const r = this.value(child, field, out[key], sub, false, loose);
      if (r === DELETE) delete out[key];
      else if (r !== KEEP) out[key] = r;
    }
    return out;
  }

  /** A free-form value, kept as it is; past this depth the store could not copy it. */
  private free(n: GoJsonNode, ctx: Ctx): unknown {
    if (nestsDeeperThan(n, maxProcessedNesting)) throw new Fatal(`${ctx.strict}: nested more than ${maxProcessedNesting} levels deep`);
    return goJsonNodeValue(n);
  }

  /**
   * Decodes one value; `element` marks array items and map values, where null means the zero
   * value; `loose` marks a custom resource's value (see the header).
   */
  value(n: GoJsonNode, f: FieldSchema, existing: unknown, ctx: Ctx, element: boolean, loose = false): Outcome {
    if (loose) return this.looseValue(n, f, existing, ctx);
    if (n.kind === 'null') {
      if (element) return existing !== undefined ? existing : goZero(f);
      // Go leaves non-pointer scalars and structs alone and nils pointers, slices and maps.
      if (f.type === 'string' && !f.format) return KEEP;
      if (f.type === 'object' && f.alwaysEmit) return KEEP;
      return DELETE;
    }
    switch (f.type) {
      case 'string':
        if (f.format === 'date-time') return this.time(n, ctx, f.micro === true);
        if (n.kind !== 'string') return this.typeError(goJsonKindWord(n), goTypeOf(f), ctx);
        if (f.format === 'byte') {
          try {
            return decodeGoBase64(n.value).toString('base64');
          } catch (e) {
            if (e instanceof Base64Error) {
              this.saved ??= e.message;
              return KEEP;
            }
            throw e;
          }
        }
        return n.value;
      case 'integer': {
        if (n.kind !== 'number') return this.typeError(goJsonKindWord(n), f.format, ctx);
        if (!/^-?\d+$/.test(n.text)) return this.typeError(`number ${n.text}`, f.format, ctx);
        const big = BigInt(n.text);
        const [lo, hi] = f.format === 'int32' ? int32Range : int64Range;
        if (big < lo || big > hi) return this.typeError(`number ${n.text}`, f.format, ctx);
        return Number(big);
      }
      case 'number':
        if (n.kind !== 'number') return this.typeError(goJsonKindWord(n), 'float64', ctx);
        return goJsonNodeValue(n);
      case 'intOrString':
        if (n.kind !== 'number' && n.kind !== 'string') return this.typeError(goJsonKindWord(n), 'intstr.IntOrString', ctx);
        return goJsonNodeValue(n);
      case 'boolean':
        if (n.kind !== 'bool') return this.typeError(goJsonKindWord(n), 'bool', ctx);
        return n.value;
      case 'object':
        if (n.kind !== 'object') return this.typeError(goJsonKindWord(n), goStructType(f.ref()), ctx);
        return this.struct(n, f.ref(), isPlainObject(existing) ? existing : undefined, ctx);
      case 'array': {
        if (n.kind !== 'array') return this.typeError(goJsonKindWord(n), goTypeOf(f), ctx);
        const prev = Array.isArray(existing) ? existing : [];
        const out: unknown[] = [];
        n.items.forEach((item, i) => {
          const r = this.value(item, f.items, prev[i], ctx.index(i), true);
          out.push(r === KEEP || r === DELETE ? (prev[i] !== undefined ? prev[i] : goZero(f.items)) : r);
        });
        return out;
      }
      case 'map': {
        if (n.kind !== 'object') return this.typeError(goJsonKindWord(n), goTypeOf(f), ctx);
        const out = isPlainObject(existing) ? existing : {};
        const seen = new Set<string>();
        for (const { key: k, value: v } of n.members) {
          if (seen.has(k)) this.strictError('duplicate field', childKey(ctx.strict, k));
          seen.add(k);
          // Each map value starts from zero (Go reuses one zeroed element), so no merging here.
          const r = this.value(v, f.values, undefined, ctx.key(k), true);
          setOwn(out, k, r === KEEP || r === DELETE ? goZero(f.values) : r);
        }
        return out;
      }
      case 'any':
        // Free-form values are stored as they are; past this depth the store could not copy them.
        if (nestsDeeperThan(n, maxProcessedNesting)) throw new Fatal(`${ctx.strict}: nested more than ${maxProcessedNesting} levels deep`);
        return goJsonNodeValue(n);
    }
  }

  /** A custom resource's value: the schema only prunes; anything it does not shape is kept as sent. */
  private looseValue(n: GoJsonNode, f: FieldSchema, existing: unknown, ctx: Ctx): Outcome {
    switch (f.type) {
      case 'object':
        if (n.kind !== 'object') return this.free(n, ctx);
        return this.struct(n, f.ref(), isPlainObject(existing) ? existing : undefined, ctx);
      case 'array':
        if (n.kind !== 'array') return this.free(n, ctx);
        return n.items.map((item, i) => this.looseValue(item, f.items, undefined, ctx.index(i)));
      case 'map': {
        if (n.kind !== 'object') return this.free(n, ctx);
        const out = isPlainObject(existing) ? existing : {};
        const seen = new Set<string>();
        for (const { key: k, value: v } of n.members) {
          if (seen.has(k)) this.strictError('duplicate field', childKey(ctx.strict, k));
          seen.add(k);
          setOwn(out, k, this.looseValue(v, f.values, undefined, ctx.key(k)));
        }
        return out;
      }
      case 'string':
      case 'integer':
      case 'number':
      case 'intOrString':
      case 'boolean':
      case 'any':
        return this.free(n, ctx);
    }
  }

  /** metav1.Time.UnmarshalJSON: its errors are returned, not saved, so they abort decoding. */
  private time(n: GoJsonNode, ctx: Ctx, micro: boolean): Outcome {
    if (n.kind !== 'string') throw new Fatal(this.typeErrorText(goJsonKindWord(n), 'string', ctx));
    try {
      if (micro) {
        const t = parseMicroTime(n.value);
        return formatMicroTime(t.ms, t.micros);
      }
      return formatRFC3339(parseGoRFC3339(n.value));
    } catch (e) {
      if (e instanceof TimeParseError) throw new Fatal(e.message);
      throw e;
    }
  }
}

/** Decodes a parsed document into a plain object shaped by `schema`. */
export function decodeTree(root: GoJsonNode, schema: ObjectSchema, opts: TreeDecodeOptions): TreeDecodeResult {
  const d = new TreeDecoder(opts.strict);
  const top = Ctx.root();
  try {
    let value: Record<string, unknown> = {};
    if (root.kind === 'object') value = d.struct(root, schema, undefined, top);
    else if (root.kind !== 'null' && schema.unstructured) d.saved = `json: cannot unmarshal ${goJsonKindWord(root)} into Go value of type map[string]interface {}`;
    else if (root.kind !== 'null') d.value(root, { type: 'object', ref: () => schema }, undefined, top, false);
    if (d.saved !== undefined) return { value, strictErrors: [], error: d.saved };
    return { value, strictErrors: schema.unstructured ? d.ordered() : d.strictErrors };
  } catch (e) {
    if (e instanceof Fatal) return { value: {}, strictErrors: [], error: e.message };
    throw e;
  }
}
