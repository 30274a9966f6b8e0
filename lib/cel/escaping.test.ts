import { escapeName, unescapeName } from './escaping';

// Upstream's escaping table (apiserver/pkg/cel/escaping_test.go).
describe('escapeName', () => {
  it.each([
    ['metadata', 'metadata'],
    ['namespace', '__namespace__'],
    ['if', '__if__'],
    ['true', '__true__'],
    ['x-y', 'x__dash__y'],
    ['a.b', 'a__dot__b'],
    ['a/b', 'a__slash__b'],
    ['a__b', 'a__underscores__b'],
    ['__x__', '__underscores__x__underscores__'],
    ['_a', '_a'],
    ['svc.io/name', 'svc__dot__io__slash__name'],
    ['a___b', 'a__underscores___b'],
  ])('%s -> %s and back', (name, ident) => {
    expect(escapeName(name)).toBe(ident);
    expect(unescapeName(ident)).toBe(name);
  });
  it.each(['1a', 'a b', 'a:b', '', 'ü'])('%j is not accessible', (name) => {
    expect(escapeName(name)).toBeUndefined();
  });
});
