import { CelEnvironment } from '../environment';

// Cases after upstream's apiserver/pkg/cel/library/library_test.go (lists and regex).
const env = new CelEnvironment([]);
function run(expr: string) {
  const c = env.compile(expr);
  if (c.error !== undefined) throw new Error(c.error);
  return c.program.evaluate({});
}

describe('lists', () => {
  it.each<[string, unknown]>([
    ['[].isSorted()', true],
    ['[1, 2, 3].isSorted()', true],
    ['[1, 3, 2].isSorted()', false],
    ["['a', 'b', 'b'].isSorted()", true],
    ['[1, 2, 3].sum()', 6n],
    ['[1.5, 2.5].sum()', 4],
    ['[].sum()', 0n],
    ['[3, 1, 2].min()', 1n],
    ['[3, 1, 2].max()', 3n],
    ["['b', 'a'].min()", 'a'],
    ['[1, 2, 3, 2].indexOf(2)', 1n],
    ['[1, 2, 3, 2].lastIndexOf(2)', 3n],
    ['[1, 2].indexOf(5)', -1n],
    ["[[1], [2]].indexOf([2])", 1n],
  ])('%s == %p', (expr, want) => expect(run(expr)).toMatchObject({ ok: true, value: want }));

  it.each([
    ['[].min()', 'min(list) called on empty list'],
    ['[].max()', 'max(list) called on empty list'],
  ])('%s fails with %p', (expr, msg) => expect(run(expr)).toMatchObject({ ok: false, message: expect.stringContaining(msg) }));

  it('charges one unit per element walked', () => {
    expect(run('[1, 2, 3].sum()').cost).toBeGreaterThan(run('[1].sum()').cost);
  });
});

describe('regex', () => {
  it.each<[string, unknown]>([
    ["'abc 123'.find('[0-9]+')", '123'],
    ["'abc'.find('[0-9]+')", ''],
    ["'123 abc 456'.findAll('[0-9]+')", ['123', '456']],
    ["'123 abc 456'.findAll('[0-9]+', 1)", ['123']],
    ["'123 abc 456'.findAll('[0-9]+', 0)", []],
    ["'abc'.findAll('[0-9]+')", []],
    ["'abc'.matches('^a')", true],
  ])('%s == %p', (expr, want) => expect(run(expr)).toMatchObject({ ok: true, value: want }));

  it('refuses an invalid literal regex when the program is built, as upstream', () => {
    expect(env.compile("'abc'.find('[')").error).toBe('program instantiation failed: error parsing regexp: missing closing ]: `[`');
  });
});
