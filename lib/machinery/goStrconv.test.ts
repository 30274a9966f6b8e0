import { goAtoi, goFormatRune, goParseInt64, goParseUint64, goQueryBool, goQuote } from './goStrconv';

describe('goQuote (strconv.Quote)', () => {
  test.each([
    ['abc', '"abc"'],
    ['a"b\\c', '"a\\"b\\\\c"'],
    ['\u0007\b\f\n\r\t\u000b', '"\\a\\b\\f\\n\\r\\t\\v"'],
    ['\u0000\u0001\u007f', '"\\x00\\x01\\x7f"'],
    ['\u0085\u00a0\u00ad', '"\\u0085\\u00a0\\u00ad"'],
    ['\u2028', '"\\u2028"'],
    ['é€😀 ', '"é€😀 "'],
    ['\u{e0001}', '"\\U000e0001"'],
    ['<&>', '"<&>"'],
  ])('%j → %s', (s, want) => {
    expect(goQuote(s)).toBe(want);
  });
});

describe('goFormatRune (%#U)', () => {
  test.each([
    [0x07, 'U+0007'],
    [0x41, "U+0041 'A'"],
    [0x1f600, "U+1F600 '😀'"],
  ])('%d → %s', (cp, want) => {
    expect(goFormatRune(cp)).toBe(want);
  });
});

describe('goParseInt64 / goParseUint64', () => {
  test.each<[string, bigint | string]>([
    ['0', 0n],
    ['-12', -12n],
    ['+12', 12n],
    ['007', 7n],
    ['9223372036854775807', 9223372036854775807n],
    ['9223372036854775808', 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
    ['-9223372036854775809', 'strconv.ParseInt: parsing "-9223372036854775809": value out of range'],
    ['', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['1_000', 'strconv.ParseInt: parsing "1_000": invalid syntax'],
    [' 1', 'strconv.ParseInt: parsing " 1": invalid syntax'],
    ['0x10', 'strconv.ParseInt: parsing "0x10": invalid syntax'],
  ])('ParseInt %j', (s, want) => {
    const r = goParseInt64(s);
    expect(r).toEqual(typeof want === 'bigint' ? { ok: true, value: want } : { ok: false, error: want });
  });

  test.each<[string, bigint | string]>([
    ['18446744073709551615', 18446744073709551615n],
    ['18446744073709551616', 'strconv.ParseUint: parsing "18446744073709551616": value out of range'],
    ['-1', 'strconv.ParseUint: parsing "-1": invalid syntax'],
    ['+1', 'strconv.ParseUint: parsing "+1": invalid syntax'],
    ['abc', 'strconv.ParseUint: parsing "abc": invalid syntax'],
  ])('ParseUint %j', (s, want) => {
    const r = goParseUint64(s);
    expect(r).toEqual(typeof want === 'bigint' ? { ok: true, value: want } : { ok: false, error: want });
  });

  test.each<[string, number | undefined]>([
    ['3', 3],
    ['-1', -1],
    ['x', undefined],
    ['-', undefined],
  ])('Atoi %j', (s, want) => {
    expect(goAtoi(s)).toBe(want);
  });
});

describe('goQueryBool', () => {
  test.each<[string, boolean]>([
    ['true', true],
    ['1', true],
    ['', true],
    ['yes', true],
    ['0', false],
    ['false', false],
    ['FaLsE', false],
  ])('%j → %s', (s, want) => {
    expect(goQueryBool(s)).toBe(want);
  });
});
