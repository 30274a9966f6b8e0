import { s, defineObject } from '../api/schema';
import { TypedChecker } from './typing';

const Meta = defineObject({ name: 'io.svc.Meta', fields: { name: s.string(), namespace: s.string(), labels: s.map(s.string()), generation: s.int64(), creationTimestamp: s.time() } });
const Container = defineObject({ name: 'io.svc.Container', fields: { name: s.string(), image: s.string() } });
const Obj = defineObject({
  name: 'io.svc.Thing',
  fields: { metadata: s.object(() => Meta), foo: s.string(), count: s.int32(), data: s.bytes(), containers: s.array(s.object(() => Container)), raw: { type: 'any' } },
});

describe('TypedChecker (schema typing)', () => {
  const checker = new TypedChecker([{ name: 'object', schema: Obj }, { name: 'authorizer', type: 'kubernetes.authorization.Authorizer' }, { name: 'params' }]);
  it.each<[string, string]>([
    ['object.foo', 'string'],
    ['object.count + 1', 'int'],
    ['object.metadata.namespace', 'string'],
    ['object.metadata.labels["a"]', 'string'],
    ['object.metadata.creationTimestamp', 'google.protobuf.Timestamp'],
    ['object.data', 'bytes'],
    ['object.containers.map(c, c.image)', 'list<string>'],
    ['object.raw.anything.goes', 'dyn'],
    ['params.whatever', 'dyn'],
    ["authorizer.group('').resource('pods').check('get').allowed()", 'bool'],
    ['quantity("1").isInteger()', 'bool'],
  ])('%s: %s', (expr, type) => {
    expect(checker.check(expr)).toEqual({ type });
  });

  it.each<[string, string]>([
    ['object.fo', "ERROR: <input>:1:7: undefined field 'fo'\n | object.fo\n | ......^"],
    ['object.containers.all(c, c.imag != "")', "ERROR: <input>:1:27: undefined field 'imag'\n | object.containers.all(c, c.imag != \"\")\n | ..........................^"],
    ['object.count == "x"', "ERROR: <input>:1:14: found no matching overload for '_==_' applied to '(int, string)'\n | object.count == \"x\"\n | .............^"],
    ['object.foo.startsWith(1)', "ERROR: <input>:1:22: found no matching overload for 'startsWith' applied to 'string.(int)'\n | object.foo.startsWith(1)\n | .....................^"],
    ['nope == 1', "ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')\n | nope == 1\n | ^"],
  ])('%s', (expr, issue) => {
    expect(checker.check(expr)).toEqual({ issue });
  });

  it('reports an unknown method on a library type as cel-go', () => {
    expect(checker.check('authorizer.allowed()').issue).toContain("found no matching overload for 'allowed' applied to 'kubernetes.authorization.Authorizer");
  });

  it('types two schemas of the same name apart', () => {
    const A = defineObject({ name: 'Same', fields: { a: s.string() } });
    const B = defineObject({ name: 'Same', fields: { b: s.int64() } });
    const c = new TypedChecker([{ name: 'x', schema: A }, { name: 'y', schema: B }]);
    expect(c.check('x.a + string(y.b)')).toEqual({ type: 'string' });
  });

  it('declares variables from checked types', () => {
    const c = new TypedChecker([{ name: 'object', schema: Obj }]);
    c.declare('variables', c.declareObjectType({ name: 'string', works: 'bool' }));
    expect(c.check('variables.works && variables.name == object.foo')).toEqual({ type: 'bool' });
    expect(c.check('variables.nonExisting').issue).toContain("undefined field 'nonExisting'");
    expect(c.check('variables.name == object.count').issue).toContain("found no matching overload for '_==_' applied to '(string, int)'");
  });
});

describe('TypedChecker on custom-resource fields', () => {
  const CR = defineObject({ name: 'com.example.v1.W', unstructured: true, fields: { ratio: s.number(), port: s.intOrString(), free: s.any({ untyped: true }) } });
  const checker = new TypedChecker([{ name: 'self', schema: CR }]);
  it.each<[string, string]>([
    ['self.ratio', 'double'],
    ['self.ratio * 2.0', 'double'],
    ['self.port', 'dyn'],
    ['self.free.x', 'dyn'],
  ])('%s: %s', (expr, type) => {
    expect(checker.check(expr)).toEqual({ type });
  });

  it('a number is not an int', () => {
    expect(checker.check('self.ratio + 1').issue).toContain("found no matching overload for '_+_' applied to '(double, int)'");
  });
});
