import { GoFloat, compareWith, goEqual, goLess } from './compare';

describe('filter comparisons (text/template eq/lt as forked by client-go)', () => {
  it.each([
    ['==', 1, 1, true],
    ['==', 'a', 'a', true],
    ['!=', true, false, true],
    ['<', 1, 2, true],
    ['<=', 2, 2, true],
    ['>', 3, 2, true],
    ['>=', 2, 3, false],
    ['==', new GoFloat(3), 3.5, false],
    ['<', new GoFloat(3), 3.5, true],
  ] as const)('%s %p %p', (op, a, b, want) => {
    expect(compareWith(op, a, b)).toBe(want);
  });

  it('keeps a float literal a float: 3.0 does not compare with the whole number 3', () => {
    expect(() => goEqual(new GoFloat(3), 3)).toThrow('incompatible types for comparison');
  });

  it('orders strings by bytes (code points), not UTF-16 units', () => {
    expect(goLess('\uff61', '\u{1f600}')).toBe(true);
    expect(goLess('\u{1f600}', '\uff61')).toBe(false);
    expect(goLess('ab', 'abc')).toBe(true);
  });

  it('refuses what Go refuses', () => {
    expect(() => goLess(true, false)).toThrow('invalid type for comparison');
    expect(() => goEqual(null, 1)).toThrow('invalid type for comparison');
    expect(() => goEqual('1', 1)).toThrow('incompatible types for comparison');
    expect(() => compareWith('=<', 1, 1)).toThrow('unrecognized filter operator =<');
  });
});
