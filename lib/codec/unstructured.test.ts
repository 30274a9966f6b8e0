// Custom-resource nodes (ObjectSchema.unstructured): decoded and written as upstream's
// unstructured objects, pruned by the schema unless it preserves unknown fields.
import { ObjectMetaSchema } from '../api/meta';
import { defineObject, s } from '../api/schema';
import { parseGoJsonTree } from '../machinery/goJson';
import { decodeTree } from './decodeTree';
import { normalize } from './normalize';

const Free = defineObject({ name: 'com.example.v1.Widget.spec.free', unstructured: true, preserveUnknownFields: true, fields: { known: s.int64() } });
const Spec = defineObject({
  name: 'com.example.v1.Widget.spec',
  unstructured: true,
  fields: {
    replicas: s.int64(),
    ratio: s.number(),
    port: s.intOrString(),
    name: s.string(),
    tags: s.array(s.string()),
    labels: s.map(s.string()),
    free: s.object(() => Free),
    raw: s.any({ untyped: true }),
  },
});
const Widget = defineObject({
  name: 'com.example.v1.Widget',
  unstructured: true,
  fields: { apiVersion: s.string(), kind: s.string(), metadata: s.object(() => ObjectMetaSchema), spec: s.object(() => Spec) },
});

const decode = (json: string) => decodeTree(parseGoJsonTree(json), Widget, { strict: true });

describe('decoding a custom resource', () => {
  it.each([
    ['a fraction stays a fraction', '{"spec":{"ratio":1.5}}', { spec: { ratio: 1.5 } }],
    ['an integer number stays an integer', '{"spec":{"ratio":2}}', { spec: { ratio: 2 } }],
    ['int-or-string keeps an integer', '{"spec":{"port":8080}}', { spec: { port: 8080 } }],
    ['int-or-string keeps a string', '{"spec":{"port":"http"}}', { spec: { port: 'http' } }],
    ['a wrong type is kept for validation', '{"spec":{"replicas":"three","tags":"x","name":7}}', { spec: { replicas: 'three', tags: 'x', name: 7 } }],
    ['a fraction in an integer field is kept', '{"spec":{"replicas":1.5}}', { spec: { replicas: 1.5 } }],
    ['nulls are kept (pruned later by defaulting)', '{"spec":{"name":null,"tags":[null]}}', { spec: { name: null, tags: [null] } }],
    ['unknown fields under preserve are kept', '{"spec":{"free":{"known":1,"x":{"y":[1]}}}}', { spec: { free: { known: 1, x: { y: [1] } } } }],
    ['an untyped node keeps anything', '{"spec":{"raw":[1,"a",{"b":null}]}}', { spec: { raw: [1, 'a', { b: null }] } }],
  ])('%s', (_n, json, want) => {
    const r = decode(json);
    expect(r.error).toBeUndefined();
    expect(r.strictErrors).toEqual([]);
    expect(r.value).toEqual(want);
  });

  it('drops and reports unknown fields outside preserve nodes, metadata first, then the rest sorted', () => {
    const r = decode('{"spec":{"foo":1,"tags":["a"],"free":{"z":1}},"bar":true,"metadata":{"name":"a","foo":1}}');
    expect(r.strictErrors).toEqual(['unknown field "metadata.foo"', 'unknown field "bar"', 'unknown field "spec.foo"']);
    expect(r.value).toEqual({ metadata: { name: 'a' }, spec: { tags: ['a'], free: { z: 1 } } });
  });

  it('reports duplicate fields before unknown ones', () => {
    expect(decode('{"zz":1,"spec":{"name":"a","name":"b"}}').strictErrors).toEqual(['duplicate field "spec.name"', 'unknown field "zz"']);
  });

  it('refuses a body that is not an object', () => {
    expect(decode('[1]').error).toBe('json: cannot unmarshal array into Go value of type map[string]interface {}');
  });
});

describe('writing a custom resource', () => {
  it('sorts every key, keeps empty and zero values, drops unknown fields', () => {
    const obj = {
      spec: { tags: [], replicas: 0, name: '', labels: { b: '1', a: '2' }, free: { z: 1, a: { d: 1, c: 2 } }, raw: { y: 1, x: 2 }, gone: 1 },
      metadata: { name: 'w', namespace: 'ns', uid: 'u', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' },
      kind: 'Widget',
      apiVersion: 'example.com/v1',
    };
    const out = normalize(obj, Widget);
    expect(JSON.stringify(out)).toBe(
      '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"creationTimestamp":"2026-01-01T00:00:00Z","generation":1,"name":"w","namespace":"ns","uid":"u"},' +
        '"spec":{"free":{"a":{"c":2,"d":1},"z":1},"labels":{"a":"2","b":"1"},"name":"","raw":{"x":2,"y":1},"replicas":0,"tags":[]}}',
    );
  });

  it('keeps nulls and values of the wrong type', () => {
    expect(normalize({ spec: { name: null, replicas: 'x', ratio: 0.25 } }, Widget)).toEqual({ spec: { name: null, replicas: 'x', ratio: 0.25 } });
  });
});
