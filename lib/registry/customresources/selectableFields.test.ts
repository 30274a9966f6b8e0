// Upstream's TestSelectableFields (customresource strategy_test.go) and the rendering of
// other value kinds by fmt.Sprint.
import type { ApiObject } from '../../api';
import { ApiError } from '../../machinery/errors';
import { selectableFieldValues } from './selectableFields';

const obj = (spec: unknown, namespace?: string): ApiObject => ({ metadata: { name: 'example', generation: 1, namespace }, spec }) as unknown as ApiObject;

describe('selectableFieldValues', () => {
  it.each<[string, string[], unknown, Record<string, string>]>([
    ['valid path', ['.spec.foo'], { foo: 'x' }, { 'spec.foo': 'x', 'metadata.name': 'example' }],
    ['missing value', ['.spec.foo'], {}, { 'spec.foo': '', 'metadata.name': 'example' }],
    // beyond upstream's table
    ['null is the empty string', ['.spec.foo'], { foo: null }, { 'spec.foo': '', 'metadata.name': 'example' }],
    ['integer', ['.spec.n'], { n: 42 }, { 'spec.n': '42', 'metadata.name': 'example' }],
    ['boolean', ['.spec.b'], { b: false }, { 'spec.b': 'false', 'metadata.name': 'example' }],
    ['float as %v', ['.spec.f'], { f: 2.5e-7 }, { 'spec.f': '2.5e-07', 'metadata.name': 'example' }],
    ['map as %v', ['.spec.m'], { m: { b: 1, a: 'x' } }, { 'spec.m': 'map[a:x b:1]', 'metadata.name': 'example' }],
    ['list as %v', ['.spec.l'], { l: [1, 'two'] }, { 'spec.l': '[1 two]', 'metadata.name': 'example' }],
    ['under a scalar', ['.spec.foo.bar'], { foo: 'x' }, { 'spec.foo.bar': '', 'metadata.name': 'example' }],
    ['several', ['.spec.a', '.status.b'], { a: 'x' }, { 'spec.a': 'x', 'status.b': '', 'metadata.name': 'example' }],
    ['none', [], { a: 'x' }, { 'metadata.name': 'example' }],
  ])('%s', (_name, paths, spec, want) => {
    expect(selectableFieldValues(paths, false)(obj(spec))).toEqual(want);
  });

  it('adds metadata.namespace for namespaced resources', () => {
    expect(selectableFieldValues(['.spec.foo'], true)(obj({ foo: 'x' }, 'ns'))).toEqual({ 'metadata.name': 'example', 'metadata.namespace': 'ns', 'spec.foo': 'x' });
  });

  it('fails as upstream for a path that does not parse or finds more than one value', () => {
    expect(() => selectableFieldValues(['.spec[?(@.x'], false)(obj({}))).toThrow(ApiError);
    expect(() => selectableFieldValues(['.spec[?(@.x'], false)(obj({}))).toThrow('unexpected error parsing jsonPath: unterminated filter');
    expect(() => selectableFieldValues(['.spec.l[*]'], false)(obj({ l: [1, 2] }))).toThrow('unexpectedly received more than one JSON path result');
    expect(() => selectableFieldValues(['.spec.l[5]'], false)(obj({ l: [1, 2] }))).toThrow('unexpected error finding value with jsonPath: array index out of bounds: index 5, length 2');
  });
});
