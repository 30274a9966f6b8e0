// apiextensions' ValidFieldPath (apiserver/schema/cel/validation.go): a JSON path of field and
// map accessors (`.a.b`, `.a['b.c']`) checked against a structural schema, answered as a field
// path. CRDs use it for selectableFields (without array notation) and for the fieldPath of
// x-kubernetes-validations rules. Error texts are upstream's.
import { FieldPath } from '../fieldErrors';

/** What ValidFieldPath reads of a structural schema. */
export interface FieldPathSchema {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, FieldPathSchema>>;
  /** A map's values (StructuralOrBool: a schema, or a bool that has none). */
  readonly additionalProperties?: FieldPathSchema | boolean;
}

export type ValidFieldPathResult =
  | {
      ok: true;
      path: FieldPath;
      /** The first element as Go's path.Root().String() prints it ("spec", or "[key]" at a map root). */
      root: string;
      schema: FieldPathSchema | undefined;
    }
  | { ok: false; error: string };

/** The scanner's tokens: '.', '[' and ']' alone, a single-quoted string whole, other text up to a delimiter. */
function* tokens(s: string): Generator<string> {
  let rest = s;
  while (rest.length > 0) {
    let end = rest.length;
    if (rest[0] === "'") {
      for (let i = 1; i < rest.length; i++) {
        if (rest[i] === "'" && rest[i - 1] !== '\\') {
          end = i + 1;
          break;
        }
      }
    } else {
      for (let i = 0; i < rest.length; i++) {
        const c = rest[i];
        if (c === '.' || c === '[' || c === ']') {
          end = i === 0 ? 1 : i;
          break;
        }
      }
    }
    yield rest.slice(0, end);
    rest = rest.slice(end);
  }
}

const escapes: Readonly<Record<string, string>> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };

/** unescapeSingleQuote: each `\x` (x not a newline) replaced; the last unknown one is the error. */
function unescapeSingleQuote(s: string): { value: string; error?: string } {
  let out = '';
  let error: string | undefined;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && i + 1 < s.length && s[i + 1] !== '\n') {
      const cp = s.codePointAt(i + 1) as number;
      const d = String.fromCodePoint(cp);
      if (d in escapes) out += escapes[d];
      else error = `invalid escape char \\${d}`;
      i += d.length;
    } else {
      out += s[i];
    }
  }
  return { value: out, error };
}

/**
 * ValidFieldPath: the field path `jsonPath` names in `schema` and the schema found there, or
 * upstream's error ("does not refer to a valid field", "expected [ or . but got: a", …).
 */
export function validFieldPath(jsonPath: string, schema: FieldPathSchema | undefined, opts: { allowArrayNotation?: boolean } = {}): ValidFieldPathResult {
  const allowArrayNotation = opts.allowArrayNotation ?? true;
  let path = new FieldPath();
  let root: string | undefined;
  let cur = schema;
  const fail = (error: string): ValidFieldPathResult => ({ ok: false, error });

  /** Whether the next step is a property (true) or a map key (false); undefined when neither. */
  const named = (): boolean | undefined => {
    if (cur?.properties !== undefined) return true;
    if (cur?.additionalProperties !== undefined && cur.additionalProperties !== false) return false;
    return undefined;
  };
  const append = (name: string, isNamed: boolean): boolean => {
    root ??= isNamed ? name : `[${name}]`;
    if (!isNamed) {
      path = path.key(name);
      const ap = cur?.additionalProperties;
      cur = typeof ap === 'object' ? ap : undefined;
      return true;
    }
    path = path.child(name);
    const props = cur?.properties;
    if (!props || !Object.prototype.hasOwnProperty.call(props, name)) return false;
    cur = props[name];
    return true;
  };

  const it = tokens(jsonPath);
  for (let t = it.next(); !t.done; t = it.next()) {
    const tok = t.value;
    if (tok === '[') {
      if (!allowArrayNotation) return fail('array notation is not allowed');
      const k = it.next();
      if (k.done) return fail('unexpected end of JSON path');
      const key = k.value;
      if (key.length < 2 || key[0] !== "'" || key[key.length - 1] !== "'") return fail(`expected single quoted string but got ${key}`);
      const unescaped = unescapeSingleQuote(key.slice(1, -1));
      if (unescaped.error !== undefined) return fail(`invalid string literal: ${unescaped.error}`);
      const isNamed = named();
      if (isNamed === undefined || !append(unescaped.value, isNamed)) return fail('does not refer to a valid field');
      const close = it.next();
      if (close.done) return fail('unexpected end of JSON path');
      if (close.value !== ']') return fail(`expected ] but got ${close.value}`);
    } else if (tok === '.') {
      const n = it.next();
      if (n.done) return fail('unexpected end of JSON path');
      const isNamed = named();
      if (isNamed === undefined || !append(n.value, isNamed)) return fail('does not refer to a valid field');
    } else {
      return fail(`expected [ or . but got: ${tok}`);
    }
  }
  return { ok: true, path, root: root ?? '', schema: cur };
}
