// A CRD version's structural openAPIV3Schema (plain JSON, as stored in the CRD) → the schema model
// every other part reads (decoding with fieldValidation and pruning, defaulting, validation,
// apply, Tables, OpenAPI, CEL types). Every node is `unstructured`: decoded and written as
// upstream's unstructured objects (lib/codec/normalize.ts, decodeTree.ts).
// - The root and every x-kubernetes-embedded-resource object have apiVersion and kind (strings)
//   and metadata (ObjectMeta: what it does not know is pruned, custom-resources.md §11) besides
//   the schema's properties; at the root, metadata keeps the schema's rules on name and
//   generateName, the only ones a CRD may set there.
// - type object: with properties → an object node (x-kubernetes-preserve-unknown-fields keeps the
//   fields it does not list); with additionalProperties → a map; with neither → free-form when
//   it preserves unknown fields (or is an embedded resource without properties), else an object
//   with no fields (everything in it pruned, as upstream).
// - No type: x-kubernetes-int-or-string → int-or-string; else (preserve-unknown-fields) any value.
// - allOf/anyOf/oneOf/not become value-rule trees (with the types of the int-or-string pattern
//   anyOf [{type: integer}, {type: string}], which upstream validates as written).
// Definition names are `${reversed group}.${version}.${kind}` with the property path appended
// (`.spec.ports[]`: array items, `{}`: map values), so every node's name is its own.
import { ObjectMetaSchema } from '../../api/meta';
import type { JSONSchemaProps } from '../../api/apiextensions/jsonSchemaProps';
import type { FieldOptions, FieldSchema, Junctors, ListType, MapType, ObjectRules, ObjectSchema, SchemaJson, ValueRules } from '../../api/schema';
import { setOwn } from '../../machinery/jsonValue';

export interface CustomResourceNames {
  group: string;
  version: string;
  kind: string;
}

/** Deeper than a CRD can nest (its JSON is decoded to at most 1000 levels): a guard only. */
const maxDepth = 1000;

const own = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** A property name as a definition-name segment: the separators it could be confused with escaped. */
const segment = (k: string): string => k.replace(/~/g, '~0').replace(/\./g, '~1').replace(/\[/g, '~2').replace(/\{/g, '~3');

/** Go's map order (by UTF-8 bytes), which is code-point order. */
function sortedKeys(keys: Iterable<string>): string[] {
  return [...keys].sort((a, b) => {
    const x = [...a];
    const y = [...b];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
      if (d !== 0) return d;
    }
    return x.length - y.length;
  });
}

/** `items` as a structural schema has it: one schema (a list of them is refused by CRD validation). */
const itemsOf = (p: JSONSchemaProps): JSONSchemaProps | undefined => (Array.isArray(p.items) ? undefined : p.items);

function definedOnly<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

class Converter {
  private check(depth: number): void {
    if (depth > maxDepth) throw new RangeError(`schema nested more than ${maxDepth} levels deep`);
  }

  /** Value keywords of a node (junctor trees included). */
  rules(p: JSONSchemaProps, depth: number): Omit<ValueRules, 'type'> {
    this.check(depth);
    const { anyOf, allOf } = p;
    const tree = (x: JSONSchemaProps): ValueRules => this.junctorRules(x, depth + 1);
    return definedOnly<Omit<ValueRules, 'type'>>({
      enum: p.enum as SchemaJson[] | undefined,
      pattern: p.pattern,
      minLength: p.minLength,
      maxLength: p.maxLength,
      validationFormat: p.format,
      minimum: p.minimum,
      maximum: p.maximum,
      exclusiveMinimum: p.exclusiveMinimum || undefined,
      exclusiveMaximum: p.exclusiveMaximum || undefined,
      multipleOf: p.multipleOf,
      minItems: p.minItems,
      maxItems: p.maxItems,
      uniqueItems: p.uniqueItems || undefined,
      minProperties: p.minProperties,
      maxProperties: p.maxProperties,
      requiredProperties: p.required?.length ? p.required : undefined,
      allOf: allOf?.length ? allOf.map(tree) : undefined,
      anyOf: anyOf?.length ? anyOf.map(tree) : undefined,
      oneOf: p.oneOf?.length ? p.oneOf.map(tree) : undefined,
      not: p.not ? tree(p.not) : undefined,
    });
  }

  /** A schema inside allOf/anyOf/oneOf/not: keywords and the same for its children. */
  private junctorRules(p: JSONSchemaProps, depth: number): ValueRules {
    const r: ValueRules = this.rules(p, depth);
    // Structural schemas allow a type here only in the int-or-string pattern; upstream validates it.
    if (p.type === 'integer' || p.type === 'string') r.type = p.type;
    if (p.properties) {
      const props: Record<string, ValueRules> = {};
      for (const k of sortedKeys(Object.keys(p.properties))) setOwn(props, k, this.junctorRules(p.properties[k]!, depth + 1));
      r.properties = props;
    }
    const items = itemsOf(p);
    if (items) r.items = this.junctorRules(items, depth + 1);
    if (typeof p.additionalProperties === 'object') r.additionalProperties = this.junctorRules(p.additionalProperties, depth + 1);
    return r;
  }

  /** FieldOptions shared by every kind of field. */
  private options(p: JSONSchemaProps): FieldOptions {
    return definedOnly<FieldOptions>({ description: p.description, nullable: p.nullable || undefined, default: p.default as SchemaJson | undefined });
  }

  field(p: JSONSchemaProps, name: string, depth: number): FieldSchema {
    this.check(depth);
    const base = { ...this.options(p), ...this.rules(p, depth) };
    const { requiredProperties: _r, minProperties: _min, maxProperties: _max, ...scalar } = base;
    if (p['x-kubernetes-int-or-string']) return { type: 'intOrString', ...scalar };
    switch (p.type) {
      case 'string':
        return { type: 'string', ...scalar };
      case 'integer':
        return { type: 'integer', ...scalar, format: p.format === 'int32' ? 'int32' : 'int64' };
      case 'number':
        return definedOnly({ type: 'number' as const, ...scalar, format: p.format });
      case 'boolean':
        return { type: 'boolean', ...scalar };
      case 'array':
        return definedOnly({
          type: 'array' as const,
          ...scalar,
          items: itemsOf(p) ? this.field(itemsOf(p)!, `${name}[]`, depth + 1) : { type: 'any' as const, untyped: true, preserveUnknownFields: true },
          listType: p['x-kubernetes-list-type'] as ListType | undefined,
          listMapKeys: p['x-kubernetes-list-map-keys']?.length ? p['x-kubernetes-list-map-keys'] : undefined,
        });
      case 'object':
        return this.objectField(p, name, depth, base);
      default:
        // Untyped: structural schemas allow it only with x-kubernetes-preserve-unknown-fields.
        return { type: 'any', ...base, untyped: true, preserveUnknownFields: p['x-kubernetes-preserve-unknown-fields'] || undefined };
    }
  }

  private objectField(p: JSONSchemaProps, name: string, depth: number, base: FieldOptions & Omit<ValueRules, 'type'>): FieldSchema {
    const mapType = p['x-kubernetes-map-type'] as MapType | undefined;
    const embedded = p['x-kubernetes-embedded-resource'] === true;
    const preserve = p['x-kubernetes-preserve-unknown-fields'] === true;
    const additional = p.additionalProperties;
    if (!p.properties && !embedded && typeof additional === 'object') {
      return definedOnly({ type: 'map' as const, ...base, values: this.field(additional, `${name}{}`, depth + 1), mapType });
    }
    if (!p.properties && !embedded && additional === true) {
      return definedOnly({ type: 'map' as const, ...base, values: { type: 'any' as const, untyped: true, preserveUnknownFields: true }, mapType });
    }
    if (!p.properties && preserve && !embedded) {
      return definedOnly({ type: 'any' as const, ...base, preserveUnknownFields: true });
    }
    const { requiredProperties, minProperties, maxProperties, allOf, anyOf, oneOf, not, ...fieldRules } = base;
    const schema = this.object(p, name, depth, embedded, { requiredProperties, minProperties, maxProperties });
    // The junctors stay on the field: the validator reads them there.
    return definedOnly({ type: 'object' as const, ...fieldRules, allOf, anyOf, oneOf, not, ref: () => schema, mapType, embeddedResource: embedded || undefined });
  }

  /** An object node: its properties (and TypeMeta/ObjectMeta when it is a resource), sorted. */
  object(p: JSONSchemaProps | undefined, name: string, depth: number, resource: boolean, rules: ObjectRules & Junctors): ObjectSchema {
    const fields: Record<string, FieldSchema> = {};
    const props = p?.properties ?? {};
    const keys = new Set(Object.keys(props));
    if (resource) for (const k of ['apiVersion', 'kind', 'metadata']) keys.add(k);
    for (const k of sortedKeys(keys)) {
      const sub = own(props, k) ? props[k] : undefined;
      let f: FieldSchema;
      if (resource && k === 'metadata') f = { type: 'object', ref: () => ObjectMetaSchema };
      else if (resource && (k === 'apiVersion' || k === 'kind')) f = sub ? this.field({ ...sub, type: 'string' }, `${name}.${k}`, depth + 1) : { type: 'string' };
      else f = this.field(sub!, `${name}.${segment(k)}`, depth + 1);
      setOwn(fields, k, f);
    }
    return definedOnly<ObjectSchema>({
      name,
      description: p?.description,
      unstructured: true,
      inline: true,
      fields,
      preserveUnknownFields: p === undefined || p['x-kubernetes-preserve-unknown-fields'] === true || undefined,
      rules: Object.keys(definedOnly(rules)).length ? rules : undefined,
    });
  }

  /** The root's metadata: ObjectMeta, with the schema's rules on name and generateName (the only ones allowed). */
  rootMetadata(p: JSONSchemaProps | undefined): FieldSchema {
    const meta = p?.properties?.metadata?.properties;
    const restricted = ['name', 'generateName'].filter((k) => meta && own(meta, k));
    if (!meta || restricted.length === 0) return { type: 'object', ref: () => ObjectMetaSchema };
    const fields = { ...ObjectMetaSchema.fields } as Record<string, FieldSchema>;
    for (const k of restricted) fields[k] = { ...fields[k]!, ...this.rules(meta[k]!, 1) } as FieldSchema;
    // Same definition name: normalize keys its ObjectMeta rules on it, and OpenAPI publishes ObjectMeta.
    const schema: ObjectSchema = { ...ObjectMetaSchema, fields };
    return { type: 'object', ref: () => schema };
  }
}

/** `stable.example.com` → `com.example.stable`. */
const reversedGroup = (group: string): string => group.split('.').reverse().join('.');

/**
 * The root ObjectSchema of a custom resource version from its openAPIV3Schema (plain JSON as
 * stored; `undefined` when the version has none: everything is kept). Throws RangeError only for
 * a schema nested deeper than any CRD can be decoded.
 */
export function schemaFromProps(props: JSONSchemaProps | undefined, names: CustomResourceNames): ObjectSchema {
  const rootName = `${reversedGroup(names.group)}.${names.version}.${names.kind}`;
  const c = new Converter();
  const r = props ? c.rules(props, 0) : {};
  const objectRules = definedOnly<ObjectRules & Junctors>({
    requiredProperties: r.requiredProperties,
    minProperties: r.minProperties,
    maxProperties: r.maxProperties,
    allOf: r.allOf,
    anyOf: r.anyOf,
    oneOf: r.oneOf,
    not: r.not,
  });
  // The root is the kind's definition; only the objects under it are inline.
  const { inline: _nested, ...root } = c.object(props, rootName, 0, true, objectRules);
  return { ...root, fields: { ...root.fields, metadata: c.rootMetadata(props) } };
}
