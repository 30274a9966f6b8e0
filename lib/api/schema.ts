// The declarative schema language (DESIGN.md §2.5). One description per type drives decoding
// and field validation, defaulting, merge semantics, OpenAPI and (later) Protobuf and CEL.
// TypeScript types are inferred from the schemas (TypeOf), so no field list is written twice.

export type ListType = 'atomic' | 'set' | 'map';
export type MapType = 'atomic' | 'granular';
export type PatchStrategy = 'merge' | 'retainKeys' | 'merge,retainKeys';

/** A JSON value held by a schema (default, enum); lib/api imports nothing, so it is declared here. */
export type SchemaJson = null | boolean | number | string | readonly SchemaJson[] | { readonly [key: string]: SchemaJson };

// OpenAPI value keywords (custom resource schemas; built-in kinds use a few to bound CEL's cost).
// They constrain values only: decoding and emission ignore them; lib/machinery/validation/schemaValues.ts checks them.
export interface StringRules {
  pattern?: string;
  minLength?: number;
  /** OpenAPI maxLength: bounds CEL's static cost estimate. */
  maxLength?: number;
  /** See FieldOptions.validationFormat. */
  validationFormat?: string;
}
export interface NumericRules {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
}
export interface ArrayRules {
  minItems?: number;
  /** OpenAPI maxItems: bounds CEL's static cost estimate. */
  maxItems?: number;
  uniqueItems?: boolean;
}
export interface ObjectRules {
  minProperties?: number;
  /** OpenAPI maxProperties: bounds CEL's static cost estimate. */
  maxProperties?: number;
  /**
   * OpenAPI `required`: names that must be present (custom resources). Not `FieldOptions.required`,
   * which also makes a built-in field always emitted.
   */
  requiredProperties?: readonly string[];
}
/** allOf/anyOf/oneOf/not: validation only (structural schemas keep types out of them). */
export interface Junctors {
  allOf?: readonly ValueRules[];
  anyOf?: readonly ValueRules[];
  oneOf?: readonly ValueRules[];
  not?: ValueRules;
}
/** A value-rule tree inside a junctor: keywords, and the same for properties, items, map values. */
export interface ValueRules extends StringRules, NumericRules, ArrayRules, ObjectRules, Junctors {
  /** Only in x-kubernetes-int-or-string's anyOf [{type: integer}, {type: string}], the one type a junctor may name. */
  type?: 'integer' | 'string';
  enum?: readonly SchemaJson[];
  properties?: Readonly<Record<string, ValueRules>>;
  items?: ValueRules;
  additionalProperties?: ValueRules;
}

export interface FieldOptions extends Junctors {
  description?: string;
  /** OpenAPI enum: the value must equal one of these (JSON equality). */
  enum?: readonly SchemaJson[];
  /** An explicit null is a valid value (kept, not defaulted). */
  nullable?: boolean;
  /** Applied to an absent value, or a null one unless nullable (lib/machinery/schemaDefaults.ts). */
  default?: SchemaJson;
  /**
   * The OpenAPI format as a custom resource's schema declares it (int32, double, uuid, date-time …):
   * checked by validation only, the value kept as sent. Not StringField.format / IntegerField.format,
   * which change how built-in values are decoded and written.
   */
  validationFormat?: string;
  /** Protobuf field number in the parent message. */
  protobuf?: number;
  /** Must be present for the object to be valid. */
  required?: boolean;
  /**
   * Owned by the server through every endpoint: what a client sends is dropped on create (the
   * strategy may then fill it) and the stored value kept on update (lib/registry/schemaMarkers.ts).
   * Only for rules that never depend on the stored object; those stay in the strategy.
   */
  serverSet?: boolean;
  /**
   * May not change after creation: an update that changes it is refused through every endpoint
   * (lib/registry/schemaMarkers.ts). `true` words it as upstream's ValidateImmutableField
   * ("field is immutable"); a rule gives a kind's own wording.
   */
  immutable?: boolean | ImmutableRule;
  /** Emitted even when empty (Go fields without omitempty). */
  alwaysEmit?: boolean;
}

/** How an update changing an immutable field is refused where upstream words it its own way. */
export interface ImmutableRule {
  /** The FieldValueInvalid detail, e.g. RBAC's "cannot change roleRef". */
  detail: string;
  /**
   * Upstream compares and prints its internal Go struct, whose JSON has every field under its Go
   * name (an absent one as its zero value): JSON name → Go name, in struct order.
   */
  goStruct?: Readonly<Record<string, string>>;
}

export interface StringField extends FieldOptions, StringRules {
  type: 'string';
  format?: 'date-time' | 'byte';
  /** A date-time with microseconds (metav1.MicroTime) instead of whole seconds (metav1.Time). */
  micro?: boolean;
}
export interface IntegerField extends FieldOptions, NumericRules {
  type: 'integer';
  format: 'int32' | 'int64';
}
/** A JSON number, fractions included (custom resources: Go's float64 or int64 in unstructured). */
export interface NumberField extends FieldOptions, NumericRules {
  type: 'number';
  /** OpenAPI format (float, double): published, not enforced. */
  format?: string;
}
/** x-kubernetes-int-or-string: an integer or a string, each kept as sent. */
export interface IntOrStringField extends FieldOptions, StringRules, NumericRules {
  type: 'intOrString';
}
export interface BooleanField extends FieldOptions {
  type: 'boolean';
}
export interface ObjectField<O extends ObjectSchema = ObjectSchema> extends FieldOptions {
  type: 'object';
  ref: () => O;
  mapType?: MapType;
  /** x-kubernetes-embedded-resource: apiVersion, kind and metadata are those of an object. */
  embeddedResource?: boolean;
}
export interface ArrayField<I extends FieldSchema = FieldSchema> extends FieldOptions, ArrayRules {
  type: 'array';
  items: I;
  listType?: ListType;
  listMapKeys?: readonly string[];
  patchStrategy?: PatchStrategy;
  patchMergeKey?: string;
}
export interface MapField<V extends FieldSchema = FieldSchema> extends FieldOptions, ObjectRules {
  type: 'map';
  values: V;
  mapType?: MapType;
}
/**
 * Free-form JSON (RawExtension, FieldsV1; in custom resources an untyped node or an object with
 * x-kubernetes-preserve-unknown-fields and no properties). The value rules apply to whatever it holds.
 */
export interface AnyField extends FieldOptions, StringRules, NumericRules, ArrayRules, ObjectRules {
  type: 'any';
  /** x-kubernetes-preserve-unknown-fields: what it holds is kept (always so for `any`; recorded for OpenAPI). */
  preserveUnknownFields?: boolean;
  /** x-kubernetes-embedded-resource on a free-form object. */
  embeddedResource?: boolean;
  /** No OpenAPI type at all (a custom-resource node that may hold any JSON value), rather than an object. */
  untyped?: boolean;
}

export type FieldSchema =
  | StringField
  | IntegerField
  | NumberField
  | IntOrStringField
  | BooleanField
  | ObjectField
  | ArrayField
  | MapField
  | AnyField;

export interface ObjectSchema<F extends Record<string, FieldSchema> = Record<string, FieldSchema>> {
  /** OpenAPI definition name, e.g. io.svc.api.core.v1.ServiceAccount. */
  name: string;
  description?: string;
  fields: F;
  /**
   * Go structs embedded inline: in JSON (and everywhere but Protobuf) their fields are this
   * object's own — listed in `fields` through inlineFields(), without numbers — while Protobuf
   * writes each as one nested message under its number, laid out by its own schema. In number order.
   */
  protobufEmbedded?: readonly ProtobufEmbed[];
  /**
   * A custom resource's node: decoded and written as upstream's unstructured objects (values kept
   * as sent, wrong types and nulls included, for validation to judge; keys sorted; no omitempty).
   * Its children that are objects say so themselves (metadata is ObjectMeta, typed).
   */
  unstructured?: boolean;
  /** x-kubernetes-preserve-unknown-fields on an object with properties: fields not listed are kept as sent. */
  preserveUnknownFields?: boolean;
  /**
   * Published inline in OpenAPI where a field refers to it, not as a definition of its own (a
   * custom resource's nested objects: upstream publishes a CRD's schema as one tree).
   */
  inline?: boolean;
  /** OpenAPI object keywords of this node (custom resources; the root has no field to carry them). */
  rules?: ObjectRules & Junctors;
}

export interface ProtobufEmbed {
  protobuf: number;
  schema: () => ObjectSchema;
}

/** An embedded schema's fields (its own embeds flattened too) for the embedding object's `fields`, numbers dropped. */
export function inlineFields<F extends Record<string, FieldSchema>>(schema: ObjectSchema<F>): F {
  const out: Record<string, FieldSchema> = {};
  for (const [name, f] of Object.entries(schema.fields)) {
    const { protobuf: _number, ...rest } = f;
    out[name] = rest as FieldSchema;
  }
  return out as F;
}

/** Names of the fields an object gets from its Protobuf-embedded structs (at any depth). */
export function embeddedFieldNames(schema: ObjectSchema): Set<string> {
  const names = new Set<string>();
  for (const e of schema.protobufEmbedded ?? []) for (const n of Object.keys(e.schema().fields)) names.add(n);
  return names;
}

/** The TypeScript type of a field schema. */
export type TypeOf<F> = F extends StringField
  ? string
  : F extends IntegerField
    ? number
    : F extends NumberField
      ? number
      : F extends IntOrStringField
        ? number | string
        : F extends BooleanField
      ? boolean
      : F extends ArrayField<infer I>
        ? TypeOf<I>[]
        : F extends MapField<infer V>
          ? Record<string, TypeOf<V>>
          : F extends ObjectField<infer O>
            ? ObjectOf<O>
            : F extends AnyField
              ? unknown
              : never;

/** The TypeScript type of an object schema: every field optional, as on the wire. */
export type ObjectOf<O> = O extends ObjectSchema<infer Fs> ? { -readonly [K in keyof Fs]?: TypeOf<Fs[K]> } : never;

export const s = {
  string: (o: Omit<StringField, 'type'> = {}): StringField => ({ type: 'string', ...o }),
  int32: (o: Omit<IntegerField, 'type' | 'format'> = {}): IntegerField => ({ type: 'integer', format: 'int32', ...o }),
  int64: (o: Omit<IntegerField, 'type' | 'format'> = {}): IntegerField => ({ type: 'integer', format: 'int64', ...o }),
  boolean: (o: FieldOptions = {}): BooleanField => ({ type: 'boolean', ...o }),
  number: (o: Omit<NumberField, 'type'> = {}): NumberField => ({ type: 'number', ...o }),
  intOrString: (o: Omit<IntOrStringField, 'type'> = {}): IntOrStringField => ({ type: 'intOrString', ...o }),
  time: (o: FieldOptions = {}): StringField => ({ type: 'string', format: 'date-time', ...o }),
  microTime: (o: FieldOptions = {}): StringField => ({ type: 'string', format: 'date-time', micro: true, ...o }),
  bytes: (o: FieldOptions = {}): StringField => ({ type: 'string', format: 'byte', ...o }),
  object: <O extends ObjectSchema>(ref: () => O, o: Omit<ObjectField<O>, 'type' | 'ref'> = {}): ObjectField<O> => ({
    type: 'object',
    ref,
    ...o,
  }),
  array: <I extends FieldSchema>(items: I, o: Omit<ArrayField<I>, 'type' | 'items'> = {}): ArrayField<I> => ({
    type: 'array',
    items,
    ...o,
  }),
  map: <V extends FieldSchema>(values: V, o: Omit<MapField<V>, 'type' | 'values'> = {}): MapField<V> => ({
    type: 'map',
    values,
    ...o,
  }),
  any: (o: Omit<AnyField, 'type'> = {}): AnyField => ({ type: 'any', ...o }),
};

export function defineObject<F extends Record<string, FieldSchema>>(o: ObjectSchema<F>): ObjectSchema<F> {
  return o;
}

/** Looks up the schema of a path ("spec", "usages") inside an object schema. */
export function fieldAt(root: ObjectSchema, path: readonly string[]): FieldSchema | undefined {
  let cur: FieldSchema = { type: 'object', ref: () => root };
  for (const p of path) {
    if (cur.type === 'object') {
      const next: FieldSchema | undefined = cur.ref().fields[p];
      if (!next) return undefined;
      cur = next;
    } else if (cur.type === 'map') {
      cur = cur.values;
    } else if (cur.type === 'array') {
      cur = cur.items;
    } else {
      return undefined;
    }
  }
  return cur;
}
