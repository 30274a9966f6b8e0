// structured-merge-diff's typed validation (typed/validate.go, v4.4): what converting an object to
// a TypedValue checks before any field set or merge is made from it. Scalars must have the
// schema's type (null is any type's empty value), maps and lists must be maps and lists,
// structs declare every field, associative list items must name themselves (keys present, no
// nulls, sets of scalars only) and, unless allowed, not repeat. The texts are upstream's, values
// printed as Go prints its value wrappers (`&{0.5}`, `&value.valueUnstructured{Value:5}`).
import type { FieldSchema, ObjectSchema } from '../../api/schema';
import { goFormatValue, goKind, goSharpV, goTypeNames } from '../goFormat';
import { goQuote } from '../goStrconv';
import type { JsonValue } from '../jsonValue';
import { getOwn, hasOwn, isJsonObject } from '../jsonValue';
import { pathElementString, pe, type PathElement, serializePathElement } from './pathElement';
import { nodeKind, rootField } from './schemaWalk';

/**
 * An object that does not convert to its schema's typed value: the applied configuration
 * (`patch`) or the stored object (`live`); the message is upstream's ValidationErrors text.
 */
export class TypedValueError extends Error {
  constructor(
    readonly object: 'patch' | 'live',
    message: string,
  ) {
    super(message);
  }
}

export interface TypedValidationError {
  /** Upstream's path prefix, e.g. `.spec.conditions[type="Ready"].status` ('' at the root). */
  path: string;
  message: string;
}

/** ValidationErrors.Error(): one error alone, or `errors:` and one indented line each. */
export function typedValidationText(errs: readonly TypedValidationError[]): string {
  const one = (e: TypedValidationError): string => (e.path ? `${e.path}: ${e.message}` : e.message);
  if (errs.length === 1) return one(errs[0]);
  return ['errors:', ...errs.map((e) => `  ${one(e)}`)].join('\n');
}

/** %v of a *valueUnstructured (a pointer to a struct holding the value). */
const wrapped = (v: JsonValue): string => `&{${goFormatValue(v)}}`;

class Walk {
  readonly errors: TypedValidationError[] = [];
  private readonly path: string[] = [];
  constructor(private readonly allowDuplicates: boolean) {}

  private fail(message: string, extra = ''): void {
    this.errors.push({ path: this.path.join('') + extra, message });
  }

  value(v: JsonValue, f: FieldSchema): void {
    switch (f.type) {
      case 'any':
        return;
      case 'string':
        if (v !== null && typeof v !== 'string') this.fail(`expected string, got &value.valueUnstructured{Value:${goSharpV(v)}}`);
        return;
      case 'intOrString':
        if (v !== null && typeof v !== 'number' && typeof v !== 'string') this.fail(`expected numeric (int or float) or string, got ${goTypeNames[goKind(v)]}`);
        return;
      case 'integer':
      case 'number':
        if (v !== null && typeof v !== 'number') this.fail(`expected numeric (int or float), got ${goTypeNames[goKind(v)]}`);
        return;
      case 'boolean':
        if (v !== null && typeof v !== 'boolean') this.fail(`expected boolean, got ${wrapped(v)}`);
        return;
      case 'array':
        if (v === null) return;
        if (!Array.isArray(v)) this.fail(`expected list, got ${wrapped(v)}`);
        else this.list(v, f);
        return;
      case 'object':
      case 'map':
        if (v === null) return;
        if (!isJsonObject(v)) this.fail(`expected map, got ${wrapped(v)}`);
        else this.map(v, f);
        return;
    }
  }

  private map(o: Record<string, JsonValue>, f: Extract<FieldSchema, { type: 'object' | 'map' }>): void {
    const fields = f.type === 'object' ? f.ref().fields : undefined;
    for (const key of Object.keys(o)) {
      const child = fields ? (getOwn(fields, key) as FieldSchema | undefined) : f.type === 'map' ? f.values : undefined;
      this.path.push(`.${key}`);
      // x-kubernetes-preserve-unknown-fields: undeclared members are free-form (upstream: deduced).
      if (!child && f.type === 'object' && f.ref().preserveUnknownFields) {
        this.path.pop();
        continue;
      }
      if (!child) {
        // Upstream stops at the first field a struct does not declare.
        this.fail('field not declared in schema');
        this.path.pop();
        return;
      }
      this.value(o[key], child);
      this.path.pop();
    }
  }

  private list(items: JsonValue[], f: Extract<FieldSchema, { type: 'array' }>): void {
    const k = nodeKind(f);
    const associative = k.kind === 'list';
    const seen = new Set<string>();
    for (let i = 0; i < items.length; i++) {
      let element: PathElement;
      if (!associative) element = pe.index(i);
      else {
        const named = this.element(items[i], k.keys);
        if (typeof named === 'string') {
          // An item that cannot be named ends the list's validation.
          this.fail(`element ${i}: ${named}`);
          return;
        }
        element = named;
        const id = serializePathElement(element);
        if (seen.has(id) && !this.allowDuplicates) this.fail(`duplicate entries for key ${pathElementString(element)}`);
        seen.add(id);
      }
      this.path.push(pathElementString(element));
      this.value(items[i], f.items);
      this.path.pop();
    }
  }

  /** listItemToPathElement: the item's name in an associative list, or why it has none. */
  private element(item: JsonValue, keys: readonly string[]): PathElement | string {
    if (!keys.length) {
      if (isJsonObject(item)) return "associative list without keys has an element that's a map type";
      if (Array.isArray(item)) return 'not supported: associative list with lists as elements';
      if (item === null) return "associative list without keys has an element that's an explicit null";
      return pe.value(item);
    }
    if (item === null) return 'associative list with keys may not have a null element';
    if (!isJsonObject(item)) return 'associative list with keys may not have non-map elements';
    const fields: Record<string, JsonValue> = {};
    for (const key of keys) {
      if (!hasOwn(item, key)) return `associative list with keys has an element that omits key field ${goQuote(key)} (and doesn't have default value)`;
      fields[key] = item[key];
    }
    return pe.key(fields);
  }
}

/**
 * The errors upstream's conversion of `obj` to a typed value of `schema` reports, in document
 * order (upstream walks maps in Go's random order; it stops at a struct's first undeclared
 * field too). Duplicates in associative lists are errors unless allowed (live objects).
 */
export function typedValidationErrors(obj: JsonValue, schema: ObjectSchema, opts: { allowDuplicates?: boolean } = {}): TypedValidationError[] {
  const walk = new Walk(opts.allowDuplicates === true);
  walk.value(obj, rootField(schema));
  return walk.errors;
}
