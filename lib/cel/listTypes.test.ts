import { s, defineObject } from '../api/schema';
import { CelEnvironment } from './environment';

// Spec §4.10.5 with upstream's semantics (apiserver/pkg/cel/common/values_test.go): set and map
// lists compare ignoring order and add as union / merge; the left operand's list type decides.
const Port = defineObject({ name: 'Port', fields: { name: s.string(), port: s.int32(), protocol: s.string() } });
const Spec = defineObject({
  name: 'Spec',
  fields: {
    tags: s.array(s.string(), { listType: 'set' }),
    plain: s.array(s.string()),
    ports: s.array(s.object(() => Port), { listType: 'map', listMapKeys: ['port', 'protocol'] }),
  },
});
const env = new CelEnvironment([{ name: 'self', schema: s.object(() => Spec) }, { name: 'other', schema: s.object(() => Spec) }]);
const self = {
  tags: ['a', 'b', 'c'],
  plain: ['a', 'b'],
  ports: [
    { name: 'http', port: 80, protocol: 'TCP' },
    { name: 'dns', port: 53, protocol: 'UDP' },
  ],
};
const other = {
  tags: ['c', 'a', 'b'],
  plain: ['b', 'a'],
  ports: [
    { name: 'dns', port: 53, protocol: 'UDP' },
    { name: 'http', port: 80, protocol: 'TCP' },
  ],
};

function run(expr: string): unknown {
  const c = env.compile(expr);
  if (c.error !== undefined) throw new Error(c.error);
  const r = c.program.evaluate({ self, other });
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

describe('set and map lists (§4.10.5)', () => {
  it.each<[string, unknown]>([
    ['self.tags == other.tags', true],
    ["self.tags == ['c', 'b', 'a']", true],
    ["self.tags == ['a', 'b']", false],
    ["self.tags == ['a', 'b', 'd']", false],
    ['self.tags != other.tags', false],
    // a plain list on the left compares in order, as upstream (the left operand's Equal)
    ["['c', 'b', 'a'] == self.tags", false],
    ['self.plain == other.plain', false],
    ["self.tags + ['d', 'a']", ['a', 'b', 'c', 'd']],
    ["(self.tags + ['d', 'a']) == ['d', 'c', 'b', 'a']", true],
    ["self.plain + ['a']", ['a', 'b', 'a']],
    ['self.ports == other.ports', true],
    ["self.ports == [other.ports[0], {'name': 'web', 'port': 80, 'protocol': 'TCP'}]", false],
    ["self.ports == [other.ports[0]]", false],
    ["(self.ports + [{'name': 'web', 'port': 80, 'protocol': 'TCP'}]).map(p, p.name)", ['web', 'dns']],
    ["(self.ports + [{'name': 'ssh', 'port': 22, 'protocol': 'TCP'}]).map(p, p.name)", ['http', 'dns', 'ssh']],
    ["self.ports + [{'name': 'web', 'port': 80, 'protocol': 'TCP'}] == [{'name': 'dns', 'port': 53, 'protocol': 'UDP'}, {'name': 'web', 'port': 80, 'protocol': 'TCP'}]", true],
  ])('%s', (expr, want) => {
    expect(run(expr)).toEqual(want);
  });
});
