import { ObjectMetaSchema } from '../../api/meta';
import type { FieldSchema, ObjectSchema } from '../../api/schema';
import { decodeTree } from '../../codec/decodeTree';
import { normalize } from '../../codec/normalize';
import { renderFieldError } from '../../machinery/fieldErrors';
import { parseGoJsonTree } from '../../machinery/goJson';
import { applySchemaDefaults } from '../../machinery/schemaDefaults';
import { validateSchemaValues } from '../../machinery/validation/schemaValues';
import type { JSONSchemaProps } from '../../api/apiextensions/jsonSchemaProps';
import { schemaFromProps } from './schemaFromProps';

const names = { group: 'db.example.com', version: 'v1', kind: 'Database' };

/** An operator's schema: nested objects, a list-map, enum, pattern, defaults, int-or-string, a map, free-form and embedded values. */
const operator: JSONSchemaProps = {
  type: 'object',
  required: ['spec'],
  properties: {
    metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } },
    spec: {
      type: 'object',
      required: ['engine'],
      properties: {
        engine: { type: 'string', enum: ['postgres', 'mysql'] },
        version: { type: 'string', pattern: '^[0-9]+\\.[0-9]+$', default: '16.1' },
        replicas: { type: 'integer', format: 'int32', minimum: 1, maximum: 9, default: 3 },
        ratio: { type: 'number', minimum: 0, maximum: 1 },
        port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        storage: {
          type: 'object',
          default: {},
          properties: {
            size: { type: 'string', default: '1Gi' },
            class: { type: 'string', nullable: true },
          },
        },
        users: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          maxItems: 3,
          items: {
            type: 'object',
            required: ['name'],
            properties: {
              name: { type: 'string', minLength: 1 },
              role: { type: 'string', enum: ['admin', 'reader'], default: 'reader' },
            },
          },
        },
        labels: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'atomic' },
        config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
        tls: { type: 'object', properties: { mode: { type: 'string' } }, oneOf: [{ required: ['mode'] }, { properties: { mode: { enum: ['off'] } } }] },
      },
    },
    status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { phase: { type: 'string' } } },
  },
};

const schema = schemaFromProps(operator, names);
const specOf = (root: ObjectSchema): ObjectSchema => (root.fields.spec as Extract<FieldSchema, { type: 'object' }>).ref();

describe('schemaFromProps: the model', () => {
  const spec = specOf(schema);

  it('names the root after the reversed group, version and kind, with TypeMeta and ObjectMeta', () => {
    expect(schema.name).toBe('com.example.db.v1.Database');
    expect(Object.keys(schema.fields)).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    expect(schema.unstructured).toBe(true);
    expect(schema.rules).toEqual({ requiredProperties: ['spec'] });
    expect(schema.fields.apiVersion).toEqual({ type: 'string' });
    const meta = (schema.fields.metadata as Extract<FieldSchema, { type: 'object' }>).ref();
    expect(meta.name).toBe(ObjectMetaSchema.name);
    expect(meta.fields.name).toMatchObject({ type: 'string', maxLength: 20 });
    expect(meta.fields.namespace).toBe(ObjectMetaSchema.fields.namespace);
  });

  it('maps each kind of property', () => {
    expect(spec.name).toBe('com.example.db.v1.Database.spec');
    expect(Object.keys(spec.fields)).toEqual(['config', 'engine', 'labels', 'port', 'ratio', 'replicas', 'storage', 'template', 'tls', 'users', 'version']);
    expect(spec.rules).toEqual({ requiredProperties: ['engine'] });
    expect(spec.fields.engine).toEqual({ type: 'string', enum: ['postgres', 'mysql'] });
    expect(spec.fields.replicas).toEqual({ type: 'integer', format: 'int32', validationFormat: 'int32', minimum: 1, maximum: 9, default: 3 });
    expect(spec.fields.ratio).toEqual({ type: 'number', minimum: 0, maximum: 1 });
    expect(spec.fields.port).toEqual({ type: 'intOrString', anyOf: [{ type: 'integer' }, { type: 'string' }] });
    expect(spec.fields.labels).toEqual({ type: 'map', values: { type: 'string' }, mapType: 'atomic' });
    expect(spec.fields.config).toEqual({ type: 'any', preserveUnknownFields: true });
    const users = spec.fields.users as Extract<FieldSchema, { type: 'array' }>;
    expect(users).toMatchObject({ type: 'array', listType: 'map', listMapKeys: ['name'], maxItems: 3 });
    const user = (users.items as Extract<FieldSchema, { type: 'object' }>).ref();
    expect(user.name).toBe('com.example.db.v1.Database.spec.users[]');
    expect(user.rules).toEqual({ requiredProperties: ['name'] });
    const template = spec.fields.template as Extract<FieldSchema, { type: 'object' }>;
    expect(template.embeddedResource).toBe(true);
    expect(Object.keys(template.ref().fields)).toEqual(['apiVersion', 'kind', 'metadata']);
    expect(template.ref().preserveUnknownFields).toBe(true);
    expect((spec.fields.tls as { oneOf?: unknown }).oneOf).toEqual([{ requiredProperties: ['mode'] }, { properties: { mode: { enum: ['off'] } } }]);
  });

  it('gives every object node its own name', () => {
    const seen = new Map<string, ObjectSchema>();
    const visit = (s: ObjectSchema): void => {
      if (seen.has(s.name) && seen.get(s.name) !== s && s.name !== ObjectMetaSchema.name) throw new Error(`duplicate ${s.name}`);
      if (seen.has(s.name)) return;
      seen.set(s.name, s);
      const field = (f: FieldSchema): void => {
        if (f.type === 'object') visit(f.ref());
        else if (f.type === 'array') field(f.items);
        else if (f.type === 'map') field(f.values);
      };
      Object.values(s.fields).forEach(field);
    };
    visit(schemaFromProps({ type: 'object', properties: { 'a.b': { type: 'object', properties: { c: { type: 'object', properties: {} } } }, a: { type: 'object', properties: { 'b.c': { type: 'object', properties: {} }, b: { type: 'object', properties: { c: { type: 'object', properties: {} } } } } } } }, names));
    expect([...seen.keys()]).toContain('com.example.db.v1.Database.a~1b.c');
    expect([...seen.keys()]).toContain('com.example.db.v1.Database.a.b~1c');
    expect([...seen.keys()]).toContain('com.example.db.v1.Database.a.b.c');
  });

  it('keeps everything when the version has no schema', () => {
    const open = schemaFromProps(undefined, names);
    expect(open.preserveUnknownFields).toBe(true);
    expect(Object.keys(open.fields)).toEqual(['apiVersion', 'kind', 'metadata']);
    const r = decodeTree(parseGoJsonTree('{"apiVersion":"db.example.com/v1","kind":"Database","spec":{"anything":[1]},"metadata":{"name":"a","bogus":1}}'), open, { strict: true });
    expect(r.strictErrors).toEqual(['unknown field "metadata.bogus"']);
    expect(r.value).toEqual({ apiVersion: 'db.example.com/v1', kind: 'Database', spec: { anything: [1] }, metadata: { name: 'a' } });
  });

  it('an object with neither properties nor preserve-unknown-fields keeps nothing inside', () => {
    const s = schemaFromProps({ type: 'object', properties: { spec: { type: 'object' } } }, names);
    const r = decodeTree(parseGoJsonTree('{"spec":{"a":1}}'), s, { strict: true });
    expect(r.value).toEqual({ spec: {} });
    expect(r.strictErrors).toEqual(['unknown field "spec.a"']);
  });

  it('refuses a schema nested deeper than any CRD can be', () => {
    let deep: JSONSchemaProps = { type: 'string' };
    for (let i = 0; i < 1002; i++) deep = { type: 'object', properties: { a: deep } };
    expect(() => schemaFromProps(deep, names)).toThrow(RangeError);
  });
});

/** Decode (strict), default, validate and write, as the custom-resource strategy will. */
function roundTrip(json: string): { unknown: string[]; errors: string[]; stored: string } {
  const decoded = decodeTree(parseGoJsonTree(json), schema, { strict: true });
  if (decoded.error) throw new Error(decoded.error);
  applySchemaDefaults(schema, decoded.value);
  const errors = validateSchemaValues(schema, decoded.value).map(renderFieldError);
  return { unknown: decoded.strictErrors, errors, stored: JSON.stringify(normalize(decoded.value, schema)) };
}

describe('schemaFromProps: end to end', () => {
  it('a valid object is pruned, defaulted and written as upstream writes it', () => {
    const r = roundTrip(
      JSON.stringify({
        kind: 'Database',
        apiVersion: 'db.example.com/v1',
        metadata: { name: 'db1', namespace: 'ns', unknownMeta: 1 },
        spec: {
          engine: 'postgres',
          port: 'pg',
          ratio: 0.25,
          users: [{ name: 'ann', role: 'admin' }, { name: 'bob' }],
          labels: { b: 'x', a: 'y' },
          config: { z: { deep: [1, 2.5] }, a: null },
          template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', junk: true }, spec: { containers: [] } },
          extra: 'dropped',
        },
        status: { phase: 'Ready', observed: 2 },
      }),
    );
    // Upstream's order: root metadata, pruned fields (sorted), embedded metadata.
    expect(r.unknown).toEqual(['unknown field "metadata.unknownMeta"', 'unknown field "spec.extra"', 'unknown field "spec.template.metadata.junk"']);
    expect(r.errors).toEqual([]);
    expect(r.stored).toBe(
      '{"apiVersion":"db.example.com/v1","kind":"Database","metadata":{"name":"db1","namespace":"ns"},' +
        '"spec":{"config":{"a":null,"z":{"deep":[1,2.5]}},"engine":"postgres","labels":{"a":"y","b":"x"},"port":"pg","ratio":0.25,"replicas":3,' +
        '"storage":{"size":"1Gi"},"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[]}},' +
        '"users":[{"name":"ann","role":"admin"},{"name":"bob","role":"reader"}],"version":"16.1"},' +
        '"status":{"observed":2,"phase":"Ready"}}',
    );
  });

  it('reports what the schema refuses, with upstream wording and paths', () => {
    const r = roundTrip(
      JSON.stringify({
        metadata: { name: 'a-name-much-longer-than-twenty' },
        spec: {
          engine: 'oracle',
          version: 'latest',
          replicas: 12,
          ratio: '0.5',
          port: true,
          storage: { size: null, class: null },
          users: [{ name: '' }, { role: 'owner' }, { name: 'c' }, { name: 'd' }],
          tls: { mode: 'off' },
        },
      }),
    );
    // Properties in schema order (upstream walks a Go map: the same errors, in some order).
    expect(r.errors).toEqual([
      'metadata.name: Too long: may not be more than 20 bytes',
      'spec.engine: Unsupported value: "oracle": supported values: "postgres", "mysql"',
      'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
      // The anyOf the CRD spells int-or-string with is validated too, as upstream does.
      '<nil>: Invalid value: "": "spec.port" must validate at least one schema (anyOf)',
      'spec.port: Invalid value: "boolean": spec.port in body must be of type integer: "boolean"',
      'spec.ratio: Invalid value: "string": spec.ratio in body must be of type number: "string"',
      'spec.replicas: Invalid value: 12: spec.replicas in body should be less than or equal to 9',
      '<nil>: Invalid value: "": "spec.tls" must validate one and only one schema (oneOf). Found 2 valid alternatives',
      'spec.users[0].name: Invalid value: "": spec.users[0].name in body should be at least 1 chars long',
      'spec.users[1].role: Unsupported value: "owner": supported values: "admin", "reader"',
      'spec.users[1].name: Required value',
      'spec.users: Too many: 4: must have at most 3 items',
      "spec.version: Invalid value: \"latest\": spec.version in body should match '^[0-9]+\\.[0-9]+$'",
    ]);
    // storage.size was null: dropped, then defaulted; class is nullable: kept.
    expect(r.stored).toContain('"storage":{"class":null,"size":"1Gi"}');
  });
});

