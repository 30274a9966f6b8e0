import { ApiError } from './errors';
import {
  FieldSelector,
  FieldSelectorSupport,
  fieldLabelNotSupported,
  metadataOnlyFieldSelectors,
  parseFieldSelector,
  selectedName,
  selectedNamespace,
  validateFieldSelector,
} from './fieldSelector';

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('no error thrown');
}

describe('parseFieldSelector: terms and canonical string (terms sorted)', () => {
  test.each<[string, string, { field: string; operator: string; value: string }[]]>([
    ['', '', []],
    [',', '', []],
    ['metadata.name=a', 'metadata.name=a', [{ field: 'metadata.name', operator: '=', value: 'a' }]],
    ['metadata.name==a', 'metadata.name=a', [{ field: 'metadata.name', operator: '=', value: 'a' }]],
    ['status.phase!=Active', 'status.phase!=Active', [{ field: 'status.phase', operator: '!=', value: 'Active' }]],
    [
      'spec.signerName=b,metadata.name=a',
      'metadata.name=a,spec.signerName=b',
      [
        { field: 'metadata.name', operator: '=', value: 'a' },
        { field: 'spec.signerName', operator: '=', value: 'b' },
      ],
    ],
    ['a=x\\,y', 'a=x\\,y', [{ field: 'a', operator: '=', value: 'x,y' }]],
    ['a=x\\=y', 'a=x\\=y', [{ field: 'a', operator: '=', value: 'x=y' }]],
    ['a=x\\\\y', 'a=x\\\\y', [{ field: 'a', operator: '=', value: 'x\\y' }]],
    ['a=', 'a=', [{ field: 'a', operator: '=', value: '' }]],
    ['a=b,,c=d', 'a=b,c=d', [
      { field: 'a', operator: '=', value: 'b' },
      { field: 'c', operator: '=', value: 'd' },
    ]],
  ])('%j', (input, canonical, reqs) => {
    const sel = parseFieldSelector(input);
    expect(sel.toString()).toBe(canonical);
    expect(sel.requirements).toEqual(reqs);
  });
});

describe('parseFieldSelector: malformed → 400', () => {
  test.each([
    ['abc', "invalid selector: 'abc'; can't understand 'abc'"],
    ['a=b,c', "invalid selector: 'a=b,c'; can't understand 'c'"],
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['a=b\\,c,d=e,f', "invalid selector: 'a=b\\,c,d=e,f'; can't understand 'f'"],
    ['a=x\\y', 'invalid field selector: invalid escape sequence: \\y'],
    ['a=x\\', 'invalid field selector: invalid escape sequence: \\'],
  ])('%j', (input, message) => {
    const e = errorOf(() => parseFieldSelector(input));
    expect(e.code).toBe(400);
    expect(e.reason).toBe('BadRequest');
    expect(e.status.message).toBe(message);
  });
});

describe('FieldSelector.matches (missing fields read as "")', () => {
  test.each<[string, Record<string, string>, boolean]>([
    ['', {}, true],
    ['metadata.name=a', { 'metadata.name': 'a' }, true],
    ['metadata.name=a', { 'metadata.name': 'b' }, false],
    ['metadata.name!=a', { 'metadata.name': 'b' }, true],
    ['status.phase!=Active', {}, true],
    ['status.phase=', {}, true],
    ['metadata.name=a,metadata.namespace=n', { 'metadata.name': 'a', 'metadata.namespace': 'n' }, true],
    ['metadata.name=a,metadata.namespace=n', { 'metadata.name': 'a', 'metadata.namespace': 'm' }, false],
    ['constructor=', {}, true],
  ])('%j on %j → %s', (sel, fields, want) => {
    expect(parseFieldSelector(sel).matches(fields)).toBe(want);
  });
});

const csrFields: FieldSelectorSupport = { fields: ['metadata.name', 'spec.signerName'], unsupported: fieldLabelNotSupported };

describe('validateFieldSelector: per-resource unsupported-field texts', () => {
  test.each<[string, FieldSelectorSupport, string | undefined]>([
    ['metadata.name=a,spec.signerName=x', csrFields, undefined],
    ['spec.foo=a', csrFields, 'field label not supported: spec.foo'],
    ['z=1,spec.foo=a', csrFields, 'field label not supported: spec.foo'],
    ['metadata.namespace=a', metadataOnlyFieldSelectors, undefined],
    ['spec.x=a', metadataOnlyFieldSelectors, '"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"'],
  ])('%j', (sel, support, message) => {
    const parsed = parseFieldSelector(sel);
    if (message === undefined) expect(validateFieldSelector(parsed, support)).toBe(parsed);
    else {
      const e = errorOf(() => validateFieldSelector(parsed, support));
      expect(e.code).toBe(400);
      expect(e.status.message).toBe(message);
    }
  });
});

describe('exact name / namespace requirements', () => {
  test.each<[string, string | undefined, string | undefined]>([
    ['metadata.name=a', 'a', undefined],
    ['metadata.name==a,metadata.namespace=ns', 'a', 'ns'],
    ['metadata.name!=a', undefined, undefined],
    ['metadata.namespace=ns', undefined, 'ns'],
    ['', undefined, undefined],
  ])('%j → name %j, namespace %j', (sel, name, ns) => {
    const parsed = parseFieldSelector(sel);
    expect(selectedName(parsed)).toBe(name);
    expect(selectedNamespace(parsed)).toBe(ns);
  });

  test('and() adds a name term', () => {
    expect(FieldSelector.everything().and('metadata.name', 'a=b').toString()).toBe('metadata.name=a\\=b');
  });
});
