// JSONSchemaProps (apiextensions v1): the OpenAPI v3 schema a CustomResourceDefinition version
// carries. Field numbers from upstream's apiextensions v1 generated.proto.
//
// The type is recursive, which ObjectOf cannot infer (a schema referring to itself has no type
// TypeScript can name), so its TypeScript type is written out below.
//
// What the schema model cannot say yet, modelled as free JSON (s.any()) — JSON is exact, the
// Protobuf wire is the JSON wrapper message, not upstream's:
// - `items` (schema or array of schemas: JSONSchemaPropsOrArray on the wire),
//   `additionalProperties` / `additionalItems` (schema or bool: JSONSchemaPropsOrBool),
//   `dependencies` (map of schema or string list);
// - `maximum`, `minimum`, `multipleOf` (float64: upstream writes a double).
import { openapiDefinitionPrefix as P } from '../product';
import { defineObject, type ObjectSchema, s } from '../schema';

export const apiextensionsName = (n: string): string => `${P.apiextensions}.${n}`;

export const ExternalDocumentationSchema = defineObject({
  name: apiextensionsName('ExternalDocumentation'),
  description: 'ExternalDocumentation allows referencing an external resource for extended documentation.',
  fields: {
    description: s.string({ protobuf: 1 }),
    url: s.string({ protobuf: 2 }),
  },
});

export const ValidationRuleSchema = defineObject({
  name: apiextensionsName('ValidationRule'),
  description: 'ValidationRule describes a validation rule written in the CEL expression language.',
  fields: {
    rule: s.string({ protobuf: 1, alwaysEmit: true, description: 'Rule represents the expression which will be evaluated by CEL.' }),
    message: s.string({ protobuf: 2, description: 'Message represents the message displayed when validation fails.' }),
    messageExpression: s.string({ protobuf: 3, description: 'MessageExpression declares a CEL expression that evaluates to the validation failure message that is returned when this rule fails.' }),
    reason: s.string({ protobuf: 4, description: 'reason provides a machine-readable validation failure reason that is returned to the caller when a request fails this validation rule.' }),
    fieldPath: s.string({ protobuf: 5, description: 'fieldPath represents the field path returned when the validation fails.' }),
    optionalOldSelf: s.boolean({ protobuf: 6, description: 'optionalOldSelf is used to opt a transition rule into evaluation even when the object is first created, or if the old object is missing the value.' }),
  },
});

const props = () => JSONSchemaPropsSchema;

export const JSONSchemaPropsSchema: ObjectSchema = defineObject({
  name: apiextensionsName('JSONSchemaProps'),
  description: 'JSONSchemaProps is a JSON-Schema following Specification Draft 4 (http://json-schema.org/).',
  fields: {
    id: s.string({ protobuf: 1 }),
    $schema: s.string({ protobuf: 2 }),
    $ref: s.string({ protobuf: 3 }),
    description: s.string({ protobuf: 4 }),
    type: s.string({ protobuf: 5 }),
    format: s.string({ protobuf: 6, description: 'format is an OpenAPI v3 format string. Unknown formats are ignored.' }),
    title: s.string({ protobuf: 7 }),
    default: s.any({ protobuf: 8, description: 'default is a default value for undefined object fields.' }),
    maximum: s.any({ protobuf: 9 }),
    exclusiveMaximum: s.boolean({ protobuf: 10 }),
    minimum: s.any({ protobuf: 11 }),
    exclusiveMinimum: s.boolean({ protobuf: 12 }),
    maxLength: s.int64({ protobuf: 13 }),
    minLength: s.int64({ protobuf: 14 }),
    pattern: s.string({ protobuf: 15 }),
    maxItems: s.int64({ protobuf: 16 }),
    minItems: s.int64({ protobuf: 17 }),
    uniqueItems: s.boolean({ protobuf: 18 }),
    multipleOf: s.any({ protobuf: 19 }),
    enum: s.array(s.any(), { protobuf: 20, listType: 'atomic' }),
    maxProperties: s.int64({ protobuf: 21 }),
    minProperties: s.int64({ protobuf: 22 }),
    required: s.array(s.string(), { protobuf: 23, listType: 'atomic' }),
    items: s.any({ protobuf: 24 }),
    allOf: s.array(s.object(props), { protobuf: 25, listType: 'atomic' }),
    oneOf: s.array(s.object(props), { protobuf: 26, listType: 'atomic' }),
    anyOf: s.array(s.object(props), { protobuf: 27, listType: 'atomic' }),
    not: s.object(props, { protobuf: 28 }),
    properties: s.map(s.object(props), { protobuf: 29 }),
    additionalProperties: s.any({ protobuf: 30 }),
    patternProperties: s.map(s.object(props), { protobuf: 31 }),
    dependencies: s.any({ protobuf: 32 }),
    additionalItems: s.any({ protobuf: 33 }),
    definitions: s.map(s.object(props), { protobuf: 34 }),
    externalDocs: s.object(() => ExternalDocumentationSchema, { protobuf: 35 }),
    example: s.any({ protobuf: 36 }),
    nullable: s.boolean({ protobuf: 37 }),
    'x-kubernetes-preserve-unknown-fields': s.boolean({ protobuf: 38, description: 'x-kubernetes-preserve-unknown-fields stops the API server decoding step from pruning fields which are not specified in the validation schema.' }),
    'x-kubernetes-embedded-resource': s.boolean({ protobuf: 39, description: 'x-kubernetes-embedded-resource defines that the value is an embedded Kubernetes runtime.Object, with TypeMeta and ObjectMeta.' }),
    'x-kubernetes-int-or-string': s.boolean({ protobuf: 40, description: 'x-kubernetes-int-or-string specifies that this value is either an integer or a string.' }),
    'x-kubernetes-list-map-keys': s.array(s.string(), { protobuf: 41, listType: 'atomic', description: 'x-kubernetes-list-map-keys annotates an array with the x-kubernetes-list-type `map` by specifying the keys used as the index of the map.' }),
    'x-kubernetes-list-type': s.string({ protobuf: 42, description: 'x-kubernetes-list-type annotates an array to further describe its topology.' }),
    'x-kubernetes-map-type': s.string({ protobuf: 43, description: 'x-kubernetes-map-type annotates an object to further describe its topology.' }),
    'x-kubernetes-validations': s.array(s.object(() => ValidationRuleSchema), {
      protobuf: 44,
      listType: 'map',
      listMapKeys: ['rule'],
      patchStrategy: 'merge',
      patchMergeKey: 'rule',
      description: 'x-kubernetes-validations describes a list of validation rules written in the CEL expression language.',
    }),
  },
});

export interface ValidationRule {
  rule?: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/** The TypeScript shape of JSONSchemaProps (upstream's JSON: `items` schema or list, `additionalProperties` schema or bool). */
export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  patternProperties?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  additionalItems?: JSONSchemaProps | boolean;
  definitions?: Record<string, JSONSchemaProps>;
  externalDocs?: { description?: string; url?: string };
  example?: unknown;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
}
