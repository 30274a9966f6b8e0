// JSON literals of the wrong type for each kind of schema field. The first is the swap the brief
// names (a number where a string belongs, a string where a number belongs, …); every literal
// here is one Go's encoding/json refuses for the field's Go type, so a body holding it must fail.
import type { FieldSchema } from '../../../../lib/api';

export function wrongLiterals(field: FieldSchema): string[] {
  switch (field.type) {
    case 'string':
      return ['12345', 'true', '{"a":"b"}', '["x"]', '1e400', '-0.5', '123456789012345678901234567890'];
    case 'integer':
      return [
        '"42"',
        '1.5',
        '1e2',
        '1e400',
        '-1e400',
        '123456789012345678901234567890',
        field.format === 'int32' ? '2147483648' : '9223372036854775808',
        field.format === 'int32' ? '-2147483649' : '-9223372036854775809',
        'true',
        '{}',
        '[]',
        '"abc"',
      ];
    case 'boolean':
      return ['"true"', '1', '0', '"yes"', '{}', '[]'];
    case 'number':
      return ['"1.5"', 'true', '{}', '[]'];
    case 'intOrString':
      return ['true', '{}', '[]', '1.5'];
    case 'object':
      return ['42', '"{}"', '[]', 'true', '[{}]'];
    case 'array':
      return ['42', '"[]"', '{}', 'true', '{"0":"a"}'];
    case 'map':
      return ['42', '"{}"', '[]', 'true', '["a","b"]'];
    case 'any':
      return [];
  }
}
