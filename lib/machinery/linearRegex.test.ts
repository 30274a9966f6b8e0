import { LinearRegex, RegexSyntaxError, regexTooLargeMessage } from './linearRegex';

describe('LinearRegex', () => {
  // What Go's regexp.Compile answers (the text clients see through CEL).
  it.each<[string, string]>([
    ['(?=x)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    ['(?!x)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?!`'],
    ['(?<=a)b', 'error parsing regexp: invalid named capture: `(?<=a)b`'],
    ['(a)\\1', 'error parsing regexp: invalid escape sequence: `\\1`'],
    ['a{1001}', 'error parsing regexp: invalid repeat count: `{1001}`'],
    ['x**', 'error parsing regexp: invalid nested repetition operator: `**`'],
    ['[z-a]', 'error parsing regexp: invalid character class range: `z-a`'],
    ['(', 'error parsing regexp: missing closing ): `(`'],
    ['[', 'error parsing regexp: missing closing ]: `[`'],
  ])('refuses %s as Go does', (pattern, message) => {
    expect(() => LinearRegex.compile(pattern)).toThrow(new RegexSyntaxError(message));
  });

  it.each<[string, string, boolean]>([
    ['^a', 'abc', true],
    ['b', 'abc', true],
    ['^b', 'abc', false],
    ['(?i)ABC', 'xabcx', true],
    ['^.$', '😀', true],
    ['a$', 'a\n', false],
    ['\\pL+', 'é', true],
    ['(?P<name>x)', 'x', true],
    ['[[:alpha:]]', '1a', true],
  ])('%s matches %p: %p', (pattern, input, want) => {
    expect(LinearRegex.compile(pattern).test(input)).toBe(want);
  });

  it('finds the leftmost match, empty when there is none (Go FindString)', () => {
    expect(LinearRegex.compile('[0-9]+').find('ab12cd345')).toBe('12');
    expect(LinearRegex.compile('[0-9]+').find('abc')).toBe('');
  });

  it.each<[string, string, number, string[]]>([
    ['[0-9]+', 'ab12cd345', -1, ['12', '345']],
    ['[0-9]+', 'ab12cd345', 1, ['12']],
    ['[0-9]+', 'ab12cd345', 0, []],
    // Go skips an empty match that abuts the previous match.
    ['a*', 'baaab', -1, ['', 'aaa', '']],
    ['', 'ab', -1, ['', '', '']],
    // A surrogate pair is one rune: the empty matches fall around it, not inside it.
    ['x*', '😀', -1, ['', '']],
  ])('findAll(%s, %p, %d)', (pattern, input, n, want) => {
    expect(LinearRegex.compile(pattern).findAll(input, n)).toEqual(want);
  });

  it('matches a hostile input in linear time', () => {
    // With backtracking, ^(a+)+$ on 'a'×n + '!' takes 2^n steps; this is 2^100000.
    const input = `${'a'.repeat(100_000)}!`;
    expect(LinearRegex.compile('^(a+)+$').test(input)).toBe(false);
    expect(LinearRegex.compile('^([a-z0-9]+)+$').test(input)).toBe(false);
  });

  it('refuses a program past maxSize before compiling it', () => {
    const sizes: number[] = [];
    const pattern = 'q{2,999}'.repeat(30);
    expect(() => LinearRegex.compile(pattern, { maxSize: 25_000, beforeCompiling: (n) => sizes.push(n) })).toThrow(new RegexSyntaxError(regexTooLargeMessage));
    expect(sizes).toEqual([]);
  });

  it('calls beforeCompiling with the estimate only when it compiles (not for a cached pattern)', () => {
    const pattern = 'cache-me-[0-9]{2}';
    const sizes: number[] = [];
    const first = LinearRegex.compile(pattern, { beforeCompiling: (n) => sizes.push(n) });
    const second = LinearRegex.compile(pattern, { beforeCompiling: (n) => sizes.push(n) });
    expect(second).toBe(first);
    expect(sizes).toHaveLength(1);
    expect(sizes[0]).toBeGreaterThanOrEqual(first.size);
  });

  it('lets beforeCompiling stop the compilation', () => {
    const stop = new Error('budget');
    expect(() => LinearRegex.compile('never-[a-z]{3}-compiled', { beforeCompiling: () => { throw stop; } })).toThrow(stop);
  });
});
