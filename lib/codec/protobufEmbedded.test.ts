// Inline-embedded Go structs (admissionregistration's NamedRuleWithOperations ⊃ RuleWithOperations
// ⊃ Rule): flat in JSON, nested messages in Protobuf, byte for byte as upstream's generated.proto.
import { NamedRuleWithOperationsSchema } from '../api/admissionregistration/matchResources';
import { decodeProtobufObject, encodeProtobufObject } from './protobuf';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const str = (s: string): string => Buffer.from(s).toString('hex');

test('NamedRuleWithOperations: resourceNames = 1, then RuleWithOperations{operations = 1, Rule{1..4} = 2} = 2', () => {
  const obj = { resourceNames: ['a'], operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' };
  const rule = `0a00` + `1202${str('v1')}` + `1a04${str('pods')}` + `2201${str('*')}`; // 15 bytes
  const withOps = `0a06${str('CREATE')}` + `120f${rule}`; // 25 bytes
  const want = `0a01${str('a')}` + `1219${withOps}`;
  const bytes = encodeProtobufObject(obj, NamedRuleWithOperationsSchema);
  expect(hex(bytes)).toBe(want);
  expect(decodeProtobufObject(bytes, NamedRuleWithOperationsSchema)).toEqual(obj);
});

test('the embedded messages are written even when empty (non-pointer structs)', () => {
  expect(hex(encodeProtobufObject({}, NamedRuleWithOperationsSchema))).toBe('1202' + '1200');
});
