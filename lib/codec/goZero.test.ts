import type { FieldSchema, ObjectSchema } from '../api/schema';
import { emittedZero, goZero, protobufMapValueZero } from './goZero';

const inner: ObjectSchema = { name: 'test.Inner', fields: { a: { type: 'string' } } };

// Every field kind the schema has, with each rule's value: one table, so a disagreement shows.
describe('zero values by field kind', () => {
  it.each<[string, FieldSchema, unknown, unknown, unknown]>([
    // kind                  field                                                       goZero  emitted protobuf map value
    ['string', { type: 'string' }, '', '', ''],
    ['date-time', { type: 'string', format: 'date-time' }, null, null, null],
    ['micro date-time', { type: 'string', format: 'date-time', micro: true }, null, null, null],
    ['bytes', { type: 'string', format: 'byte' }, null, null, ''],
    ['int32', { type: 'integer', format: 'int32' }, 0, 0, 0],
    ['int64', { type: 'integer', format: 'int64' }, 0, 0, 0],
    ['boolean', { type: 'boolean' }, false, false, false],
    ['struct', { type: 'object', ref: () => inner }, {}, {}, {}],
    ['list', { type: 'array', items: { type: 'string' } }, null, [], []],
    ['map', { type: 'map', values: { type: 'string' } }, null, {}, null],
    ['free-form', { type: 'any' }, null, null, null],
  ])('%s', (_kind, f, zero, emitted, mapValue) => {
    expect(goZero(f)).toEqual(zero);
    expect(emittedZero(f)).toEqual(emitted);
    expect(protobufMapValueZero(f)).toEqual(mapValue);
  });

  it('hands out a fresh struct each time (callers fill it in)', () => {
    const f: FieldSchema = { type: 'object', ref: () => inner };
    expect(goZero(f)).not.toBe(goZero(f));
  });
});
