import { goFormatFloat, goFormatValue, goSharpV } from './goFormat';

describe('strconv.FormatFloat(f, g, -1, bits)', () => {
  test.each<[number, 32 | 64, string]>([
    [0.5, 64, '0.5'],
    [123456, 64, '123456'],
    [1e6, 64, '1e+06'],
    [1234567.5, 64, '1.2345675e+06'],
    [0.0001, 64, '0.0001'],
    [0.00001, 64, '1e-05'],
    [1e308, 64, '1e+308'],
    [-2147483649.5, 64, '-2.1474836495e+09'],
    [Infinity, 64, '+Inf'],
    [-Infinity, 64, '-Inf'],
    [NaN, 64, 'NaN'],
    [-0, 64, '-0'],
    [3.14159265358979, 32, '3.1415927'],
    [0.1, 32, '0.1'],
    [1.5, 32, '1.5'],
    [16777217, 32, '1.6777216e+07'],
    [0.00001, 32, '1e-05'],
  ])('%p at %i bits → %s', (f, bits, want) => {
    expect(goFormatFloat(f, bits)).toBe(want);
  });
});

describe('fmt verbs on decoded JSON values', () => {
  const v = { b: [1, 'x', null, 0.5], a: { c: true } };
  test('%v sorts map keys and spaces lists', () => {
    expect(goFormatValue(v)).toBe('map[a:map[c:true] b:[1 x <nil> 0.5]]');
  });
  test('%s wraps what is not a string', () => {
    expect(goFormatValue([5, null, 's'], 's')).toBe('[%!s(int64=5) %!s(<nil>) s]');
  });
  test('%#v writes Go syntax', () => {
    expect(goSharpV(v)).toBe('map[string]interface {}{"a":map[string]interface {}{"c":true}, "b":[]interface {}{1, "x", interface {}(nil), 0.5}}');
    expect(goSharpV('a"\u0000')).toBe('"a\\"\\x00"');
    expect(goSharpV(1e21)).toBe('1e+21');
  });
});
