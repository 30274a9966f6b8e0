// Upstream's ValidateCustomResourceSelectableFields with the field-path resolution of its CEL
// package (ValidFieldPath, here with array notation off): at most 8 distinct paths, none under metadata,
// each to a string, boolean or integer field.
import type { JSONSchemaProps } from '../../api';
import { fieldErr, type FieldError } from '../../machinery/fieldErrors';
import { asSchema, schemaOrBool } from './schemaWalk';

export const maxSelectableFields = 8;

interface Resolved {
  /** The path as upstream's field.Path prints it (spec.color, spec.labels[key]). */
  path: string;
  root: string;
  schema: JSONSchemaProps | undefined;
}

/** Tokens as ValidFieldPath's scanner splits them: the delimiters . [ ], quoted strings, the runs between. */
function tokens(jsonPath: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < jsonPath.length) {
    const ch = jsonPath[i];
    if (ch === "'") {
      // A quoted token runs to the next quote not preceded by a backslash.
      let j = i + 1;
      while (j < jsonPath.length && !(jsonPath[j] === "'" && jsonPath[j - 1] !== '\\')) j++;
      out.push(jsonPath.slice(i, j + 1));
      i = j + 1;
    } else if (ch === '.' || ch === '[' || ch === ']') {
      out.push(ch);
      i++;
    } else {
      let j = i;
      while (j < jsonPath.length && !'.[]'.includes(jsonPath[j])) j++;
      out.push(jsonPath.slice(i, j));
      i = j;
    }
  }
  return out;
}

const escapes: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };

function unescapeSingleQuote(s: string): string {
  return s.replace(/\\./gs, (m) => {
    const r = escapes[m[1]];
    if (r === undefined) throw new Error(`invalid string literal: invalid escape char ${m}`);
    return r;
  });
}

/** Upstream's ValidFieldPath (apiextensions cel package): the path, its first element and the schema it reaches. */
export function resolveFieldPath(jsonPath: string, root: JSONSchemaProps, allowArrayNotation = false): Resolved | string {
  let schema: JSONSchemaProps | undefined = root;
  let path = '';
  let first = '';
  const ts = tokens(jsonPath);
  const step = (name: string): string | undefined => {
    if (!schema) return 'does not refer to a valid field';
    if (schema.properties) {
      const next: JSONSchemaProps | undefined = asSchema(schema.properties[name]);
      path = path ? `${path}.${name}` : name;
      if (!Object.hasOwn(schema.properties, name) || !next) return 'does not refer to a valid field';
      schema = next;
    } else if (schema.additionalProperties !== undefined && schema.additionalProperties !== null) {
      path = `${path}[${name}]`;
      schema = schemaOrBool(schema.additionalProperties)?.schema;
    } else {
      return 'does not refer to a valid field';
    }
    first ||= name;
    return undefined;
  };
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i];
    if (t === '[') {
      if (!allowArrayNotation) return 'array notation is not allowed';
      const q = ts[++i];
      if (q === undefined) return 'unexpected end of JSON path';
      if (q.length < 2 || q[0] !== "'" || q[q.length - 1] !== "'") return `expected single quoted string but got ${q}`;
      let name: string;
      try {
        name = unescapeSingleQuote(q.slice(1, -1));
      } catch (e) {
        return (e as Error).message;
      }
      const err = step(name);
      if (err) return err;
      const close = ts[++i];
      if (close === undefined) return 'unexpected end of JSON path';
      if (close !== ']') return `expected ] but got ${close}`;
    } else if (t === '.') {
      const name = ts[++i];
      if (name === undefined) return 'unexpected end of JSON path';
      const err = step(name);
      if (err) return err;
    } else {
      return `expected [ or . but got: ${t}`;
    }
  }
  return { path, root: first, schema };
}

export function validateSelectableFields(fields: readonly { jsonPath?: string }[], schema: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const p = `${path}[${i}].jsonPath`;
    const jsonPath = f.jsonPath ?? '';
    if (!jsonPath) {
      errs.push(fieldErr.required(p));
      return;
    }
    const r = resolveFieldPath(jsonPath, schema);
    if (typeof r === 'string') {
      errs.push(fieldErr.invalid(p, jsonPath, `is an invalid path: ${r}`));
      return;
    }
    if (r.root === 'metadata') errs.push(fieldErr.invalid(p, jsonPath, 'must not point to fields in metadata'));
    const type = r.schema?.type;
    if (type !== 'string' && type !== 'boolean' && type !== 'integer') {
      errs.push(fieldErr.invalid(p, jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    if (unique.has(r.path)) errs.push(fieldErr.duplicate(p, jsonPath));
    else unique.add(r.path);
  });
  if (unique.size > maxSelectableFields) errs.push(fieldErr.tooMany(path, unique.size, maxSelectableFields));
  return errs;
}
