import { ObjectMetaSchema } from '../api/meta';
import { defineObject, s } from '../api/schema';
import { applySchemaDefaults } from './schemaDefaults';

const Port = defineObject({
  name: 'com.example.v1.W.spec.ports',
  unstructured: true,
  fields: { name: s.string(), protocol: s.string({ default: 'TCP' }), port: s.int64() },
});
const Spec = defineObject({
  name: 'com.example.v1.W.spec',
  unstructured: true,
  fields: {
    replicas: s.int64({ default: 1 }),
    mode: s.string({ default: 'auto', nullable: true }),
    note: s.string(),
    template: s.object(() => Template, { default: {} }),
    ports: s.array(s.object(() => Port)),
    weights: s.map(s.int64({ default: 5 })),
    tags: s.array(s.string({ default: 'x' })),
    free: s.any({ untyped: true }),
  },
});
const Template = defineObject({
  name: 'com.example.v1.W.spec.template',
  unstructured: true,
  fields: { image: s.string({ default: 'nginx' }), pull: s.object(() => Pull) },
});
const Pull = defineObject({ name: 'com.example.v1.W.spec.template.pull', unstructured: true, fields: { policy: s.string({ default: 'Always' }) } });
const W = defineObject({
  name: 'com.example.v1.W',
  unstructured: true,
  fields: { apiVersion: s.string(), kind: s.string(), metadata: s.object(() => ObjectMetaSchema), spec: s.object(() => Spec) },
});

function defaulted(obj: Record<string, unknown>): Record<string, unknown> {
  applySchemaDefaults(W, obj);
  return obj;
}

describe('applySchemaDefaults', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['an absent spec has no default: nothing happens', {}, {}],
    ['absent fields are defaulted, top-down into defaulted objects', { spec: {} }, { spec: { replicas: 1, mode: 'auto', template: { image: 'nginx' } } }],
    ['present values are kept', { spec: { replicas: 0, mode: 'manual', template: { image: 'busybox' } } }, { spec: { replicas: 0, mode: 'manual', template: { image: 'busybox' } } }],
    ['a null that is not allowed is defaulted', { spec: { replicas: null } }, { spec: { replicas: 1, mode: 'auto', template: { image: 'nginx' } } }],
    ['a nullable null is kept', { spec: { mode: null } }, { spec: { replicas: 1, mode: null, template: { image: 'nginx' } } }],
    ['a null without default or nullable is dropped', { spec: { note: null, template: { pull: null } } }, { spec: { replicas: 1, mode: 'auto', template: { image: 'nginx' } } }],
    [
      'list items are defaulted',
      { spec: { ports: [{ name: 'a' }, { protocol: 'UDP' }] } },
      { spec: { replicas: 1, mode: 'auto', template: { image: 'nginx' }, ports: [{ name: 'a', protocol: 'TCP' }, { protocol: 'UDP' }] } },
    ],
    [
      'null map values and list items take the default',
      { spec: { weights: { a: null, b: 2 }, tags: [null, 'y'] } },
      { spec: { replicas: 1, mode: 'auto', template: { image: 'nginx' }, weights: { a: 5, b: 2 }, tags: ['x', 'y'] } },
    ],
    [
      'a nested object present gets its defaults',
      { spec: { template: { pull: {} } } },
      { spec: { replicas: 1, mode: 'auto', template: { image: 'nginx', pull: { policy: 'Always' } } } },
    ],
    ['free-form values are left alone', { spec: { free: { a: null } } }, { spec: { replicas: 1, mode: 'auto', template: { image: 'nginx' }, free: { a: null } } }],
  ])('%s', (_name, obj, want) => {
    expect(defaulted(obj)).toEqual(want);
  });

  it('copies each default (no two objects share it)', () => {
    const a = defaulted({ spec: {} }) as { spec: { template: Record<string, unknown> } };
    const b = defaulted({ spec: {} }) as { spec: { template: Record<string, unknown> } };
    a.spec.template.image = 'changed';
    expect(b.spec.template.image).toBe('nginx');
    expect((Spec.fields.template.default as Record<string, unknown>).image).toBeUndefined();
  });

  it('drops non-nullable nulls in metadata too', () => {
    expect(defaulted({ metadata: { name: 'a', labels: null } })).toEqual({ metadata: { name: 'a' } });
  });
});
