import { defineObject, s } from '../../api/schema';
import { definitionOf } from './schemaJSON';

describe('definitionOf', () => {
  it('carries the size bounds the CEL cost estimate reads', () => {
    const O = defineObject({
      name: 'io.svc.Bounded',
      fields: { name: s.string({ maxLength: 63 }), tags: s.array(s.string(), { maxItems: 5 }), labels: s.map(s.string(), { maxProperties: 8 }), free: s.string() },
    });
    const d = definitionOf(O, 'v3') as { properties: Record<string, Record<string, unknown>> };
    expect(d.properties.name).toEqual({ type: 'string', maxLength: 63 });
    expect(d.properties.tags).toMatchObject({ type: 'array', maxItems: 5 });
    expect(d.properties.labels).toMatchObject({ type: 'object', maxProperties: 8 });
    expect(d.properties.free).toEqual({ type: 'string' });
  });
});

describe('custom-resource keywords', () => {
  const O = defineObject({
    name: 'com.example.v1.W',
    preserveUnknownFields: true,
    rules: { requiredProperties: ['spec'], minProperties: 1 },
    fields: {
      ratio: s.number({ format: 'double', minimum: 0, exclusiveMaximum: true, maximum: 1, default: 0.5 }),
      port: s.intOrString({ pattern: '^[a-z]+$' }),
      mode: s.string({ enum: ['a', null], nullable: true, validationFormat: 'hostname' }),
      tags: s.array(s.string({ minLength: 1 }), { minItems: 1, uniqueItems: false, oneOf: [{ minItems: 2 }, { maxItems: 0 }] }),
      raw: s.any({ untyped: true, preserveUnknownFields: true }),
    },
  });

  it('publishes every keyword in v3', () => {
    const d = definitionOf(O, 'v3') as { properties: Record<string, unknown> } & Record<string, unknown>;
    expect(d.required).toEqual(['spec']);
    expect(d.minProperties).toBe(1);
    expect(d['x-kubernetes-preserve-unknown-fields']).toBe(true);
    expect(d.properties.ratio).toEqual({ type: 'number', format: 'double', maximum: 1, exclusiveMaximum: true, minimum: 0, default: 0.5 });
    expect(d.properties.port).toEqual({ 'x-kubernetes-int-or-string': true, pattern: '^[a-z]+$' });
    expect(d.properties.mode).toEqual({ type: 'string', enum: ['a', null], format: 'hostname', nullable: true });
    expect(d.properties.tags).toEqual({
      type: 'array',
      items: { type: 'string', minLength: 1 },
      minItems: 1,
      uniqueItems: false,
      oneOf: [{ minItems: 2 }, { maxItems: 0 }],
    });
    expect(d.properties.raw).toEqual({ 'x-kubernetes-preserve-unknown-fields': true });
  });

  it('leaves nullable and the junctors out of v2', () => {
    const d = definitionOf(O, 'v2') as { properties: Record<string, Record<string, unknown>> };
    expect(d.properties.mode.nullable).toBeUndefined();
    expect(d.properties.tags.oneOf).toBeUndefined();
  });
});
