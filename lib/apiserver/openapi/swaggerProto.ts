// The Swagger 2.0 document in gnostic's protobuf form (openapi.v2.Document of
// github.com/google/gnostic-models OpenAPIv2.proto), which /openapi/v2 serves for
// `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`. kubectl up to 1.28
// reads only this form: apply checks fieldValidation support and finds patch strategies in it.
// Free-form values (vendor extensions, enum, default, example) are gnostic `Any`s carrying
// their YAML text; JSON is YAML, so the JSON text is what we store.
import { ProtoWriter } from '../../protowire/writer';

type JSONMap = Record<string, unknown>;

/** How a JSON key of one message becomes its protobuf field. */
type Kind = 'string' | 'bool' | 'double' | 'int64' | 'strings' | 'any' | 'anys' | { msg: string } | { msgs: string };

interface MessageSpec {
  fields: Record<string, [number, Kind]>;
  /** Field number of `repeated NamedAny vendor_extension` (the message's `x-` keys). */
  x?: number;
}

const extDocs: MessageSpec = { fields: { description: [1, 'string'], url: [2, 'string'] }, x: 3 };

/** Field numbers shared by the header/query/path/formData parameter sub-schemas, from `type` on. */
function validations(first: number): Record<string, [number, Kind]> {
  const names = ['type', 'format', 'items', 'collectionFormat', 'default', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum',
    'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'enum', 'multipleOf'] as const;
  const kinds: Record<(typeof names)[number], Kind> = {
    type: 'string', format: 'string', items: { msg: 'PrimitivesItems' }, collectionFormat: 'string', default: 'any', maximum: 'double',
    exclusiveMaximum: 'bool', minimum: 'double', exclusiveMinimum: 'bool', maxLength: 'int64', minLength: 'int64', pattern: 'string',
    maxItems: 'int64', minItems: 'int64', uniqueItems: 'bool', enum: 'anys', multipleOf: 'double',
  };
  const out: Record<string, [number, Kind]> = {};
  names.forEach((n, i) => (out[n] = [first + i, kinds[n]]));
  return out;
}

const head = { required: [1, 'bool'], in: [2, 'string'], description: [3, 'string'], name: [4, 'string'] } as const satisfies Record<string, [number, Kind]>;

const specs: Record<string, MessageSpec> = {
  Document: {
    fields: {
      swagger: [1, 'string'], info: [2, { msg: 'Info' }], host: [3, 'string'], basePath: [4, 'string'], schemes: [5, 'strings'],
      consumes: [6, 'strings'], produces: [7, 'strings'], paths: [8, { msg: 'Paths' }], definitions: [9, { msg: 'Definitions' }],
      parameters: [10, { msg: 'ParameterDefinitions' }], responses: [11, { msg: 'ResponseDefinitions' }],
      security: [12, { msgs: 'SecurityRequirement' }], securityDefinitions: [13, { msg: 'SecurityDefinitions' }], tags: [14, { msgs: 'Tag' }],
      externalDocs: [15, { msg: 'ExternalDocs' }],
    },
    x: 16,
  },
  Info: {
    fields: { title: [1, 'string'], version: [2, 'string'], description: [3, 'string'], termsOfService: [4, 'string'], contact: [5, { msg: 'Contact' }], license: [6, { msg: 'License' }] },
    x: 7,
  },
  Contact: { fields: { name: [1, 'string'], url: [2, 'string'], email: [3, 'string'] }, x: 4 },
  License: { fields: { name: [1, 'string'], url: [2, 'string'] }, x: 3 },
  ExternalDocs: extDocs,
  Tag: { fields: { name: [1, 'string'], description: [2, 'string'], externalDocs: [3, { msg: 'ExternalDocs' }] }, x: 4 },
  PathItem: {
    fields: {
      $ref: [1, 'string'], get: [2, { msg: 'Operation' }], put: [3, { msg: 'Operation' }], post: [4, { msg: 'Operation' }], delete: [5, { msg: 'Operation' }],
      options: [6, { msg: 'Operation' }], head: [7, { msg: 'Operation' }], patch: [8, { msg: 'Operation' }], parameters: [9, { msgs: 'ParametersItem' }],
    },
    x: 10,
  },
  Operation: {
    fields: {
      tags: [1, 'strings'], summary: [2, 'string'], description: [3, 'string'], externalDocs: [4, { msg: 'ExternalDocs' }], operationId: [5, 'string'],
      produces: [6, 'strings'], consumes: [7, 'strings'], parameters: [8, { msgs: 'ParametersItem' }], responses: [9, { msg: 'Responses' }],
      schemes: [10, 'strings'], deprecated: [11, 'bool'], security: [12, { msgs: 'SecurityRequirement' }],
    },
    x: 13,
  },
  JsonReference: { fields: { $ref: [1, 'string'], description: [2, 'string'] } },
  BodyParameter: { fields: { description: [1, 'string'], name: [2, 'string'], in: [3, 'string'], required: [4, 'bool'], schema: [5, { msg: 'Schema' }] }, x: 6 },
  HeaderParameterSubSchema: { fields: { ...head, ...validations(5) }, x: 22 },
  PathParameterSubSchema: { fields: { ...head, ...validations(5) }, x: 22 },
  QueryParameterSubSchema: { fields: { ...head, allowEmptyValue: [5, 'bool'], ...validations(6) }, x: 23 },
  FormDataParameterSubSchema: { fields: { ...head, allowEmptyValue: [5, 'bool'], ...validations(6) }, x: 23 },
  PrimitivesItems: { fields: validations(1), x: 18 },
  Header: { fields: { ...validations(1), description: [18, 'string'] }, x: 19 },
  Response: { fields: { description: [1, 'string'], schema: [2, { msg: 'SchemaItem' }], headers: [3, { msg: 'Headers' }], examples: [4, { msg: 'Examples' }] }, x: 5 },
  FileSchema: {
    fields: {
      format: [1, 'string'], title: [2, 'string'], description: [3, 'string'], default: [4, 'any'], required: [5, 'strings'], type: [6, 'string'],
      readOnly: [7, 'bool'], externalDocs: [8, { msg: 'ExternalDocs' }], example: [9, 'any'],
    },
    x: 10,
  },
  Schema: {
    fields: {
      $ref: [1, 'string'], format: [2, 'string'], title: [3, 'string'], description: [4, 'string'], default: [5, 'any'], multipleOf: [6, 'double'],
      maximum: [7, 'double'], exclusiveMaximum: [8, 'bool'], minimum: [9, 'double'], exclusiveMinimum: [10, 'bool'], maxLength: [11, 'int64'],
      minLength: [12, 'int64'], pattern: [13, 'string'], maxItems: [14, 'int64'], minItems: [15, 'int64'], uniqueItems: [16, 'bool'],
      maxProperties: [17, 'int64'], minProperties: [18, 'int64'], required: [19, 'strings'], enum: [20, 'anys'],
      additionalProperties: [21, { msg: 'AdditionalPropertiesItem' }], type: [22, { msg: 'TypeItem' }], items: [23, { msg: 'ItemsItem' }],
      allOf: [24, { msgs: 'Schema' }], properties: [25, { msg: 'Properties' }], discriminator: [26, 'string'], readOnly: [27, 'bool'],
      xml: [28, { msg: 'Xml' }], externalDocs: [29, { msg: 'ExternalDocs' }], example: [30, 'any'],
    },
    x: 31,
  },
  Xml: { fields: { name: [1, 'string'], namespace: [2, 'string'], prefix: [3, 'string'], attribute: [4, 'bool'], wrapped: [5, 'bool'] }, x: 6 },
  ApiKeySecurity: { fields: { type: [1, 'string'], name: [2, 'string'], in: [3, 'string'], description: [4, 'string'] }, x: 5 },
  BasicAuthenticationSecurity: { fields: { type: [1, 'string'], description: [2, 'string'] }, x: 3 },
  Oauth2ImplicitSecurity: { fields: { type: [1, 'string'], flow: [2, 'string'], scopes: [3, { msg: 'Oauth2Scopes' }], authorizationUrl: [4, 'string'], description: [5, 'string'] }, x: 6 },
  Oauth2PasswordSecurity: { fields: { type: [1, 'string'], flow: [2, 'string'], scopes: [3, { msg: 'Oauth2Scopes' }], tokenUrl: [4, 'string'], description: [5, 'string'] }, x: 6 },
  Oauth2ApplicationSecurity: { fields: { type: [1, 'string'], flow: [2, 'string'], scopes: [3, { msg: 'Oauth2Scopes' }], tokenUrl: [4, 'string'], description: [5, 'string'] }, x: 6 },
  Oauth2AccessCodeSecurity: {
    fields: { type: [1, 'string'], flow: [2, 'string'], scopes: [3, { msg: 'Oauth2Scopes' }], authorizationUrl: [4, 'string'], tokenUrl: [5, 'string'], description: [6, 'string'] },
    x: 7,
  },
};

/** Messages that are a JSON map: each entry becomes a Named<value> pair in field 1 (or `entries`). */
const namedMaps: Record<string, { value: string | 'string' | 'any'; entries?: number; x?: number }> = {
  Definitions: { value: 'Schema' },
  Properties: { value: 'Schema' },
  ParameterDefinitions: { value: 'Parameter' },
  ResponseDefinitions: { value: 'Response' },
  SecurityDefinitions: { value: 'SecurityDefinitionsItem' },
  SecurityRequirement: { value: 'StringArray' },
  Headers: { value: 'Header' },
  Examples: { value: 'any' },
  Oauth2Scopes: { value: 'string' },
  Paths: { value: 'PathItem', entries: 2, x: 1 },
  Responses: { value: 'ResponseValue', entries: 1, x: 2 },
};

const isMap = (v: unknown): v is JSONMap => typeof v === 'object' && v !== null && !Array.isArray(v);

function anyMessage(v: unknown): Uint8Array {
  const w = new ProtoWriter();
  w.string(2, JSON.stringify(v));
  return w.finish();
}

function namedAny(name: string, v: unknown): Uint8Array {
  const w = new ProtoWriter();
  w.string(1, name);
  w.bytes(2, anyMessage(v));
  return w.finish();
}

/** Which alternative of a `oneof` message a JSON value is, as gnostic decides it. */
function oneOf(name: string, v: unknown): [number, string] | [number, 'bool'] | undefined {
  const o = isMap(v) ? v : {};
  switch (name) {
    case 'ParametersItem':
      return '$ref' in o ? [2, 'JsonReference'] : [1, 'Parameter'];
    case 'Parameter':
      return o.in === 'body' ? [1, 'BodyParameter'] : [2, 'NonBodyParameter'];
    case 'NonBodyParameter': {
      const sub = { header: [1, 'HeaderParameterSubSchema'], formData: [2, 'FormDataParameterSubSchema'], query: [3, 'QueryParameterSubSchema'], path: [4, 'PathParameterSubSchema'] } as const;
      const hit = sub[o.in as keyof typeof sub];
      return hit ? [hit[0], hit[1]] : undefined;
    }
    case 'ResponseValue':
      return '$ref' in o ? [2, 'JsonReference'] : [1, 'Response'];
    case 'SchemaItem':
      return o.type === 'file' ? [2, 'FileSchema'] : [1, 'Schema'];
    case 'AdditionalPropertiesItem':
      return typeof v === 'boolean' ? [2, 'bool'] : [1, 'Schema'];
    case 'SecurityDefinitionsItem': {
      if (o.type === 'basic') return [1, 'BasicAuthenticationSecurity'];
      if (o.type === 'apiKey') return [2, 'ApiKeySecurity'];
      const flows = { implicit: [3, 'Oauth2ImplicitSecurity'], password: [4, 'Oauth2PasswordSecurity'], application: [5, 'Oauth2ApplicationSecurity'], accessCode: [6, 'Oauth2AccessCodeSecurity'] } as const;
      const hit = flows[o.flow as keyof typeof flows];
      return hit ? [hit[0], hit[1]] : undefined;
    }
    default:
      return undefined;
  }
}

function writeField(w: ProtoWriter, n: number, kind: Kind, v: unknown): void {
  if (v === undefined || v === null) return;
  if (kind === 'string') w.string(n, String(v));
  else if (kind === 'bool') w.varint(n, Boolean(v));
  else if (kind === 'int64') w.varint(n, BigInt(Math.trunc(Number(v))));
  else if (kind === 'double') w.double(n, Number(v));
  else if (kind === 'strings') for (const s of Array.isArray(v) ? v : [v]) w.string(n, String(s));
  else if (kind === 'any') w.bytes(n, anyMessage(v));
  else if (kind === 'anys') for (const x of Array.isArray(v) ? v : [v]) w.bytes(n, anyMessage(x));
  else if ('msg' in kind) w.bytes(n, encodeMessage(kind.msg, v));
  else for (const x of Array.isArray(v) ? v : [v]) w.bytes(n, encodeMessage(kind.msgs, x));
}

/** Encodes one JSON value as the named gnostic message. */
export function encodeMessage(name: string, v: unknown): Uint8Array {
  const w = new ProtoWriter();
  const alt = oneOf(name, v);
  if (alt) {
    if (alt[1] === 'bool') w.varint(alt[0], Boolean(v));
    else w.bytes(alt[0], encodeMessage(alt[1], v));
    return w.finish();
  }
  if (name === 'TypeItem') {
    writeField(w, 1, 'strings', v);
    return w.finish();
  }
  if (name === 'ItemsItem') {
    writeField(w, 1, { msgs: 'Schema' }, v);
    return w.finish();
  }
  if (name === 'StringArray') {
    writeField(w, 1, 'strings', v);
    return w.finish();
  }
  const o = isMap(v) ? v : {};
  const named = namedMaps[name];
  if (named) {
    for (const [k, val] of Object.entries(o)) {
      if (named.x !== undefined && k.startsWith('x-')) {
        w.bytes(named.x, namedAny(k, val));
        continue;
      }
      const pair = new ProtoWriter();
      pair.string(1, k);
      if (named.value === 'string') pair.string(2, String(val));
      else if (named.value === 'any') pair.bytes(2, anyMessage(val));
      else pair.bytes(2, encodeMessage(named.value, val));
      w.bytes(named.entries ?? 1, pair.finish());
    }
    return w.finish();
  }
  const spec = specs[name];
  if (!spec) throw new Error(`no gnostic message ${name}`);
  for (const [k, [n, kind]] of Object.entries(spec.fields).sort((a, b) => a[1][0] - b[1][0])) writeField(w, n, kind, o[k]);
  if (spec.x !== undefined) for (const [k, val] of Object.entries(o)) if (k.startsWith('x-')) w.bytes(spec.x, namedAny(k, val));
  return w.finish();
}

/** The Swagger 2.0 JSON document as a serialized openapi.v2.Document. */
export function swaggerToProto(doc: JSONMap): Uint8Array {
  return encodeMessage('Document', doc);
}
