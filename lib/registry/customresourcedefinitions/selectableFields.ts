// Upstream's ValidateCustomResourceSelectableFields with the field-path resolution of its CEL
// package (ValidFieldPath, array notation off): at most 8 distinct paths, none under metadata,
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

/** Tokens as ValidFieldPath's scanner splits them: the delimiters . [ ] and the runs between. */
function tokens(jsonPath: string): string[] {
  const out: string[] = [];
  let run = '';
  for (const ch of jsonPath) {
    if (ch === '.' || ch === '[' || ch === ']') {
      if (run) out.push(run);
      run = '';
      out.push(ch);
    } else run += ch;
  }
  if (run) out.push(run);
  return out;
}

export function resolveFieldPath(jsonPath: string, root: JSONSchemaProps): Resolved | string {
  let schema: JSONSchemaProps | undefined = root;
  let path = '';
  let first = '';
  const ts = tokens(jsonPath);
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i];
    if (t === '[') return 'array notation is not allowed';
    if (t !== '.') return `expected [ or . but got: ${t}`;
    const name = ts[++i];
    if (name === undefined) return 'unexpected end of JSON path';
    if (!schema) return 'does not refer to a valid field';
    if (schema.properties) {
      const next: JSONSchemaProps | undefined = asSchema(schema.properties[name]);
      if (!Object.hasOwn(schema.properties, name) || !next) return 'does not refer to a valid field';
      path = path ? `${path}.${name}` : name;
      schema = next;
    } else if (schema.additionalProperties !== undefined && schema.additionalProperties !== null) {
      path = `${path}[${name}]`;
      schema = schemaOrBool(schema.additionalProperties)?.schema;
    } else {
      return 'does not refer to a valid field';
    }
    first ||= name;
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
