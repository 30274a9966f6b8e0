import { goJsonNodeValue } from '../machinery/goJson';
import { parseYAML, YAMLSyntaxError } from './yamlTree';

function parseError(text: string): string {
  try {
    parseYAML(text, false);
  } catch (e) {
    if (e instanceof YAMLSyntaxError) return e.message;
    throw e;
  }
  return 'no error';
}

const laughs = (levels: number, fan: number): string => {
  const lines = ['a0: &a0 "lol"'];
  for (let i = 1; i <= levels; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: fan }, () => `*a${i - 1}`).join(',')}]`);
  return `${lines.join('\n')}\n`;
};

describe('parseYAML aliases', () => {
  test.each([
    ['a sequence holding its own alias', 'loop: &l [*l]\n', "yaml: anchor 'l' value contains itself"],
    ['a mapping holding its own alias', 'm: &m {k: *m}\n', "yaml: anchor 'm' value contains itself"],
    ['a nested self-reference', 'a: &outer\n  b: [1, {c: *outer}]\n', "yaml: anchor 'outer' value contains itself"],
    ['billion laughs', laughs(9, 10), 'yaml: document contains excessive aliasing'],
    ['a long alias chain', Array.from({ length: 600 }, (_, i) => (i ? `a${i}: &a${i} [*a${i - 1}]` : 'a0: &a0 [x]')).join('\n'), 'yaml: document contains excessive aliasing'],
    [
      'nesting past the limit through an alias',
      `a: &a ${'['.repeat(600)}1${']'.repeat(600)}\nb: ${'['.repeat(500)}*a${']'.repeat(500)}\n`,
      'yaml: nesting exceeded maxDepth (1000)',
    ],
  ])('%s is refused', (_what, text, message) => {
    expect(parseError(text)).toBe(message);
  });

  test.each([
    ['an alias of a closed anchor', 'a: &x [1, 2]\nb: *x\n', { a: [1, 2], b: [1, 2] }],
    ['an anchor shadowed inside its own value', 'a: &x [&x 1, *x]\n', { a: [1, 1] }],
    ['moderate reuse', laughs(2, 10), { a0: 'lol', a1: Array(10).fill('lol'), a2: Array(10).fill(Array(10).fill('lol')) }],
  ])('%s is accepted', (_what, text, want) => {
    expect(goJsonNodeValue(parseYAML(text, false).root)).toEqual(want);
  });
});
