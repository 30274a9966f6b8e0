import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, nameIsDNSSubdomain, validatePathSegmentName } from './names';

const namePart =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const labelValue =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('isQualifiedName', () => {
  test.each<[string, string[]]>([
    ['app', []],
    ['example.com/App_1', []],
    ['', ['name part must be non-empty', namePart]],
    ['example.com/', ['name part must be non-empty', namePart]],
    ['/a', ['prefix part must be non-empty']],
    ['-a', [namePart]],
    ['a'.repeat(64), ['name part must be no more than 63 characters']],
  ])('%j', (v, want) => {
    expect(isQualifiedName(v)).toEqual(want);
  });

  test('a bad prefix is reported with "prefix part"', () => {
    expect(isQualifiedName('Example.com/a')[0]).toMatch(/^prefix part a lowercase RFC 1123 subdomain must consist of/);
  });
});

describe('isValidLabelValue', () => {
  test.each<[string, string[]]>([
    ['', []],
    ['v1.2_x-y', []],
    ['-a', [labelValue]],
    ['a'.repeat(64), ['must be no more than 63 characters']],
    // Go counts bytes: 32 two-byte characters are 64 bytes.
    ['é'.repeat(32), ['must be no more than 63 characters', labelValue]],
  ])('%j', (v, want) => {
    expect(isValidLabelValue(v)).toEqual(want);
  });
});

describe('DNS-1123 names', () => {
  test.each<[string, (v: string) => string[], number]>([
    ['my-name', isDNS1123Label, 0],
    ['a.b', isDNS1123Label, 1],
    ['a'.repeat(64), isDNS1123Label, 1],
    ['example.com', isDNS1123Subdomain, 0],
    ['Example', isDNS1123Subdomain, 1],
    ['a'.repeat(254), isDNS1123Subdomain, 1],
  ])('%j', (v, fn, count) => {
    expect(fn(v)).toHaveLength(count);
  });

  test('generateName prefixes may end in "-"', () => {
    expect(nameIsDNSSubdomain('pre-', true)).toEqual([]);
    expect(nameIsDNSSubdomain('pre-', false)).toHaveLength(1);
  });
});

describe('validatePathSegmentName', () => {
  test.each<[string, boolean, string[]]>([
    ['ok', false, []],
    ['.', false, ["may not be '.'"]],
    ['..', false, ["may not be '..'"]],
    ['..', true, []],
    ['a/b%c', false, ["may not contain '/'", "may not contain '%'"]],
  ])('%j prefix=%s', (v, prefix, want) => {
    expect(validatePathSegmentName(v, prefix)).toEqual(want);
  });
});
