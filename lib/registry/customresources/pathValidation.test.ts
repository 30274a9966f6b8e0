// The path checks of upstream's TestSelectableFields and ValidateCustomResourceColumnDefinition
// (apiextensions validation_test.go), with upstream's field paths and messages.
import { renderFieldError, type FieldError } from '../../machinery/fieldErrors';
import type { FieldPathSchema } from '../../machinery/jsonpath/validFieldPath';
import { validatePrinterColumnJsonPath, validateSelectableFields, validateSimpleJsonPath } from './pathValidation';

const rendered = (errs: FieldError[]): string[] => errs.map(renderFieldError);

describe('printer column jsonPath', () => {
  const at = 'spec.versions[0].additionalPrinterColumns[1]';
  it.each<[string, string[]]>([
    ['.spec.replicas', []],
    ['.', []],
    [".status.conditions[?(@.type=='Ready')].status", []],
    ['', [`${at}.JSONPath: Required value`]],
    ['spec.replicas', [`${at}.JSONPath: Invalid value: "spec.replicas": must be a simple json path starting with .`]],
  ])('%p', (path, want) => {
    expect(rendered(validatePrinterColumnJsonPath(path, at))).toEqual(want);
  });
  it('validateSimpleJsonPath refuses an empty path itself (scale paths)', () => {
    expect(rendered(validateSimpleJsonPath('', 'spec.subresources.scale.specReplicasPath'))).toEqual(['spec.subresources.scale.specReplicasPath: Invalid value: "": must not be empty']);
  });
});

describe('selectableFields (TestSelectableFields)', () => {
  const list = 'spec.versions[0].selectableFields';
  const schema: FieldPathSchema = {
    type: 'object',
    properties: {
      foo: { type: 'string' },
      obj: { type: 'object', properties: { x: { type: 'string' } } },
      bool: { type: 'boolean' },
      n: { type: 'integer' },
      f: { type: 'number' },
      metadata: { type: 'object', properties: { name: { type: 'string' } } },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
    },
  };
  it.each<[string, string[], string[]]>([
    ['valid', ['.foo', '.bool', '.n', '.obj.x', '.labels.app'], []],
    ['not in the schema', ['.foo', '.xyz'], [`${list}[1].jsonPath: Invalid value: ".xyz": is an invalid path: does not refer to a valid field`]],
    [
      'not a string, boolean or integer',
      ['.foo', '.obj', '.f'],
      [
        `${list}[1].jsonPath: Invalid value: ".obj": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`,
        `${list}[2].jsonPath: Invalid value: ".f": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`,
      ],
    ],
    ['duplicates', ['.foo', '.foo'], [`${list}[1].jsonPath: Duplicate value: ".foo"`]],
    ['metadata', ['.metadata.name'], [`${list}[0].jsonPath: Invalid value: ".metadata.name": must not point to fields in metadata`]],
    ['array notation', [".obj['x']"], [`${list}[0].jsonPath: Invalid value: ".obj['x']": is an invalid path: array notation is not allowed`]],
    ['required', [''], [`${list}[0].jsonPath: Required value`]],
    ['no leading dot', ['foo'], [`${list}[0].jsonPath: Invalid value: "foo": is an invalid path: expected [ or . but got: foo`]],
  ])('%s', (_name, paths, want) => {
    expect(
      rendered(
        validateSelectableFields(
          paths.map((jsonPath) => ({ jsonPath })),
          schema,
          list,
        ),
      ),
    ).toEqual(want);
  });

  it('allows at most 8 unique paths', () => {
    const props = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`a${i + 1}`, { type: 'string' }]));
    const fields = Object.keys(props).map((k) => ({ jsonPath: `.${k}` }));
    expect(rendered(validateSelectableFields(fields, { type: 'object', properties: props }, list))).toEqual([`${list}: Too many: 9: must have at most 8 items`]);
    expect(validateSelectableFields(fields.slice(0, 8), { type: 'object', properties: props }, list)).toEqual([]);
  });

  it('finds nothing without a schema', () => {
    expect(rendered(validateSelectableFields([{ jsonPath: '.foo' }], undefined, list))).toEqual([`${list}[0].jsonPath: Invalid value: ".foo": is an invalid path: does not refer to a valid field`]);
  });
});
