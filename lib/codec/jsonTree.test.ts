import { JSONSyntaxError, parseJSON, toPlain } from './jsonTree';

const parse = (s: string): unknown => toPlain(parseJSON(Buffer.from(s, 'latin1')));
function syntax(s: string): string {
  try {
    parseJSON(Buffer.from(s, 'latin1'));
  } catch (e) {
    if (e instanceof JSONSyntaxError) return e.message;
    throw e;
  }
  return 'ok';
}

describe('parseJSON syntax errors (Go encoding/json wording)', () => {
  it.each([
    ['', 'unexpected end of JSON input'],
    ['  ', 'unexpected end of JSON input'],
    ['{', 'unexpected end of JSON input'],
    ['{"a"', 'unexpected end of JSON input'],
    ['x', "invalid character 'x' looking for beginning of value"],
    ['{,}', "invalid character ',' looking for beginning of object key string"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
    ['[1 2]', "invalid character '2' after array element"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['{} {}', "invalid character '{' after top-level value"],
    ['01', "invalid character '1' after top-level value"],
    ['-', 'unexpected end of JSON input'],
    ['-a', "invalid character 'a' in numeric literal"],
    ['1.', 'unexpected end of JSON input'],
    ['1.e', "invalid character 'e' after decimal point in numeric literal"],
    ['1e+', 'unexpected end of JSON input'],
    ['1ex', "invalid character 'x' in exponent of numeric literal"],
    ['tru', 'unexpected end of JSON input'],
    ['trux', "invalid character 'x' in literal true (expecting 'e')"],
    ['nul', 'unexpected end of JSON input'],
    ['fals3', "invalid character '3' in literal false (expecting 'e')"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ['"\\x"', "invalid character 'x' in string escape code"],
    ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
    ["'a'", "invalid character '\\'' looking for beginning of value"],
    ['\u00ef', "invalid character 'ï' looking for beginning of value"],
    ['\u0001', "invalid character '\\x01' looking for beginning of value"],
    ['[' .repeat(10001), "invalid character '[' exceeded max depth"],
  ])('%j', (input, message) => expect(syntax(input)).toBe(message));
});

describe('parseJSON values', () => {
  it('keeps duplicates and number text in the tree', () => {
    expect(parseJSON(Buffer.from('{"a":1,"a":1.50}'))).toEqual({
      kind: 'object',
      members: [
        { key: 'a', value: { kind: 'number', text: '1' } },
        { key: 'a', value: { kind: 'number', text: '1.50' } },
      ],
    });
  });
  it.each([
    ['"\\u00e9\\ud83d\\ude00"', 'é😀'],
    ['"\\ud83d"', '\ufffd'],
    ['"\\ude00x"', '\ufffdx'],
    ['"\\/\\b\\f\\n\\r\\t"', '/\b\f\n\r\t'],
  ])('unquotes %s', (input, out) => expect(toPlain(parseJSON(Buffer.from(input)))).toBe(out));
  it('decodes nested values, last duplicate winning', () => {
    expect(parse(' {"a":[true,false,null,{"b":-0.5e2}],"a":[1],"__proto__":2} ')).toEqual(JSON.parse('{"a":[1],"__proto__":2}'));
  });
});
