// OpenAPI schema objects for the schema language: one definition per ObjectSchema (named
// by its definition name), fields as properties with the x-kubernetes-* extensions
// (list type, map keys, map type, patch strategy and merge key) that clients such as
// kubectl read for strategic merge and apply.
import { openapiExtensions as X } from '../../api/product';
import type { FieldSchema, ObjectSchema, ValueRules } from '../../api/schema';
import type { GVK } from './routes';

export type Flavor = 'v2' | 'v3';
export type JSONObject = { [k: string]: unknown };

export function refTo(name: string, flavor: Flavor): string {
  // JSON-pointer escaping of the name (EscapeJsonPointer).
  const escaped = name.replace(/~/g, '~0').replace(/\//g, '~1');
  return flavor === 'v2' ? `#/definitions/${escaped}` : `#/components/schemas/${escaped}`;
}

/** A $ref with sibling keywords: v2 keeps them side by side, v3 wraps the ref in allOf. */
function withRef(name: string, siblings: JSONObject, flavor: Flavor): JSONObject {
  if (Object.keys(siblings).length === 0) return { $ref: refTo(name, flavor) };
  if (flavor === 'v2') return { $ref: refTo(name, flavor), ...siblings };
  return { allOf: [{ $ref: refTo(name, flavor) }], ...siblings };
}

/** The OpenAPI value keywords a field carries (custom resources mostly), after its type's own. */
function valueKeywords(o: JSONObject, f: FieldSchema | ValueRules, flavor: Flavor): JSONObject {
  const r = f as ValueRules & { nullable?: boolean; default?: unknown; validationFormat?: string };
  // A string field's enum is already written, in its place among the string keywords.
  if (r.enum && o.enum === undefined) o.enum = [...r.enum];
  if (r.validationFormat !== undefined) o.format = r.validationFormat;
  for (const k of keywordOrder) if (r[k] !== undefined && o[k] === undefined) o[k] = Array.isArray(r[k]) ? [...(r[k] as unknown[])] : r[k];
  if (r.requiredProperties?.length) o.required = [...r.requiredProperties];
  if (r.default !== undefined) o.default = r.default;
  // Swagger 2.0 has neither nullable nor the junctors: upstream strips them from the v2 document.
  if (flavor === 'v3') {
    if (r.nullable) o.nullable = true;
    for (const j of ['allOf', 'anyOf', 'oneOf'] as const) {
      const list = r[j];
      if (list?.length) o[j] = list.map((x) => rulesJSON(x, flavor));
    }
    if (r.not) o.not = rulesJSON(r.not, flavor);
  }
  return o;
}

const keywordOrder = [
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'maxProperties',
  'minProperties',
] as const;

/** A junctor's value-rule tree. */
function rulesJSON(r: ValueRules, flavor: Flavor): JSONObject {
  const o: JSONObject = r.type ? { type: r.type } : {};
  if (r.properties) {
    const props: JSONObject = {};
    for (const [n, p] of Object.entries(r.properties)) props[n] = rulesJSON(p, flavor);
    o.properties = props;
  }
  if (r.items) o.items = rulesJSON(r.items, flavor);
  if (r.additionalProperties) o.additionalProperties = rulesJSON(r.additionalProperties, flavor);
  return valueKeywords(o, r, flavor);
}

function fieldSchema(f: FieldSchema, flavor: Flavor, top: boolean): JSONObject {
  const extra: JSONObject = {};
  if (top && f.description) extra.description = f.description;
  switch (f.type) {
    case 'string': {
      const o: JSONObject = { ...extra, type: 'string' };
      if (f.format) o.format = f.format;
      if (f.enum) o.enum = [...f.enum];
      if (f.maxLength !== undefined) o.maxLength = f.maxLength;
      return valueKeywords(o, f, flavor);
    }
    case 'integer':
      return valueKeywords({ ...extra, type: 'integer', format: f.format }, f, flavor);
    case 'number': {
      const o: JSONObject = { ...extra, type: 'number' };
      if (f.format) o.format = f.format;
      return valueKeywords(o, f, flavor);
    }
    case 'intOrString':
      return valueKeywords({ ...extra, [X.intOrString]: true }, f, flavor);
    case 'boolean':
      return valueKeywords({ ...extra, type: 'boolean' }, f, flavor);
    case 'any': {
      // An untyped custom-resource node publishes no type; every other free-form value is an object.
      const o: JSONObject = f.untyped ? { ...extra } : { ...extra, type: 'object' };
      if (f.preserveUnknownFields) o[X.preserveUnknownFields] = true;
      if (f.embeddedResource) o[X.embeddedResource] = true;
      return valueKeywords(o, f, flavor);
    }
    case 'object': {
      if (f.mapType) extra[X.mapType] = f.mapType;
      if (f.embeddedResource) extra[X.embeddedResource] = true;
      const target = f.ref();
      // A custom resource's nested objects are inline, as upstream publishes a CRD's schema
      // (kubectl explain prints them as <Object>); only its root is a definition.
      if (target.inline) {
        const body = objectBody(target, flavor);
        if (!top) delete body.description;
        return valueKeywords({ ...body, ...extra }, f, flavor);
      }
      return withRef(target.name, valueKeywords(extra, f, flavor), flavor);
    }
    case 'map': {
      const o: JSONObject = { ...extra, type: 'object', additionalProperties: fieldSchema(f.values, flavor, false) };
      if (f.mapType) o[X.mapType] = f.mapType;
      if (f.maxProperties !== undefined) o.maxProperties = f.maxProperties;
      return valueKeywords(o, f, flavor);
    }
    case 'array': {
      const o: JSONObject = { ...extra, type: 'array', items: fieldSchema(f.items, flavor, false) };
      if (f.listMapKeys?.length) o[X.listMapKeys] = [...f.listMapKeys];
      if (f.listType) o[X.listType] = f.listType;
      if (f.patchMergeKey) o[X.patchMergeKey] = f.patchMergeKey;
      if (f.patchStrategy) o[X.patchStrategy] = f.patchStrategy;
      if (f.maxItems !== undefined) o.maxItems = f.maxItems;
      return valueKeywords(o, f, flavor);
    }
  }
}

/** The definition of one object schema; `gvks` marks top-level kinds. */
export function definitionOf(schema: ObjectSchema, flavor: Flavor, gvks: readonly GVK[] = []): JSONObject {
  const o = objectBody(schema, flavor);
  if (gvks.length) o[X.groupVersionKind] = gvks.map((g) => ({ group: g.group, kind: g.kind, version: g.version }));
  return o;
}

function objectBody(schema: ObjectSchema, flavor: Flavor): JSONObject {
  const o: JSONObject = {};
  if (schema.description) o.description = schema.description;
  o.type = 'object';
  const names = Object.keys(schema.fields).sort();
  if (names.length) {
    const props: JSONObject = {};
    for (const n of names) props[n] = fieldSchema(schema.fields[n], flavor, true);
    o.properties = props;
  }
  const required = [...Object.keys(schema.fields).filter((n) => schema.fields[n].required), ...(schema.rules?.requiredProperties ?? [])];
  if (required.length) o.required = required;
  if (schema.rules) {
    const { requiredProperties: _done, ...rest } = schema.rules;
    valueKeywords(o, rest, flavor);
  }
  if (schema.preserveUnknownFields) o[X.preserveUnknownFields] = true;
  return o;
}

/** Every object schema reachable from the roots (roots included), by definition name. */
export function reachableSchemas(roots: Iterable<ObjectSchema>): Map<string, ObjectSchema> {
  const out = new Map<string, ObjectSchema>();
  const visitField = (f: FieldSchema): void => {
    if (f.type === 'object' && f.ref().inline) visitFields(f.ref());
    else if (f.type === 'object') visit(f.ref());
    else if (f.type === 'array') visitField(f.items);
    else if (f.type === 'map') visitField(f.values);
  };
  const visit = (s: ObjectSchema): void => {
    if (out.has(s.name)) return;
    out.set(s.name, s);
    visitFields(s);
  };
  // Inline objects (a custom resource's nested ones) are not definitions; what they reference is.
  const visitFields = (s: ObjectSchema): void => {
    for (const f of Object.values(s.fields)) visitField(f);
  };
  for (const r of roots) visit(r);
  return out;
}
