import { goFloatText, goJsonNodeFromValue, GoJsonSyntaxError, goJsonQuoteString, goJsonStringify, parseGoJson, parseGoJsonTree } from './goJson';

describe('parseGoJson: values', () => {
  test.each<[string, unknown]>([
    ['{"a":[1,2.5,-3e2,true,false,null,"x"]}', { a: [1, 2.5, -300, true, false, null, 'x'] }],
    [' "\\u00e9\\n\\/" ', 'é\n/'],
    ['"\\ud83d\\ude00"', '😀'],
    ['"\\ud800x"', '\ufffdx'],
    ['"\\ud800\\u0041"', '\ufffdA'],
    ['{"a":1,"a":2}', { a: 2 }],
    ['0', 0],
    ['-0.5E+1', -5],
  ])('%s', (text, want) => {
    expect(parseGoJson(text)).toEqual(want);
  });

  test('keeps duplicate members and number literals in the tree', () => {
    expect(parseGoJsonTree('{"a":1.0,"a":2}')).toEqual({
      kind: 'object',
      members: [
        { key: 'a', value: { kind: 'number', text: '1.0' } },
        { key: 'a', value: { kind: 'number', text: '2' } },
      ],
    });
  });
});

describe('parseGoJson: Go syntax error texts', () => {
  test.each([
    ['', 'unexpected end of JSON input'],
    ['  ', 'unexpected end of JSON input'],
    ['x', "invalid character 'x' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b"}', `invalid character '"' after object key:value pair`],
    ['{1:2}', "invalid character '1' looking for beginning of object key string"],
    ['[1 2]', "invalid character '2' after array element"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['{} x', "invalid character 'x' after top-level value"],
    ['01', "invalid character '1' after top-level value"],
    ['-a', "invalid character 'a' in numeric literal"],
    ['1.a', "invalid character 'a' after decimal point in numeric literal"],
    ['1ea', "invalid character 'a' in exponent of numeric literal"],
    ['"a\\x"', "invalid character 'x' in string escape code"],
    ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
    ['"a\tb"', "invalid character '\\t' in string literal"],
    ['nul', 'unexpected end of JSON input'],
    ['nulL', "invalid character 'L' in literal null (expecting 'l')"],
    ['fals', 'unexpected end of JSON input'],
    ['[', 'unexpected end of JSON input'],
    ["'a'", "invalid character '\\'' looking for beginning of value"],
    ['\u00e9', "invalid character 'Ã' looking for beginning of value"],
    ['\u0001', "invalid character '\\x01' looking for beginning of value"],
  ])('%j', (text, message) => {
    expect(() => parseGoJson(text)).toThrow(GoJsonSyntaxError);
    expect(() => parseGoJson(text)).toThrow(message);
  });

  test('nesting deeper than 10000 is refused', () => {
    expect(() => parseGoJson('['.repeat(10001) + ']'.repeat(10001))).toThrow("invalid character '[' exceeded max depth");
    expect(() => parseGoJson('{"a":'.repeat(10001))).toThrow("invalid character '{' exceeded max depth");
    const deep = parseGoJson('['.repeat(10000) + ']'.repeat(10000));
    expect(Array.isArray(deep)).toBe(true);
    expect(() => parseGoJson('['.repeat(200000))).toThrow('exceeded max depth');
  });

  // Shallow values are built recursively, deep ones without recursion: the same values either way.
  test.each([
    ['below the recursion limit', 198],
    ['past it', 240],
    ['far past it', 9998],
  ])('nested objects and arrays %s (%i levels) decode alike', (_n, depth) => {
    const text = '{"a":['.repeat(depth / 2) + '{"k":1,"k":2,"__proto__":"x"}' + ']}'.repeat(depth / 2);
    let v = parseGoJson(text) as Record<string, unknown>;
    for (let i = 0; i < Math.floor(depth / 2); i++) v = (v.a as Record<string, unknown>[])[0];
    expect(v).toEqual({ k: 2, ['__proto__']: 'x' });
    expect(Object.keys(v)).toEqual(['k', '__proto__']);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  });
});

describe('parseGoJsonTree: error offsets', () => {
  test.each([
    ['[1 2]', 3],
    ['{"a":1,}', 7],
    ['{"a"', 4],
    ['"\\u12g4"', 5],
  ])('%j', (text, offset) => {
    let err: unknown;
    try {
      parseGoJsonTree(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GoJsonSyntaxError);
    expect((err as GoJsonSyntaxError).offset).toBe(offset);
  });
});

describe('goJsonNodeFromValue', () => {
  test('builds the tree a document with that value parses to', () => {
    const v = { b: [1, 2.5, null, true, 'x'], a: { c: 1e21 } };
    expect(goJsonNodeFromValue(v)).toEqual(parseGoJsonTree('{"b":[1,2.5,null,true,"x"],"a":{"c":1e+21}}'));
  });
  test('Maps, bigints and undefined', () => {
    expect(goJsonNodeFromValue(new Map<unknown, unknown>([[1, 2n]]))).toEqual({ kind: 'object', members: [{ key: '1', value: { kind: 'number', text: '2' } }] });
    expect(goJsonNodeFromValue(undefined)).toEqual({ kind: 'null' });
  });
  test.each<[number, string]>([
    [1e20, '100000000000000000000'],
    [1e21, '1e+21'],
    [0.5, '0.5'],
    [-3, '-3'],
  ])('goFloatText(%p)', (n, want) => expect(goFloatText(n)).toBe(want));
});

describe('Go json encoding', () => {
  test.each([
    ['plain', '"plain"'],
    ['a\u0000b', '"a\\u0000b"'],
    ['<>&', '"\\u003c\\u003e\\u0026"'],
    ['\u2028\u2029', '"\\u2028\\u2029"'],
    ['\b\f\n\r\t', '"\\b\\f\\n\\r\\t"'],
    ['"\\', '"\\"\\\\"'],
    ['é😀', '"é😀"'],
    ['\ud800', '"\ufffd"'],
    ['\u007f', '"\u007f"'],
  ])('quote %j', (s, want) => {
    expect(goJsonQuoteString(s)).toBe(want);
  });

  test.each<[unknown, string]>([
    [{ b: 1, a: [true, null, 'x'], u: undefined }, '{"b":1,"a":[true,null,"x"]}'],
    [Uint8Array.from([1, 2, 3]), '"AQID"'],
    [[undefined], '[null]'],
    [1e21, '1e+21'],
  ])('stringify %j', (v, want) => {
    expect(goJsonStringify(v)).toBe(want);
  });
});

// Short ASCII strings come from a table of recent ones (by a hash of their bytes).
describe('interned strings', () => {
  test('strings sharing a slot keep their own text', () => {
    // "Aa" and "BB" hash alike (31·'A'+'a' = 31·'B'+'B').
    expect(parseGoJson('["Aa","BB","Aa","BB",{"Aa":"BB","BB":"Aa"}]')).toEqual(['Aa', 'BB', 'Aa', 'BB', { Aa: 'BB', BB: 'Aa' }]);
  });
  test('a string read again is the same text, escaped or not', () => {
    expect(parseGoJson('["ab","a\\u0062","ab","abc","ab"]')).toEqual(['ab', 'ab', 'ab', 'abc', 'ab']);
  });
  test('at, past and beside the length limit, and non-ASCII', () => {
    const texts = ['a'.repeat(32), 'a'.repeat(33), 'é', 'aé', 'a'.repeat(32)];
    expect(parseGoJson(Buffer.from(JSON.stringify(texts)))).toEqual(texts);
  });
});
