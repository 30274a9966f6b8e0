import { FieldError, fieldErr, renderFieldError, renderFieldErrorList, renderValue } from './fieldErrors';

describe('renderValue (errors.md §4)', () => {
  test.each<[unknown, string]>([
    ['foo', '"foo"'],
    ['a\u0000b\u0007', '"a\\x00b\\a"'],
    [599, '599'],
    [true, 'true'],
    [null, 'null'],
    [undefined, 'null'],
    [['a', 'b'], '["a","b"]'],
    [['a<b'], '["a\\u003cb"]'],
    [{ k: 1 }, '{"k":1}'],
    [Uint8Array.from([104, 105]), '"aGk="'],
  ])('%j → %s', (v, want) => {
    expect(renderValue(v)).toBe(want);
  });
});

describe('renderFieldError', () => {
  test.each<[FieldError, string]>([
    [fieldErr.required('spec.usages'), 'spec.usages: Required value'],
    [fieldErr.required('metadata.name', 'name or generateName is required'), 'metadata.name: Required value: name or generateName is required'],
    [fieldErr.forbidden('x', 'nope'), 'x: Forbidden: nope'],
    [fieldErr.invalid('spec.expirationSeconds', 599, 'too short'), 'spec.expirationSeconds: Invalid value: 599: too short'],
    [fieldErr.notSupported('f', 'x', ['a', 'b']), 'f: Unsupported value: "x": supported values: "a", "b"'],
    [fieldErr.duplicate('f[1]', 'a'), 'f[1]: Duplicate value: "a"'],
    [fieldErr.tooLong('f', 128), 'f: Too long: may not be more than 128 bytes'],
    [fieldErr.tooLong('f', 1), 'f: Too long: may not be more than 1 byte'],
    [fieldErr.tooLong('f', 1, 'characters'), 'f: Too long: may not be more than 1 character'],
    [fieldErr.tooMany('f', 3, 1), 'f: Too many: 3: must have at most 1 item'],
    [fieldErr.tooMany('f', 3, 2), 'f: Too many: 3: must have at most 2 items'],
    [fieldErr.internal('f', 'boom'), 'f: Internal error: boom'],
  ])('%j', (e, want) => {
    expect(renderFieldError(e)).toBe(want);
  });

  test('lists: one bare, several bracketed, duplicates printed once', () => {
    const a = fieldErr.required('a');
    const b = fieldErr.required('b');
    expect(renderFieldErrorList([a])).toBe('a: Required value');
    expect(renderFieldErrorList([a, b, a])).toBe('[a: Required value, b: Required value]');
    expect(renderFieldErrorList([a, a])).toBe('a: Required value');
  });
});
