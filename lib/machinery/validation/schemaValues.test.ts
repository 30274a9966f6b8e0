import type { FieldSchema, ObjectSchema, ValueRules } from '../../api/schema';
import { defineObject, s } from '../../api/schema';
import { renderFieldError } from '../fieldErrors';
import { LinearRegex } from '../linearRegex';
import { validateSchemaValues } from './schemaValues';

/** A root with one field `spec.x` of the given schema (and `spec` required). */
function rootWith(x: FieldSchema, spec: Partial<ObjectSchema> = {}): ObjectSchema {
  const Spec = defineObject({ name: 'com.example.v1.W.spec', unstructured: true, fields: { x }, ...spec });
  return defineObject({ name: 'com.example.v1.W', unstructured: true, rules: { requiredProperties: ['spec'] }, fields: { spec: s.object(() => Spec) } });
}

const errors = (x: FieldSchema, value: unknown, spec: Partial<ObjectSchema> = {}): string[] =>
  validateSchemaValues(rootWith(x, spec), { spec: value === undefined ? {} : { x: value } }).map(renderFieldError);

describe('validateSchemaValues', () => {
  it.each<[string, FieldSchema, unknown, string[]]>([
    ['integer ok', s.int64(), 3, []],
    ['integer given a string', s.int64(), 'three', ['spec.x: Invalid value: "string": spec.x in body must be of type integer: "string"']],
    [
      'integer given a fraction',
      s.int64(),
      1.5,
      ['spec.x: Invalid value: "number": spec.x in body must be of type integer: "number"', '<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.x'],
    ],
    ['int64 format given a fraction', s.int64({ validationFormat: 'int64' }), 1.5, ['spec.x: Invalid value: "double": spec.x in body must be of type int64: "double"', '<nil>: Invalid value: "": Checked value must be of type integer with format int64 in spec.x']],
    ['int32 out of range', s.int64({ validationFormat: 'int32' }), 2 ** 31, ['<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.x']],
    ['number takes an integer', s.number(), 2, []],
    ['number takes a fraction', s.number(), 2.5, []],
    ['boolean given an object', s.boolean(), { a: 1 }, ['spec.x: Invalid value: "object": spec.x in body must be of type boolean: "object"']],
    ['array given a string', s.array(s.string()), 'a', ['spec.x: Invalid value: "string": spec.x in body must be of type array: "string"']],
    ['null where not nullable', s.string(), null, ['spec.x: Invalid value: "null": spec.x in body must be of type string: "null"']],
    ['null where nullable', s.string({ nullable: true }), null, []],
    ['enum', s.string({ enum: ['a', 'b'] }), 'c', ['spec.x: Unsupported value: "c": supported values: "a", "b"']],
    ['enum of numbers', s.int64({ enum: [1, 2] }), 3, ['spec.x: Unsupported value: 3: supported values: "1", "2"']],
    ['enum holding null', s.string({ nullable: true, enum: ['a', null] }), null, []],
    ['maxLength counts characters', s.string({ maxLength: 2 }), 'ééé', ['spec.x: Too long: may not be more than 2 bytes']],
    ['maxLength ok', s.string({ maxLength: 3 }), 'ééé', []],
    ['minLength', s.string({ minLength: 2 }), 'a', ['spec.x: Invalid value: "a": spec.x in body should be at least 2 chars long']],
    ['pattern', s.string({ pattern: '^[a-z]+$' }), 'A1', ["spec.x: Invalid value: \"A1\": spec.x in body should match '^[a-z]+$'"]],
    ['only the first string failure', s.string({ minLength: 3, pattern: '^b' }), 'a', ['spec.x: Invalid value: "a": spec.x in body should be at least 3 chars long']],
    ['maximum', s.int64({ maximum: 10 }), 11, ['spec.x: Invalid value: 11: spec.x in body should be less than or equal to 10']],
    ['exclusive maximum', s.int64({ maximum: 10, exclusiveMaximum: true }), 10, ['spec.x: Invalid value: 10: spec.x in body should be less than 10']],
    ['minimum of a float prints %g', s.number({ minimum: 1000000 }), 0.5, ['spec.x: Invalid value: 0.5: spec.x in body should be greater than or equal to 1e+06']],
    ['exclusive minimum', s.number({ minimum: 0, exclusiveMinimum: true }), 0, ['spec.x: Invalid value: 0: spec.x in body should be greater than 0']],
    ['multipleOf', s.int64({ multipleOf: 5 }), 12, ['spec.x: Invalid value: 12: spec.x in body should be a multiple of 5']],
    ['multipleOf a fraction', s.number({ multipleOf: 0.5 }), 1.5, []],
    ['multipleOf then minimum then maximum', s.int64({ multipleOf: 5, minimum: 20, maximum: 0 }), 12, [
      'spec.x: Invalid value: 12: spec.x in body should be a multiple of 5',
      'spec.x: Invalid value: 12: spec.x in body should be greater than or equal to 20',
      'spec.x: Invalid value: 12: spec.x in body should be less than or equal to 0',
    ]],
    ['minItems', s.array(s.string(), { minItems: 2 }), ['a'], ['spec.x: Invalid value: 1: spec.x in body should have at least 2 items']],
    ['maxItems', s.array(s.string(), { maxItems: 1 }), ['a', 'b'], ['spec.x: Too many: 2: must have at most 1 item']],
    ['uniqueItems', s.array(s.string(), { uniqueItems: true }), ['a', 'a'], ['spec.x: Invalid value: "": spec.x in body shouldn\'t contain duplicates']],
    ['items, then the array keywords', s.array(s.int64(), { minItems: 3 }), [1, 'b'], [
      'spec.x[1]: Invalid value: "string": spec.x[1] in body must be of type integer: "string"',
      'spec.x: Invalid value: 2: spec.x in body should have at least 3 items',
    ]],
    ['map values', s.map(s.int64()), { a: 1, b: 'x' }, ['spec.x.b: Invalid value: "string": spec.x.b in body must be of type integer: "string"']],
    ['minProperties', s.map(s.string(), { minProperties: 2 }), { a: 'x' }, ['spec.x: Invalid value: 1: spec.x in body should have at least 2 properties']],
    ['maxProperties', s.map(s.string(), { maxProperties: 1 }), { a: 'x', b: 'y' }, ['spec.x: Too many: 2: must have at most 1 item']],
    ['required in a map', s.map(s.string(), { requiredProperties: ['k'] }), {}, ['spec.x.k: Required value']],
    ['int-or-string takes either', s.intOrString(), 'http', []],
    ['int-or-string given a bool', s.intOrString(), true, ['spec.x: Invalid value: "boolean": spec.x in body must be of type integer,string: "boolean"']],
    ['int-or-string given a fraction', s.intOrString(), 1.5, ['spec.x: Invalid value: "number": spec.x in body must be of type integer,string: "number"']],
    ['int-or-string null', s.intOrString(), null, ['spec.x: Invalid value: "null": spec.x in body must be of type integer,string: "null"']],
    ['int-or-string string rules', s.intOrString({ pattern: '^\\d+%$' }), 'x', ["spec.x: Invalid value: \"x\": spec.x in body should match '^\\d+%$'"]],
    ['string format', s.string({ validationFormat: 'uuid' }), 'nope', ['spec.x: Invalid value: "nope": spec.x in body must be of type uuid: "nope"']],
    ['date-time is datetime', s.string({ validationFormat: 'date-time' }), '2026-02-30T10:00:00Z', ['spec.x: Invalid value: "2026-02-30T10:00:00Z": spec.x in body must be of type date-time: "2026-02-30T10:00:00Z"']],
    ['date-time ok', s.string({ validationFormat: 'date-time' }), '2026-02-03T10:00:00.5+01:00', []],
    ['unknown formats are not checked', s.string({ validationFormat: 'k8s-short-name' }), 'NOT OK', []],
    ['a formatted string given a number', s.string({ validationFormat: 'uuid' }), 7, ['spec.x: Invalid value: "int64": spec.x in body must be of type uuid: "int64"']],
    ['an untyped node takes anything', s.any({ untyped: true }), [1, { a: null }], []],
  ])('%s', (_name, x, value, want) => {
    expect(errors(x, value)).toEqual(want);
  });

  it('reports required fields at the root and in objects', () => {
    const schema = rootWith(s.string(), { rules: { requiredProperties: ['x', 'y'] } });
    expect(validateSchemaValues(schema, {}).map(renderFieldError)).toEqual(['spec: Required value']);
    expect(validateSchemaValues(schema, { spec: { x: 'a' } }).map(renderFieldError)).toEqual(['spec.y: Required value']);
  });

  it('reports nested paths with indexes', () => {
    const Item = defineObject({ name: 'i', unstructured: true, rules: { requiredProperties: ['name'] }, fields: { name: s.string({ minLength: 1 }) } });
    expect(errors(s.array(s.object(() => Item)), [{ name: 'a' }, {}, { name: '' }])).toEqual([
      'spec.x[1].name: Required value',
      'spec.x[2].name: Invalid value: "": spec.x[2].name in body should be at least 1 chars long',
    ]);
  });

  describe('junctors', () => {
    const rules = (r: ValueRules): FieldSchema => s.string(r);
    it.each<[string, FieldSchema, unknown, string[]]>([
      ['anyOf passes', rules({ anyOf: [{ maxLength: 1 }, { pattern: '^a' }] }), 'abc', []],
      ['anyOf fails', rules({ anyOf: [{ minLength: 5 }, { pattern: '^b' }] }), 'abc', [
        '<nil>: Invalid value: "": "spec.x" must validate at least one schema (anyOf)',
        'spec.x: Invalid value: "abc": spec.x in body should be at least 5 chars long',
      ]],
      ['oneOf with two valid', rules({ oneOf: [{ minLength: 1 }, { pattern: '^a' }] }), 'abc', ['<nil>: Invalid value: "": "spec.x" must validate one and only one schema (oneOf). Found 2 valid alternatives']],
      ['oneOf with none valid', rules({ oneOf: [{ minLength: 5 }] }), 'abc', [
        '<nil>: Invalid value: "": "spec.x" must validate one and only one schema (oneOf). Found none valid',
        'spec.x: Invalid value: "abc": spec.x in body should be at least 5 chars long',
      ]],
      ['allOf', rules({ allOf: [{ minLength: 1 }, { maxLength: 2 }] }), 'abc', [
        'spec.x: Too long: may not be more than 2 bytes',
        '<nil>: Invalid value: "": "spec.x" must validate all the schemas (allOf)',
      ]],
      ['allOf none valid', rules({ allOf: [{ maxLength: 2 }] }), 'abc', [
        'spec.x: Too long: may not be more than 2 bytes',
        '<nil>: Invalid value: "": "spec.x" must validate all the schemas (allOf). None validated',
      ]],
      ['not', rules({ not: { enum: ['abc'] } }), 'abc', ['<nil>: Invalid value: "": "spec.x" must not validate the schema (not)']],
      ['not passes', rules({ not: { enum: ['x'] } }), 'abc', []],
      [
        'anyOf reports the failure that ran the most checks (here the one that reached into b)',
        s.map(s.string(), { anyOf: [{ requiredProperties: ['a'] }, { properties: { b: { pattern: '^z' } }, requiredProperties: ['b'] }] }),
        { b: 'y' },
        ['<nil>: Invalid value: "": "spec.x" must validate at least one schema (anyOf)', "spec.x.b: Invalid value: \"y\": spec.x.b in body should match '^z'"],
      ],
      [
        'on a tie the first failure is reported',
        s.map(s.string(), { anyOf: [{ requiredProperties: ['a'] }, { requiredProperties: ['b'] }] }),
        {},
        ['<nil>: Invalid value: "": "spec.x" must validate at least one schema (anyOf)', 'spec.x.a: Required value'],
      ],
      [
        'junctor items and map values',
        s.map(s.array(s.string()), { allOf: [{ additionalProperties: { items: { maxLength: 1 } } }] }),
        { k: ['a', 'bb'] },
        ['spec.x.k[1]: Too long: may not be more than 1 byte', '<nil>: Invalid value: "": "spec.x" must validate all the schemas (allOf). None validated'],
      ],
      [
        'a format without a type refuses non-strings',
        s.intOrString({ anyOf: [{ validationFormat: 'uuid' }] }),
        5,
        ['<nil>: Invalid value: "": "spec.x" must validate at least one schema (anyOf)', 'spec.x: Invalid value: "int64": spec.x in body must be of type uuid: "int64"'],
      ],
    ])('%s', (_name, x, value, want) => {
      expect(errors(x, value)).toEqual(want);
    });
  });

  it('compiles a pattern once per schema node', () => {
    const schema = rootWith(s.string({ pattern: '^(a|b)+$' }));
    const compile = jest.spyOn(LinearRegex, 'compile');
    try {
      for (let i = 0; i < 3; i++) expect(validateSchemaValues(schema, { spec: { x: 'abab' } })).toEqual([]);
      expect(compile).toHaveBeenCalledTimes(1);
    } finally {
      compile.mockRestore();
    }
  });

  it('ignores a pattern RE2 refuses (the CRD check reports it)', () => {
    expect(errors(s.string({ pattern: '(?<=a)b' }), 'b')).toEqual([]);
  });
});
