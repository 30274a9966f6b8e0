// client-go's parser_test.go (TestParser, TestFailParser) ported: the node tree is compared
// through upstream's node String() texts, in the same depth-first order.
import { JsonPathError, JsonPathLimitError } from './errors';
import type { JsonPathNode } from './nodes';
import { describeNode, maxTemplateLength, parseJsonPath } from './parser';

function collect(nodes: string[], cur: JsonPathNode): string[] {
  nodes.push(describeNode(cur));
  if (cur.type === 'list') for (const n of cur.nodes) collect(nodes, n);
  else if (cur.type === 'filter') {
    collect(nodes, cur.left);
    collect(nodes, cur.right);
  } else if (cur.type === 'union') for (const n of cur.nodes) collect(nodes, n);
  return nodes;
}

const list = 'NodeList';
const text = (t: string): string => `NodeText: ${t}`;
const field = (f: string): string => `NodeField: ${f}`;
const arr = (...p: [number, boolean, boolean][]): string => `NodeArray: [${p.map(([v, k, d]) => `{${v} ${k} ${d}}`).join(' ')}]`;
const filter = (op: string): string => `NodeFilter: NodeList ${op} NodeList`;

const parserTests: [string, string, string[]][] = [
  ['plain', 'hello jsonpath', [text('hello jsonpath')]],
  ['variable', 'hello {.jsonpath}', [text('hello '), list, field('jsonpath')]],
  ['arrayfiled', "hello {['jsonpath']}", [text('hello '), list, field('jsonpath')]],
  ['quote', '{"{"}', [list, text('{')]],
  ['array', '{[1:3]}', [list, arr([1, true, false], [3, true, false], [0, false, false])]],
  ['allarray', '{.book[*].author}', [list, field('book'), arr([0, false, false], [0, false, false], [0, false, false]), field('author')]],
  ['wildcard', '{.bicycle.*}', [list, field('bicycle'), 'NodeWildcard']],
  ['filter', '{[?(@.price<3)]}', [list, filter('<'), list, field('price'), list, 'NodeInt: 3']],
  ['recursive', '{..}', [list, 'NodeRecursive']],
  ['recurField', '{..price}', [list, 'NodeRecursive', field('price')]],
  ['arraydict', "{['book.price']}", [list, field('book'), field('price')]],
  [
    'union',
    "{['bicycle.price', 3, 'book.price']}",
    [list, 'NodeUnion', list, field('bicycle'), field('price'), list, arr([3, true, false], [4, true, true], [0, false, false]), list, field('book'), field('price')],
  ],
  ['range', '{range .items}{.name},{end}', [list, 'NodeIdentifier: range', field('items'), list, field('name'), text(','), list, 'NodeIdentifier: end']],
  ['paired parentheses in quotes', '{[?(@.status.nodeInfo.osImage == "()")]}', [list, filter('=='), list, field('status'), field('nodeInfo'), field('osImage'), list, text('()')]],
  [
    'paired parentheses in double quotes and with double quotes escape',
    '{[?(@.status.nodeInfo.osImage == "(\\"\\")")]}',
    [list, filter('=='), list, field('status'), field('nodeInfo'), field('osImage'), list, text('("")')],
  ],
  ['unregular parentheses in double quotes', '{[?(@.test == "())(")]}', [list, filter('=='), list, field('test'), list, text('())(')]],
  ['plain text in single quotes', "{[?(@.status.nodeInfo.osImage == 'Linux')]}", [list, filter('=='), list, field('status'), field('nodeInfo'), field('osImage'), list, text('Linux')]],
  ['test filter suffix', '{[?(@.status.nodeInfo.osImage == "{[()]}")]}', [list, filter('=='), list, field('status'), field('nodeInfo'), field('osImage'), list, text('{[()]}')]],
  ['double inside single', `{[?(@.status.nodeInfo.osImage == "''")]}`, [list, filter('=='), list, field('status'), field('nodeInfo'), field('osImage'), list, text("''")]],
  ['single inside double', `{[?(@.status.nodeInfo.osImage == '""')]}`, [list, filter('=='), list, field('status'), field('nodeInfo'), field('osImage'), list, text('""')]],
  [
    'single containing escaped single',
    "{[?(@.status.nodeInfo.osImage == '\\\\\\'')]}",
    [list, filter('=='), list, field('status'), field('nodeInfo'), field('osImage'), list, text("\\'")],
  ],
  ['negative index slice, equals a[len-5] to a[len-1]', '{[-5:]}', [list, arr([-5, true, false], [0, false, false], [0, false, false])]],
  ['negative index slice, equals a[len-1]', '{[-1]}', [list, arr([-1, true, false], [0, true, true], [0, false, false])]],
  ['negative index slice, equals a[1] to a[len-1]', '{[1:-1]}', [list, arr([1, true, false], [-1, true, false], [0, false, false])]],
  // Beyond upstream's table: the other node kinds and the field escapes.
  ['escaped dot in a field', '{.metadata.labels.kubernetes\\.io/hostname}', [list, field('metadata'), field('labels'), field('kubernetes.io/hostname')]],
  ['float and bool literals', '{[?(@.x>=1.5)]}{[?(@.ok==true)]}', [list, filter('>='), list, field('x'), list, 'NodeFloat: 1.500000', list, filter('=='), list, field('ok'), list, 'NodeBool: true']],
  ['exists filter', '{[?(@.z)].id}', [list, filter('exists'), list, field('z'), list, field('id')]],
  ['step', '{[::2]}', [list, arr([0, false, false], [0, false, false], [2, true, false])]],
  ['empty brackets are index 0', '{[]}', [list, arr([0, false, false], [1, true, true], [0, false, false])]],
  ['recursive then dotted field', '{...Price}', [list, 'NodeRecursive', field('Price')]],
];

describe('parseJsonPath (client-go parser_test.go)', () => {
  it.each(parserTests)('%s', (_name, template, expected) => {
    const root = parseJsonPath(template);
    expect(collect([], root).slice(1)).toEqual(expected);
  });

  it.each([
    ['unclosed action', '{.hello', 'unclosed action'],
    ['unrecognized character', '{*}', "unrecognized character in action: U+002A '*'"],
    ['invalid number', '{+12.3.0}', 'cannot parse number +12.3.0'],
    ['unterminated array', '{[1}', 'unterminated array'],
    ['unterminated filter', '{[?(.price]}', 'unterminated filter'],
    ['invalid multiple recursive descent', '{........}', 'invalid multiple recursive descent'],
    ['malformat input', '{\\\\\\}', "unrecognized character in action: U+005C '\\'"],
    // Beyond upstream's table: every other parse error text.
    ['unclosed filter bracket', '{[?(@.a)x}', 'unclosed array expect ]'],
    ['invalid array index', '{[a]}', 'invalid array index a'],
    ['slice bound that is only a sign', '{[-:2]}', 'array index - is not a number'],
    ['unterminated quoted string', '{"abc}', 'unterminated quoted string'],
    ['bad escape', '{"\\q"}', 'unquote string "\\q" error invalid syntax'],
    ['newline in an action', '{.a\n}', 'unclosed action'],
    ['a union member that does not parse', '{[1,a]}', 'invalid array index a'],
    ['tab is not a space', '{\t.a}', 'unrecognized character in action: U+0009'],
    // `==` with nothing after it: the regexp gives the last '=' to the right operand.
    ['operator run with no right operand', '{[?(@.a==)]}', "unrecognized character in action: U+003D '='"],
  ])('fails: %s', (_name, template, message) => {
    expect(() => parseJsonPath(template)).toThrow(new JsonPathError(message));
  });

  it('unquotes Go escapes in both quote styles', () => {
    const texts = (t: string): string[] => collect([], parseJsonPath(t)).filter((s) => s.startsWith('NodeText'));
    expect(texts('{"a\\tb\\u00e9\\x41\\101"}')).toEqual(['NodeText: a\tbéAA']);
    expect(texts("{'it\\'s \"x\"'}")).toEqual(['NodeText: it\'s "x"']);
    expect(() => parseJsonPath('{"\\\'"}')).toThrow('unquote string');
  });

  it('numbers past int64 become floats as upstream (Atoi fails, ParseFloat does not)', () => {
    expect(collect([], parseJsonPath('{[?(@.a==99999999999999999999)]}'))).toContain('NodeFloat: 100000000000000000000.000000');
  });

  it('refuses templates longer than the bound', () => {
    expect(() => parseJsonPath(`{.${'a'.repeat(maxTemplateLength)}}`)).toThrow(JsonPathLimitError);
    expect(parseJsonPath(`{.${'a'.repeat(maxTemplateLength - 3)}}`).nodes).toHaveLength(1);
  });

  it('parses a long run of tokens without deep recursion', () => {
    const t = `{${'.a'.repeat(2000)}}`;
    expect((parseJsonPath(t).nodes[0] as { nodes: unknown[] }).nodes).toHaveLength(2000);
  });
});
