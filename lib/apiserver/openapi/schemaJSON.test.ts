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
