import { ApiError } from './errors';
import type { JsonValue } from './jsonValue';
import { applyMergePatch, createMergePatch, decodeMergePatch } from './mergePatch';

// RFC 7386 appendix A test cases, plus API-shaped ones.
const rfcCases: [JsonValue, JsonValue, JsonValue][] = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [['a', 'b'], ['c', 'd'], ['c', 'd']],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  [
    { metadata: { labels: { old: 'x', keep: 'y' } } },
    { metadata: { labels: { old: null, new: 'x' } } },
    { metadata: { labels: { keep: 'y', new: 'x' } } },
  ],
  [{ spec: { usages: ['a', 'b'] } }, { spec: { usages: ['c'] } }, { spec: { usages: ['c'] } }],
];

describe('applyMergePatch (RFC 7386)', () => {
  test.each(rfcCases)('%j + %j', (target, patch, want) => {
    const t = JSON.parse(JSON.stringify(target)) as JsonValue;
    expect(applyMergePatch(t, patch)).toEqual(want);
    expect(t).toEqual(target);
  });

  test('the result does not alias the patch', () => {
    const patch = { a: { list: [1] } };
    const out = applyMergePatch({}, patch) as { a: { list: number[] } };
    out.a.list.push(2);
    expect(patch.a.list).toEqual([1]);
  });
});

describe('createMergePatch', () => {
  test.each<[JsonValue, JsonValue, JsonValue]>([
    [{ a: 1 }, { a: 1 }, {}],
    [{ a: 1 }, { a: 2 }, { a: 2 }],
    [{ a: 1, b: 2 }, { a: 1 }, { b: null }],
    [{ a: { x: 1, y: 2 } }, { a: { x: 1, y: 3 } }, { a: { y: 3 } }],
    [{ a: [1, 2] }, { a: [1] }, { a: [1] }],
    [{ a: { x: 1 } }, { a: 'flat' }, { a: 'flat' }],
    [{}, { a: { b: null } }, { a: { b: null } }],
  ])('%j → %j', (original, modified, patch) => {
    expect(createMergePatch(original, modified)).toEqual(patch);
  });

  test.each(rfcCases.filter(([t, , w]) => t !== null && typeof t === 'object' && !Array.isArray(t) && w !== null && typeof w === 'object' && !Array.isArray(w)))(
    'round trip %j → %j',
    (target, _patch, want) => {
      expect(applyMergePatch(target, createMergePatch(target, want))).toEqual(want);
    },
  );
});

describe('decodeMergePatch', () => {
  test.each<[string, 'Ignore' | 'Warn' | 'Strict', JsonValue]>([
    ['{"a":null}', 'Warn', { a: null }],
    ['[1]', 'Ignore', [1]],
    ['{"a":1e-400,"b":1e308}', 'Warn', { a: 0, b: 1e308 }],
  ])('%s (%s)', (body, mode, want) => {
    expect(decodeMergePatch(body, mode)).toEqual(want);
  });

  test.each<[string, 'Ignore' | 'Warn' | 'Strict', string]>([
    ['null', 'Warn', 'Invalid JSON Patch'],
    ['null', 'Ignore', 'Invalid JSON Patch'],
    ['5', 'Ignore', 'Invalid JSON Patch'],
    ['"x"', 'Ignore', 'Invalid JSON Patch'],
    ['{"a":', 'Ignore', 'Invalid JSON Patch'],
    ['{"a":', 'Warn', 'error decoding patch: unexpected end of JSON input'],
    ['[1]', 'Strict', 'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['5', 'Warn', 'error decoding patch: json: cannot unmarshal number into Go value of type map[string]interface {}'],
    ['{"a":tru}', 'Warn', "error decoding patch: invalid character '}' in literal true (expecting 'e')"],
    ['{"a":{"b":1e400}}', 'Warn', 'error decoding patch: json: cannot unmarshal number 1e400 into Go value of type float64'],
    [`{"deep":${'['.repeat(1000)}${']'.repeat(1000)}}`, 'Warn', 'the patch is nested more than 1000 levels deep'],
    [`${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`, 'Ignore', 'the patch is nested more than 1000 levels deep'],
  ])('%s (%s) → 400', (body, mode, message) => {
    let err: unknown;
    try {
      decodeMergePatch(body, mode);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(400);
    expect((err as ApiError).status.message).toBe(message);
  });
});
