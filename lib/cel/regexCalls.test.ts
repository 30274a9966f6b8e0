import { RE2JS } from 're2js';
import { LinearRegex } from '../machinery/linearRegex';
import { CelEnvironment } from './environment';
import { costLimitExceededMessage, perCallLimit } from './cost';
import { matchCellsPerUnit, regexMatchCost, upstreamRegexCost } from './regexCalls';

// The policy environment's shape: unstructured objects, names as they are.
const env = new CelEnvironment([{ name: 'object', unescaped: true }]);

function run(expr: string, object: unknown = {}, limit?: number) {
  const c = env.compile(expr);
  if (c.error !== undefined) throw new Error(c.error);
  return c.program.evaluate({ object }, { limit });
}

describe('regular expressions in CEL', () => {
  // No RegExp is ever built from a pattern in an expression: JavaScript's engine backtracks.
  let regExp: jest.SpyInstance;
  beforeEach(() => {
    regExp = jest.spyOn(globalThis, 'RegExp');
  });
  afterEach(() => {
    expect(regExp.mock.calls.filter(([p]) => typeof p === 'string' && p.includes('(a+)+'))).toEqual([]);
    regExp.mockRestore();
  });

  it.each<[string, string]>([
    ['matches', "object.metadata.name.matches('^(a+)+$')"],
    ['matches, dynamic pattern', 'object.metadata.name.matches(object.data.p)'],
    ['find', "object.metadata.name.find('^(a+)+$')"],
    ['findAll', "object.metadata.name.findAll('^(a+)+$').size() == 0"],
  ])('%s: a hostile value is matched in linear time', (_name, expr) => {
    // Backtracking takes 2^26 steps here (seconds), 2^40 at 40 characters (hours); RE2 takes 27.
    const object = { metadata: { name: `${'a'.repeat(26)}!` }, data: { p: '^(a+)+$' } };
    const r = run(expr, object);
    expect(r.ok).toBe(true);
    expect(r.ok && r.value).toEqual(expr.includes('find(') ? '' : expr.includes('findAll') ? true : false);
  });

  it('a hostile value the size of a request body is refused by cost before it is matched', () => {
    const object = { metadata: { name: `${'a'.repeat(3_000_000)}!` } };
    expect(run("object.metadata.name.matches('^([a-z0-9]+)+$')", object)).toMatchObject({ ok: false, costExceeded: true, message: costLimitExceededMessage });
  });

  it.each<[string, string]>([
    // cel-go's ValidateRegexLiterals: a check issue at the literal.
    ["object.metadata.name.matches('(?=x)')", "compilation failed: ERROR: <input>:1:30: invalid matches argument\n | object.metadata.name.matches('(?=x)')\n | .............................^"],
    ["'a'.matches('(a)\\\\1')", "compilation failed: ERROR: <input>:1:13: invalid matches argument\n | 'a'.matches('(a)\\\\1')\n | ............^"],
    // find/findAll literals are compiled when upstream builds the program.
    ["'a'.find('(?<=a)b') == ''", 'program instantiation failed: error parsing regexp: invalid named capture: `(?<=a)b`'],
    ["'a'.findAll('x**').size() == 0", 'program instantiation failed: error parsing regexp: invalid nested repetition operator: `**`'],
  ])('refuses %s at compile time as upstream', (expr, error) => {
    expect(env.compile(expr).error).toBe(error);
  });

  it('a pattern computed at run time that RE2 refuses is an evaluation error with Go\'s text', () => {
    expect(run('object.v.matches(object.p)', { v: 'a', p: '(?=x)' })).toMatchObject({ ok: false, message: 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`' });
  });

  it('a literal whose compilation alone would exceed the limit is refused as too large', () => {
    expect(env.compile(`'a'.matches('${'q{2,999}'.repeat(20)}')`).error).toMatch(/^compilation failed: ERROR: <input>:1:13: invalid matches argument/);
    expect(env.compile(`'a'.find('${'q{2,999}'.repeat(20)}') == ''`).error).toBe('program instantiation failed: error parsing regexp: expression too large');
  });

  it('a pattern computed at run time is charged for compiling before it compiles', () => {
    const compile = jest.spyOn(RE2JS, 'compile');
    try {
      // About a million instructions: seconds of compilation, refused by cost first.
      const r = run('object.v.matches(object.p)', { v: 'a', p: 'w{2,999}'.repeat(512) });
      expect(r).toMatchObject({ ok: false, costExceeded: true, message: costLimitExceededMessage });
      expect(compile).not.toHaveBeenCalled();
    } finally {
      compile.mockRestore();
    }
  });

  it('costs upstream\'s figure for an ordinary pattern', () => {
    expect(run("'ab'.matches('a')").ok && run("'ab'.matches('a')").cost).toBe(1);
    const name = 'a'.repeat(253);
    const re = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
    expect(run(`object.n.matches('${re}')`, { n: name }).cost).toBe(2 + upstreamRegexCost(name, re));
  });

  it('costs the matcher\'s work when a pattern compiles to far more than its length', () => {
    const v = 'x'.repeat(1000);
    const r = run("object.v.matches('x{2,999}y')", { v });
    // About 2,000 instructions over 1,001 positions: more than 100 times upstream's 101 × 3.
    const size = LinearRegex.compile('x{2,999}y').size;
    expect(size).toBeGreaterThan(1990);
    expect(r.cost).toBe(2 + Math.ceil((1001 * (size - 2)) / matchCellsPerUnit));
    expect(regexMatchCost(v, 'x{2,999}y', size)).toBeGreaterThan(100 * upstreamRegexCost(v, 'x{2,999}y'));
    expect(run("object.v.matches('x{2,999}y')", { v: 'x'.repeat(40_000) })).toMatchObject({ ok: false, costExceeded: true });
  });

  it('charges before matching, so a call past the limit does no work', () => {
    expect(run("object.v.matches('(.*a){20}')", { v: 'a'.repeat(1_000_000) }, perCallLimit)).toMatchObject({ ok: false, costExceeded: true });
  });
});
