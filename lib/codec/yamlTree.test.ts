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

// sigs.k8s.io/yaml's convertToJSONableObject turns non-string keys into JSON keys; the fuzz found
// JavaScript's spelling of the infinities ("Infinity") reaching unknown-field warnings and
// apply's typed-conversion error.
describe('parseYAML keys that are not strings', () => {
  test.each<[string, string, Record<string, unknown>]>([
    ['+Inf', '.inf: x\n', { '.inf': 'x' }],
    ['-Inf', '-.inf: x\n', { '-.inf': 'x' }],
    ['NaN', '.nan: x\n', { '.nan': 'x' }],
    ['a float, formatted at 32 bits', '3.14159265358979: x\n', { '3.1415927': 'x' }],
    ['a short float', '1.5: x\n', { '1.5': 'x' }],
    ['a small float in %e form', '0.00001: x\n', { '1e-05': 'x' }],
    ['an int', '10: x\n', { '10': 'x' }],
    ['a hex int', '0x1F: x\n', { '31': 'x' }],
    ['a bool', 'true: x\n', { true: 'x' }],
    ['inside a nested map', 'metadata:\n  .inf: x\n', { metadata: { '.inf': 'x' } }],
  ])('%s', (_what, text, want) => {
    expect(goJsonNodeValue(parseYAML(text, false).root)).toEqual(want);
  });

  test.each([
    ['a null key', '~: x\n', 'unsupported map key of type: %!s(<nil>), key: <nil>, value: "x"'],
    ['a null key with a list value', 'null: [1, a]\n', 'unsupported map key of type: %!s(<nil>), key: <nil>, value: []interface {}{1, "a"}'],
  ])('%s is refused as sigs.k8s.io/yaml refuses it', (_what, text, message) => {
    expect(parseError(text)).toBe(message);
  });
});
