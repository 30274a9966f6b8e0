import { encodeJSON, encodeYAML, marshalJSON } from './encode';
import { compareYAMLKeys } from './yamlKeyOrder';

describe('encodeJSON', () => {
  it.each<[unknown, boolean, string]>([
    [{ a: '<b>&', c: [1, 2] }, false, '{"a":"\\u003cb\\u003e\\u0026","c":[1,2]}\n'],
    [{ a: 'x', b: {}, c: [] }, true, '{\n  "a": "x",\n  "b": {},\n  "c": []\n}'],
    [{ s: '\u2028' }, false, '{"s":"\\u2028"}\n'],
  ])('%j (pretty %s)', (v, pretty, out) => expect(encodeJSON(v, pretty)).toBe(out));
  it('marshalJSON has no newline', () => expect(marshalJSON({ a: 1 })).toBe('{"a":1}'));
});

describe('encodeYAML', () => {
  it('writes sorted keys, unindented sequences and quotes only where needed', () => {
    const obj = {
      kind: 'ServiceAccount',
      apiVersion: 'v1',
      metadata: { name: 'x', creationTimestamp: '2024-01-10T08:00:00Z', labels: { on: 'yes', n: '1', e: '', t: 'true', s: 'a: b', l: 'x'.repeat(120) } },
      secrets: [{ name: 'a' }],
      imagePullSecrets: [],
      note: 'two\nlines\n',
    };
    expect(encodeYAML(obj)).toBe(
      [
        'apiVersion: v1',
        'imagePullSecrets: []',
        'kind: ServiceAccount',
        'metadata:',
        '  creationTimestamp: "2024-01-10T08:00:00Z"',
        '  labels:',
        '    e: ""',
        `    l: ${'x'.repeat(120)}`,
        '    "n": "1"',
        '    "on": "yes"',
        "    s: 'a: b'",
        '    t: "true"',
        '  name: x',
        'note: |',
        '  two',
        '  lines',
        'secrets:',
        '- name: a',
        '',
      ].join('\n'),
    );
  });

  it.each([
    [['b', 'a', 'B'], ['B', 'a', 'b']],
    [['a10', 'a2', 'a1'], ['a1', 'a2', 'a10']],
    [['aZ', 'a_', 'a-b', 'a1'], ['a-b', 'a_', 'a1', 'aZ']], // non-letters before letters, digit runs by value
    [['x01', 'x1', 'x001'], ['x1', 'x01', 'x001']],
  ])('yaml.v2 key order %j', (keys, sorted) => expect([...keys].sort(compareYAMLKeys)).toEqual(sorted));
});
