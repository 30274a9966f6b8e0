// client-go's jsonpath_test.go ported: each template is parsed, evaluated and printed as
// Execute does. Inputs are decoded JSON (upstream's struct inputs are written as the JSON they
// marshal to, so their printed keys are sorted as a map's are, where upstream prints struct order).
import { JsonPathError, JsonPathLimitError } from './errors';
import { findResults, type JsonPathValue } from './evaluate';
import { parseJsonPath } from './parser';
import { executeJsonPath, printResults } from './print';


type Case = [name: string, template: string, input: JsonPathValue, expect: string | Error];

function run(cases: Case[], allowMissingKeys: boolean): void {
  it.each(cases)('%s', (_name, template, input, expected) => {
    const exec = (): string => executeJsonPath(parseJsonPath(template), input, { allowMissingKeys });
    if (expected instanceof Error) expect(exec).toThrow(expected.message ? expected : JsonPathError);
    else expect(exec()).toBe(expected);
  });
}
const fails = (message = ''): Error => new JsonPathError(message);

describe('TestTypesInput', () => {
  const types: JsonPathValue = {
    bools: [true, false, true, false],
    integers: [1, 2, 3, 4],
    floats: [1.0, 2.2, 3.3, 4.0],
    strings: ['one', 'two', 'three', 'four'],
    interfaces: [true, 'one', 1, 1.1],
    maps: [
      { name: 'one', value: 1 },
      { name: 'two', value: 2.02 },
      { name: 'three', value: 3.03 },
      { name: 'four', value: 4.04 },
    ],
    structs: [
      { name: 'one', value: 1, type: 'integer' },
      { name: 'two', value: 2.002, type: 'float' },
      { name: 'three', value: 3, type: 'integer' },
      { name: 'four', value: 4.004, type: 'float' },
    ],
  };
  run(
    [
      ['boolSlice', '{ .bools }', types, '[true,false,true,false]'],
      ['boolSliceIndex', '{ .bools[0] }', types, 'true'],
      ['boolSliceIndex', '{ .bools[-1] }', types, 'false'],
      ['boolSubSlice', '{ .bools[0:2] }', types, 'true false'],
      ['boolSubSliceFirst2', '{ .bools[:2] }', types, 'true false'],
      ['boolSubSliceStep2', '{ .bools[:4:2] }', types, 'true true'],
      ['integerSlice', '{ .integers }', types, '[1,2,3,4]'],
      ['integerSliceIndex', '{ .integers[0] }', types, '1'],
      ['integerSliceIndexReverse', '{ .integers[-2] }', types, '3'],
      ['integerSubSliceFirst2', '{ .integers[0:2] }', types, '1 2'],
      ['integerSubSliceFirst2Alt', '{ .integers[:2] }', types, '1 2'],
      ['integerSubSliceStep2', '{ .integers[:4:2] }', types, '1 3'],
      ['floatSlice', '{ .floats }', types, '[1,2.2,3.3,4]'],
      ['floatSliceIndex', '{ .floats[0] }', types, '1'],
      ['floatSliceIndexReverse', '{ .floats[-2] }', types, '3.3'],
      ['floatSubSliceFirst2', '{ .floats[0:2] }', types, '1 2.2'],
      ['floatSubSliceFirst2Alt', '{ .floats[:2] }', types, '1 2.2'],
      ['floatSubSliceStep2', '{ .floats[:4:2] }', types, '1 3.3'],
      ['stringSlice', '{ .strings }', types, '["one","two","three","four"]'],
      ['stringSliceIndex', '{ .strings[0] }', types, 'one'],
      ['stringSliceIndexReverse', '{ .strings[-2] }', types, 'three'],
      ['stringSubSliceFirst2', '{ .strings[0:2] }', types, 'one two'],
      ['stringSubSliceFirst2Alt', '{ .strings[:2] }', types, 'one two'],
      ['stringSubSliceStep2', '{ .strings[:4:2] }', types, 'one three'],
      ['interfaceSlice', '{ .interfaces }', types, '[true,"one",1,1.1]'],
      ['interfaceSliceIndex', '{ .interfaces[0] }', types, 'true'],
      ['interfaceSliceIndexReverse', '{ .interfaces[-2] }', types, '1'],
      ['interfaceSubSliceFirst2', '{ .interfaces[0:2] }', types, 'true one'],
      ['interfaceSubSliceFirst2Alt', '{ .interfaces[:2] }', types, 'true one'],
      ['interfaceSubSliceStep2', '{ .interfaces[:4:2] }', types, 'true 1'],
      ['mapSlice', '{ .maps }', types, '[{"name":"one","value":1},{"name":"two","value":2.02},{"name":"three","value":3.03},{"name":"four","value":4.04}]'],
      ['mapSliceIndex', '{ .maps[0] }', types, '{"name":"one","value":1}'],
      ['mapSliceIndexReverse', '{ .maps[-2] }', types, '{"name":"three","value":3.03}'],
      ['mapSubSliceFirst2', '{ .maps[0:2] }', types, '{"name":"one","value":1} {"name":"two","value":2.02}'],
      ['mapSubSliceFirst2Alt', '{ .maps[:2] }', types, '{"name":"one","value":1} {"name":"two","value":2.02}'],
      ['mapSubSliceStepOdd', '{ .maps[::2] }', types, '{"name":"one","value":1} {"name":"three","value":3.03}'],
      ['mapSubSliceStepEven', '{ .maps[1::2] }', types, '{"name":"two","value":2.02} {"name":"four","value":4.04}'],
      // struct order (name, value, type) upstream; a decoded object's keys print sorted
      ['structSliceIndex', '{ .structs[0] }', types, '{"name":"one","type":"integer","value":1}'],
      ['structSubSliceStepEven', '{ .structs[1::2] }', types, '{"name":"two","type":"float","value":2.002} {"name":"four","type":"float","value":4.004}'],
    ],
    false,
  );
});

describe('TestStructInput', () => {
  const storeData: JsonPathValue = {
    Name: 'jsonpath',
    Book: [
      { Category: 'reference', Author: 'Nigel Rees', Title: 'Sayings of the Centurey', Price: 8.95 },
      { Category: 'fiction', Author: 'Evelyn Waugh', Title: 'Sword of Honour', Price: 12.99 },
      { Category: 'fiction', Author: 'Herman Melville', Title: 'Moby Dick', Price: 8.99 },
    ],
    Bicycle: [
      { Color: 'red', Price: 19.95, IsNew: true },
      { Color: 'green', Price: 20.01, IsNew: false },
    ],
    Labels: { engieer: 10, 'web/html': 15, 'k8s-app': 20 },
    Employees: { jason: 'manager', dan: 'clerk' },
  };
  run(
    [
      ['plain', 'hello jsonpath', null, 'hello jsonpath'],
      ['recursive', '{..}', [1, 2, 3], '[1,2,3]'],
      ['filter', '{[?(@<5)]}', [2, 6, 3, 7], '2 3'],
      ['quote', '{"{"}', null, '{'],
      ['union', '{[1,3,4]}', [0, 1, 2, 3, 4], '1 3 4'],
      ['array', '{[0:2]}', ['Monday', 'Tudesday'], 'Monday Tudesday'],
      ['variable', 'hello {.Name}', storeData, 'hello jsonpath'],
      ['dict/', '{$.Labels.web/html}', storeData, '15'],
      ['dict/', '{$.Employees.jason}', storeData, 'manager'],
      ['dict/', '{$.Employees.dan}', storeData, 'clerk'],
      ['dict-', '{.Labels.k8s-app}', storeData, '20'],
      ['nest', '{.Bicycle[*].Color}', storeData, 'red green'],
      ['allarray', '{.Book[*].Author}', storeData, 'Nigel Rees Evelyn Waugh Herman Melville'],
      ['allfields', '{range .Bicycle[*]}{ "{" }{ @.* }{ "} " }{end}', storeData, '{red 19.95 true} {green 20.01 false} '],
      ['recurfields', '{..Price}', storeData, '8.95 12.99 8.99 19.95 20.01'],
      ['recurdotfields', '{...Price}', storeData, '8.95 12.99 8.99 19.95 20.01'],
      ['allstructsSlice', '{.Bicycle}', storeData, '[{"Color":"red","IsNew":true,"Price":19.95},{"Color":"green","IsNew":false,"Price":20.01}]'],
      ['allstructs', '{range .Bicycle[*]}{ @ }{ " " }{end}', storeData, '{"Color":"red","IsNew":true,"Price":19.95} {"Color":"green","IsNew":false,"Price":20.01} '],
      ['lastarray', '{.Book[-1:]}', storeData, '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}'],
      ['recurarray', '{..Book[2]}', storeData, '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}'],
      ['bool', '{.Bicycle[?(@.IsNew==true)]}', storeData, '{"Color":"red","IsNew":true,"Price":19.95}'],
    ],
    false,
  );
  it('superrecurfields does not parse', () => {
    expect(() => parseJsonPath('{............................................................Price}')).toThrow('invalid multiple recursive descent');
  });
  describe('missing keys allowed', () => {
    run(
      [
        ['nonexistent field', '{.hello}', storeData, ''],
        ['nonexistent field 2', 'before-{.hello}after', storeData, 'before-after'],
      ],
      true,
    );
  });
  describe('failures', () => {
    run(
      [
        ['invalid identifier', '{hello}', storeData, fails('unrecognized identifier hello')],
        ['nonexistent field', '{.hello}', storeData, fails('hello is not found')],
        // upstream's input is a map[string]int; decoded JSON is map[string]interface {}
        ['invalid array', '{.Labels[0]}', storeData, fails('map[string]interface {} is not array or slice')],
        ['invalid filter operator', '{.Book[?(@.Price<>10)]}', storeData, fails('unrecognized filter operator <>')],
        ['redundant end', '{range .Labels.*}{@}{end}{end}', storeData, fails('not in range, nothing to end')],
      ],
      false,
    );
  });
});

describe('TestJSONInput', () => {
  const points: JsonPathValue = [
    { id: 'i1', x: 4, y: -5 },
    { id: 'i2', x: -2, y: -5, z: 1 },
    { id: 'i3', x: 8, y: 3 },
    { id: 'i4', x: -6, y: -1 },
    { id: 'i5', x: 0, y: 2, z: 1 },
    { id: 'i6', x: 1, y: 4 },
    { id: 'i7', x: null, y: 4 },
  ];
  run(
    [
      ['exists filter', '{[?(@.z)].id}', points, 'i2 i5'],
      ['bracket key', "{[0]['id']}", points, 'i1'],
      ['nil value', "{[-1]['x']}", points, 'null'],
    ],
    false,
  );
});

const nodesData: JsonPathValue = {
  kind: 'List',
  items: [
    {
      kind: 'None',
      metadata: { name: '127.0.0.1', labels: { 'kubernetes.io/hostname': '127.0.0.1' } },
      status: { capacity: { cpu: '4' }, ready: true, addresses: [{ type: 'LegacyHostIP', address: '127.0.0.1' }] },
    },
    {
      kind: 'None',
      metadata: { name: '127.0.0.2', labels: { 'kubernetes.io/hostname': '127.0.0.2' } },
      status: {
        capacity: { cpu: '8' },
        ready: false,
        addresses: [
          { type: 'LegacyHostIP', address: '127.0.0.2' },
          { type: 'another', address: '127.0.0.3' },
        ],
      },
    },
  ],
  users: [
    { name: 'myself', user: {} },
    { name: 'e2e', user: { username: 'admin', password: 'secret' } },
  ],
};

describe('TestKubernetes', () => {
  run(
    [
      ['range item', '{range .items[*]}{.metadata.name}, {end}{.kind}', nodesData, '127.0.0.1, 127.0.0.2, List'],
      ['range item with quote', '{range .items[*]}{.metadata.name}{"\\t"}{end}', nodesData, '127.0.0.1\t127.0.0.2\t'],
      ['range addresss', '{.items[*].status.addresses[*].address}', nodesData, '127.0.0.1 127.0.0.2 127.0.0.3'],
      ['double range', '{range .items[*]}{range .status.addresses[*]}{.address}, {end}{end}', nodesData, '127.0.0.1, 127.0.0.2, 127.0.0.3, '],
      ['item name', '{.items[*].metadata.name}', nodesData, '127.0.0.1 127.0.0.2'],
      ['union nodes capacity', "{.items[*]['metadata.name', 'status.capacity']}", nodesData, '127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}'],
      ['range nodes capacity', '{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}', nodesData, '[127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] '],
      ['user password', '{.users[?(@.name=="e2e")].user.password}', nodesData, 'secret'],
      ['hostname', '{.items[0].metadata.labels.kubernetes\\.io/hostname}', nodesData, '127.0.0.1'],
      ['hostname filter', '{.items[?(@.metadata.labels.kubernetes\\.io/hostname=="127.0.0.1")].kind}', nodesData, 'None'],
      ['bool item', '{.items[?(@..ready==true)].metadata.name}', nodesData, '127.0.0.1'],
    ],
    false,
  );
  it('recursive name (upstream sorts: map order is random in Go)', () => {
    const out = executeJsonPath(parseJsonPath('{..name}'), nodesData);
    expect(out.split(' ').sort()).toEqual(['127.0.0.1', '127.0.0.2', 'e2e', 'myself']);
  });
});

describe('TestEmptyRange', () => {
  const empty: JsonPathValue = { items: [] };
  run(
    [
      ['empty range', '{range .items[*]}{.metadata.name}{end}', empty, ''],
      ['empty nested range', '{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}', empty, ''],
    ],
    true,
  );
});

describe('TestNestedRanges', () => {
  const another = [{ name: 'value1' }, { name: 'value2' }];
  const data: JsonPathValue = {
    items: [
      { metadata: { name: 'pod1' }, spec: { containers: [{ name: 'foo', another }, { name: 'bar', another }] } },
      { metadata: { name: 'pod2' }, spec: { containers: [{ name: 'baz', another }] } },
    ],
  };
  run(
    [
      [
        'nested range with a trailing newline',
        '{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}',
        data,
        'pod1:foo,bar,+pod2:baz,+',
      ],
      [
        'nested range with a trailing character within another nested range with a trailing newline',
        '{range .items[*]}{.metadata.name}{"~"}{range @.spec.containers[*]}{.name}{":"}{range @.another[*]}{.name}{","}{end}{"+"}{end}{"#"}{end}',
        data,
        'pod1~foo:value1,value2,+bar:value1,value2,+#pod2~baz:value1,value2,+#',
      ],
      [
        'two nested ranges at the same level with a trailing newline',
        '{range .items[*]}{.metadata.name}{"\\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\\n"}{end}',
        data,
        'pod1\tfoo bar \tfoo bar \npod2\tbaz \tbaz \n',
      ],
    ],
    false,
  );
});

describe('TestFilterPartialMatchesSometimesMissingAnnotations', () => {
  const pod = (name: string, color?: string): JsonPathValue => ({ kind: 'Pod', metadata: color ? { name, annotations: { color } } : { name } });
  const data: JsonPathValue = { kind: 'List', items: [pod('pod1', 'blue'), pod('pod2'), pod('pod3', 'green'), pod('pod4', 'blue')] };
  const t = '{.items[?(@.metadata.annotations.color=="blue")].metadata.name}';
  describe('tolerating missing keys', () => run([['subset', t, data, 'pod1 pod4']], true));
  describe('not tolerating them', () => run([['error', t, data, fails('annotations is not found')]], false));
});

const containers = (n: number): JsonPathValue => ({
  apiVersion: 'v1',
  kind: 'Pod',
  spec: { containers: Array.from({ length: n }, (_, i) => ({ image: 'radial/busyboxplus:curl', name: `fake${i}` })) },
});

describe('TestNegativeIndex', () => {
  const data = containers(4);
  run(
    [
      ['containers[0]', '{.spec.containers[0].name}', data, 'fake0'],
      ['containers[0:0]', '{.spec.containers[0:0].name}', data, ''],
      ['containers[0:-1]', '{.spec.containers[0:-1].name}', data, 'fake0 fake1 fake2'],
      ['containers[-1:0]', '{.spec.containers[-1:0].name}', data, fails('starting index 3 is greater than ending index 0')],
      ['containers[-1]', '{.spec.containers[-1].name}', data, 'fake3'],
      ['containers[-1:]', '{.spec.containers[-1:].name}', data, 'fake3'],
      ['containers[-2]', '{.spec.containers[-2].name}', data, 'fake2'],
      ['containers[-2:]', '{.spec.containers[-2:].name}', data, 'fake2 fake3'],
      ['containers[-3]', '{.spec.containers[-3].name}', data, 'fake1'],
      ['containers[-4]', '{.spec.containers[-4].name}', data, 'fake0'],
      ['containers[-4:]', '{.spec.containers[-4:].name}', data, 'fake0 fake1 fake2 fake3'],
      ['containers[-5]', '{.spec.containers[-5].name}', data, fails('array index out of bounds: index -1, length 4')],
      ['containers[5:5]', '{.spec.containers[5:5].name}', data, ''],
      ['containers[-5:-5]', '{.spec.containers[-5:-5].name}', data, ''],
      ['containers[3:1]', '{.spec.containers[3:1].name}', data, fails('starting index 3 is greater than ending index 1')],
      ['containers[-1:-2]', '{.spec.containers[-1:-2].name}', data, fails('starting index 3 is greater than ending index 2')],
      // Beyond upstream's table
      ['containers[4]', '{.spec.containers[4].name}', data, fails('array index out of bounds: index 4, length 4')],
      ['containers[0:9]', '{.spec.containers[0:9].name}', data, fails('array index out of bounds: index 8, length 4')],
    ],
    false,
  );
});

describe('TestRunningPodsJSONPathOutput', () => {
  const running = (name: string): JsonPathValue => ({ kind: 'Pod', metadata: { name }, status: { phase: 'Running' } });
  const data: JsonPathValue = { kind: 'List', items: [running('pod1'), running('pod2'), running('pod3'), { resourceVersion: '' }] };
  run(
    [['range over pods without selecting the last one', '{range .items[?(.status.phase=="Running")]}{.metadata.name}{" is Running\\n"}{end}', data, 'pod1 is Running\npod2 is Running\npod3 is Running\n']],
    true,
  );
});

describe('TestStep', () => {
  const data = containers(6);
  run(
    [
      ['containers[0:]', '{.spec.containers[0:].name}', data, 'fake0 fake1 fake2 fake3 fake4 fake5'],
      ['containers[0:6:]', '{.spec.containers[0:6:].name}', data, 'fake0 fake1 fake2 fake3 fake4 fake5'],
      ['containers[0:6:1]', '{.spec.containers[0:6:1].name}', data, 'fake0 fake1 fake2 fake3 fake4 fake5'],
      ['containers[0:6:0]', '{.spec.containers[0:6:0].name}', data, fails('step must be > 0')],
      ['containers[0:6:-1]', '{.spec.containers[0:6:-1].name}', data, fails('step must be > 0')],
      ['containers[1:4:2]', '{.spec.containers[1:4:2].name}', data, 'fake1 fake3'],
      ['containers[1:4:3]', '{.spec.containers[1:4:3].name}', data, 'fake1'],
      ['containers[1:4:4]', '{.spec.containers[1:4:4].name}', data, 'fake1'],
      ['containers[0:6:2]', '{.spec.containers[0:6:2].name}', data, 'fake0 fake2 fake4'],
      ['containers[0:6:3]', '{.spec.containers[0:6:3].name}', data, 'fake0 fake3'],
      ['containers[0:6:5]', '{.spec.containers[0:6:5].name}', data, 'fake0 fake5'],
      ['containers[0:6:6]', '{.spec.containers[0:6:6].name}', data, 'fake0'],
    ],
    false,
  );
});

describe('filters, printing and bounds beyond the upstream tables', () => {
  const conditions: JsonPathValue = {
    status: {
      conditions: [
        { type: 'Ready', status: 'True', priority: 2, weight: 0.5 },
        { type: 'Synced', status: 'False', priority: 7, weight: 1.5 },
      ],
    },
  };
  run(
    [
      ['== on strings', '{.status.conditions[?(@.type=="Ready")].status}', conditions, 'True'],
      ['!= on strings', "{.status.conditions[?(@.type!='Ready')].type}", conditions, 'Synced'],
      ['< on integers', '{.status.conditions[?(@.priority<5)].type}', conditions, 'Ready'],
      ['>= on integers', '{.status.conditions[?(@.priority>=7)].type}', conditions, 'Synced'],
      ['<= on floats', '{.status.conditions[?(@.weight<=0.5)].type}', conditions, 'Ready'],
      ['> on floats', '{.status.conditions[?(@.weight>1.0)].type}', conditions, 'Synced'],
      ['string order is byte order', '{.status.conditions[?(@.type>"S")].type}', conditions, 'Synced'],
      // text/template's comparisons: an int64 and a float64 do not compare
      ['int against float', '{.status.conditions[?(@.priority<5.0)].type}', conditions, fails('incompatible types for comparison')],
      ['bool ordering', '{[?(@<true)]}', [true], fails('invalid type for comparison')],
      ['null does not compare', '{[?(@.a==1)]}', [{ a: null }], fails('invalid type for comparison')],
      ['a map does not compare', '{[?(@.a==1)]}', [{ a: {} }], fails('invalid type for comparison')],
      ['more than one left value', '{[?(@.a[*]==1)]}', [{ a: [1, 2] }], fails('can only compare one element at a time')],
      ['filtering a map', '{.status[?(@.a)]}', conditions, fails('map[conditions:[map[priority:2 status:True type:Ready weight:0.5] map[priority:7 status:False type:Synced weight:1.5]]] is not array or slice and cannot be filtered')],
      ['filtering null', '{.a[?(@.b)]}', { a: null }, fails('<nil> is not array or slice and cannot be filtered')],
      // an exists filter counts the values a failing step handed back (evalArray returns its input)
      ['exists over a failing index', '{[?(@.a[0])].n}', [{ a: { x: 1 }, n: 'kept' }, { n: 'dropped' }], 'kept'],
      ['wildcard over a string gives its bytes', '{.s.*}', { s: 'aé' }, '97 195 169'],
      ['recursive lists containers only', '{..}', { a: 'xy', b: [], c: { d: 1 } }, '{"a":"xy","b":[],"c":{"d":1}} xy {"d":1}'],
      ['JSON escapes as Go', '{.m}', { m: { b: '<&>', a: 1.5e-7 } }, '{"a":1.5e-7,"b":"\\u003c\\u0026\\u003e"}'],
      ['floats print as %v', '{.f}', { f: 1234567.5 }, '1.2345675e+06'],
      ['empty field name is a missing key', '{.}', { a: 1 }, fails(' is not found')],
      ['$ is the whole object', '{$}', { a: 1 }, '{"a":1}'],
      ['prototype keys are not fields', '{.constructor}', {}, fails('constructor is not found')],
      ['string is not a list', '{.s[0]}', { s: 'abc' }, fails('string is not array or slice')],
      ['an empty slice stops the whole step (upstream returns early)', '{[*][0:0]}', [[1], [2]], ''],
    ],
    false,
  );

  it('findResults gives one list per template part', () => {
    expect(findResults(parseJsonPath('a{.x}b{.y[*]}'), { x: 1, y: [true, null] })).toEqual([['a'], [1], ['b'], [true, null]]);
    expect(printResults([{ z: 1, a: [2] }, 'x', null])).toBe('{"a":[2],"z":1} x null');
  });

  it('bounds `..` over a deep object and many results by the step budget', () => {
    let deep: JsonPathValue = { leaf: 1 };
    for (let i = 0; i < 50_000; i++) deep = { a: deep };
    expect(() => findResults(parseJsonPath('{..leaf}'), deep, { maxSteps: 10_000 })).toThrow(JsonPathLimitError);
    // walks iteratively: no stack overflow at a depth recursion could not reach
    expect(findResults(parseJsonPath('{..leaf}'), deep)).toEqual([[1]]);
    const wide: JsonPathValue = Array.from({ length: 1000 }, (_, i) => i);
    expect(() => findResults(parseJsonPath(`{[${Array(200).fill('*').join(',')}]}`), wide)).toThrow(JsonPathLimitError);
    expect(() => findResults(parseJsonPath('{range [*]}{range @}{end}{range [*]}{end}{end}'), [wide, wide], { maxSteps: 1000 })).toThrow(JsonPathLimitError);
  });

  it('bounds the printed text', () => {
    let chain: JsonPathValue = { s: 'x'.repeat(100) };
    for (let i = 0; i < 200; i++) chain = { a: chain };
    // every container printed again inside its parent: quadratic text
    expect(() => executeJsonPath(parseJsonPath('{..}'), chain, { maxLength: 100_000 })).toThrow(JsonPathLimitError);
    expect(executeJsonPath(parseJsonPath('{..s}'), chain, { maxLength: 100_000 })).toBe('x'.repeat(100));
  });

  it('limit errors are not swallowed by an exists filter', () => {
    const items = Array.from({ length: 100 }, () => ({ a: Array.from({ length: 100 }, (_, i) => i) }));
    expect(() => findResults(parseJsonPath('{[?(@.a[*])]}'), items, { maxSteps: 500 })).toThrow(JsonPathLimitError);
  });
});
