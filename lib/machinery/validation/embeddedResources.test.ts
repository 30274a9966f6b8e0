import { ObjectMetaSchema } from '../../api/meta';
import { defineObject, s } from '../../api/schema';
import { renderFieldError } from '../fieldErrors';
import { validateEmbeddedResources } from './embeddedResources';

const Template = defineObject({
  name: 'w.spec.template',
  unstructured: true,
  preserveUnknownFields: true,
  fields: { apiVersion: s.string(), kind: s.string(), metadata: s.object(() => ObjectMetaSchema) },
});
const Spec = defineObject({
  name: 'w.spec',
  unstructured: true,
  fields: { template: s.object(() => Template, { embeddedResource: true }), many: s.map(s.object(() => Template, { embeddedResource: true })) },
});
const W = defineObject({ name: 'w', unstructured: true, fields: { kind: s.string(), spec: s.object(() => Spec) } });

const errors = (spec: unknown): string[] => validateEmbeddedResources(W, { kind: 'x y', spec }).map(renderFieldError);

describe('validateEmbeddedResources', () => {
  it.each<[string, unknown, string[]]>([
    ['a complete embedded object', { template: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { labels: { a: 'b' } } } }, []],
    ['apiVersion and kind are required', { template: {} }, ['spec.template.apiVersion: Required value', 'spec.template.kind: Required value']],
    [
      'they must be strings, non-empty and well formed',
      { template: { apiVersion: 'a/b/c', kind: 'My_Kind' } },
      [
        'spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
        'spec.template.kind: Invalid value: "My_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')',
      ],
    ],
    ['a non-string kind', { template: { apiVersion: 'v1', kind: 5 } }, ['spec.template.kind: Invalid value: 5: must be a string']],
    ['an empty apiVersion', { template: { apiVersion: '', kind: 'Pod' } }, ['spec.template.apiVersion: Invalid value: "": must not be empty']],
    [
      'metadata is ObjectMeta, under the embedded path',
      { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a/b', labels: { 'bad key!': 'v' } } } },
      [
        'spec.template.metadata.name: Invalid value: "a/b": may not contain \'/\'',
        expect.stringMatching(/^spec\.template\.metadata\.labels: Invalid value: "bad key!": /) as unknown as string,
      ],
    ],
    ['map values are walked with [key] paths', { many: { x: { kind: 'Pod' } } }, ['spec.many[x].apiVersion: Required value']],
  ])('%s', (_name, spec, want) => {
    expect(errors(spec)).toEqual(want);
  });
});
