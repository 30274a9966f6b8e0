import { LinearRegex } from './linearRegex';
import { regexProgramSize } from './regexProgramSize';

describe('regexProgramSize', () => {
  // The estimate is Go's calcSize over the text: at least what re2js compiles, and close to it.
  it.each<string>([
    'a', 'abc', 'a*', 'a+b?', '(a)', '(?:ab)|c|d', 'a{2,999}', '(.*a){20}', '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', '(?i)k+',
    '\\Qa.b\\E', '(?P<x>a|b)*', '(?<x>a)', 'x{3,}', '[]a]', '[^]a]+', '(a|b|c|d)*e', '(?s:.)+', '(a{10}){10}', '(a{2}){3}b',
  ])('%s: no less than the compiled program, at most 4 times it', (pattern) => {
    const compiled = LinearRegex.compile(pattern).size;
    const estimate = regexProgramSize(pattern);
    expect(estimate).toBeGreaterThanOrEqual(compiled);
    expect(estimate).toBeLessThanOrEqual(Math.max(8, 4 * compiled));
  });

  it('multiplies counted repeats, nested ones too', () => {
    // Go's calcSize: max·sub + (max − min), and the program's fail and match.
    expect(regexProgramSize('a{2,999}')).toBe(999 + 997 + 2);
    expect(regexProgramSize('(?:a{10}){100}')).toBeGreaterThanOrEqual(1000);
    expect(regexProgramSize('a{2,999}'.repeat(512))).toBeGreaterThan(1_000_000);
  });

  it('weighs Unicode classes by what they cost to compile', () => {
    expect(regexProgramSize('\\pL')).toBeGreaterThan(regexProgramSize('a'));
    expect(regexProgramSize('[\\p{Greek}a]')).toBeGreaterThan(regexProgramSize('[ab]'));
  });

  it('reads hostile text in one pass without recursion', () => {
    // A million open groups: a recursive reader would overflow the stack.
    expect(regexProgramSize('('.repeat(1_000_000))).toBeGreaterThan(0);
    expect(regexProgramSize(')'.repeat(1_000_000) + '{'.repeat(1_000_000) + '\\'.repeat(1_000_001))).toBeGreaterThan(0);
    expect(regexProgramSize('[' + '\\'.repeat(999_999))).toBeGreaterThan(0);
  });
});
