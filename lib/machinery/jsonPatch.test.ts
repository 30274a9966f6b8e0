import { ApiError } from './errors';
import { applyJsonPatch, decodeJsonPatch, tryApplyJsonPatch } from './jsonPatch';
import type { JsonValue } from './jsonValue';

const doc = (): JsonValue => ({
  metadata: { name: 'a', labels: { app: 'web' }, annotations: { 'svc.io/x': '1' }, finalizers: ['f1', 'f2'] },
  spec: { usages: ['a', 'b', 'c'], n: null },
});

describe('tryApplyJsonPatch: RFC 6902 operations', () => {
  test.each<[string, unknown[], JsonValue]>([
    ['add member', [{ op: 'add', path: '/metadata/labels/tier', value: 'db' }], { app: 'web', tier: 'db' }],
    ['add replaces existing member', [{ op: 'add', path: '/metadata/labels/app', value: 'x' }], { app: 'x' }],
    ['add with ~1 escape', [{ op: 'add', path: '/metadata/labels/svc.io~1team', value: 't' }], { app: 'web', 'svc.io/team': 't' }],
    ['add with ~0 escape', [{ op: 'add', path: '/metadata/labels/a~0b', value: 't' }], { app: 'web', 'a~b': 't' }],
    ['remove member', [{ op: 'remove', path: '/metadata/labels/app' }], {}],
    ['replace member', [{ op: 'replace', path: '/metadata/labels/app', value: 'api' }], { app: 'api' }],
    ['replace of a missing member adds it (library leniency)', [{ op: 'replace', path: '/metadata/labels/new', value: 'v' }], { app: 'web', new: 'v' }],
    ['add without value adds null (library leniency)', [{ op: 'add', path: '/metadata/labels/n' }], { app: 'web', n: null }],
    ['move member', [{ op: 'move', from: '/metadata/labels/app', path: '/metadata/labels/role' }], { role: 'web' }],
    ['copy member', [{ op: 'copy', from: '/metadata/labels/app', path: '/metadata/labels/role' }], { app: 'web', role: 'web' }],
    ['test then add', [{ op: 'test', path: '/metadata/labels/app', value: 'web' }, { op: 'add', path: '/metadata/labels/ok', value: 'y' }], { app: 'web', ok: 'y' }],
    ['__proto__ is an ordinary key', [{ op: 'add', path: '/metadata/labels/__proto__', value: 'p' }], JSON.parse('{"app":"web","__proto__":"p"}')],
  ])('%s', (_name, ops, labels) => {
    const r = tryApplyJsonPatch(doc(), ops);
    expect(r.ok).toBe(true);
    if (r.ok) expect((r.doc as { metadata: { labels: JsonValue } }).metadata.labels).toEqual(labels);
  });

  test.each<[string, unknown[], JsonValue]>([
    ['append with -', [{ op: 'add', path: '/spec/usages/-', value: 'd' }], ['a', 'b', 'c', 'd']],
    ['insert at 0', [{ op: 'add', path: '/spec/usages/0', value: 'z' }], ['z', 'a', 'b', 'c']],
    ['insert at length', [{ op: 'add', path: '/spec/usages/3', value: 'z' }], ['a', 'b', 'c', 'z']],
    ['insert at -1 (appends, library leniency)', [{ op: 'add', path: '/spec/usages/-1', value: 'z' }], ['a', 'b', 'c', 'z']],
    ['remove index', [{ op: 'remove', path: '/spec/usages/1' }], ['a', 'c']],
    ['remove -1 (last)', [{ op: 'remove', path: '/spec/usages/-1' }], ['a', 'b']],
    ['replace index', [{ op: 'replace', path: '/spec/usages/0', value: 'q' }], ['q', 'b', 'c']],
    ['move within array', [{ op: 'move', from: '/spec/usages/0', path: '/spec/usages/-' }], ['b', 'c', 'a']],
    ['copy within array', [{ op: 'copy', from: '/spec/usages/2', path: '/spec/usages/0' }], ['c', 'a', 'b', 'c']],
    ['test index', [{ op: 'test', path: '/spec/usages/1', value: 'b' }], ['a', 'b', 'c']],
  ])('array: %s', (_name, ops, usages) => {
    const r = tryApplyJsonPatch(doc(), ops);
    expect(r).toEqual({ ok: true, doc: expect.anything() });
    if (r.ok) expect((r.doc as { spec: { usages: JsonValue } }).spec.usages).toEqual(usages);
  });

  test.each<[string, unknown[]]>([
    ['test null against null', [{ op: 'test', path: '/spec/n', value: null }]],
    ['test null against a missing member', [{ op: 'test', path: '/spec/missing', value: null }]],
    ['test whole document', [{ op: 'test', path: '', value: doc() }]],
    ['test object ignoring key order', [{ op: 'test', path: '/metadata/labels', value: { app: 'web' } }]],
    ['empty patch', []],
  ])('passes: %s', (_name, ops) => {
    expect(tryApplyJsonPatch(doc(), ops).ok).toBe(true);
  });

  test('replace the whole document', () => {
    expect(tryApplyJsonPatch(doc(), [{ op: 'replace', path: '', value: { a: 1 } }])).toEqual({ ok: true, doc: { a: 1 } });
  });
});

describe('tryApplyJsonPatch: failures', () => {
  test.each<[string, unknown[], string]>([
    ['failed test', [{ op: 'test', path: '/metadata/labels/app', value: 'db' }], 'testing value /metadata/labels/app failed'],
    ['test of missing member with a value', [{ op: 'test', path: '/metadata/labels/x', value: 'db' }], 'testing value /metadata/labels/x failed'],
    ['test without value', [{ op: 'test', path: '/metadata/labels/app' }], 'testing value /metadata/labels/app failed'],
    ['remove missing member', [{ op: 'remove', path: '/metadata/labels/x' }], 'error in remove: Unable to remove nonexistent key: x'],
    ['remove beyond array', [{ op: 'remove', path: '/spec/usages/3' }], 'error in remove: Unable to access invalid index: 3'],
    ['add beyond array', [{ op: 'add', path: '/spec/usages/5', value: 1 }], 'error in add: Unable to access invalid index: 5'],
    ['add with a bad index', [{ op: 'add', path: '/spec/usages/x', value: 1 }], 'error in add: Unable to access invalid index: x'],
    ['replace beyond array', [{ op: 'replace', path: '/spec/usages/9', value: 1 }], 'replace operation does not apply: doc is missing key: /spec/usages/9'],
    ['missing parent', [{ op: 'add', path: '/status/x', value: 1 }], 'add operation does not apply: doc is missing path: "/status/x"'],
    ['parent is a scalar', [{ op: 'add', path: '/metadata/name/x', value: 1 }], 'add operation does not apply: doc is missing path: "/metadata/name/x"'],
    ['parent is null', [{ op: 'add', path: '/spec/n/x', value: 1 }], 'add operation does not apply: doc is missing path: "/spec/n/x"'],
    ['pointer without leading slash', [{ op: 'add', path: 'metadata', value: 1 }], 'add operation does not apply: doc is missing path: "metadata"'],
    ['add at the root', [{ op: 'add', path: '', value: {} }], 'add operation does not apply: doc is missing path: ""'],
    ['move from missing member', [{ op: 'move', from: '/metadata/x', path: '/metadata/y' }], 'error in move: Unable to remove nonexistent key: x'],
    ['move into its own child', [{ op: 'move', from: '/metadata', path: '/metadata/x' }], 'move operation does not apply: doc is missing destination path: /metadata/x'],
    ['copy to missing parent', [{ op: 'copy', from: '/metadata', path: '/x/y' }], 'copy operation does not apply: doc is missing destination path: /x/y'],
    ['unknown op', [{ op: 'frobnicate', path: '/a' }], 'Unexpected kind: frobnicate'],
    ['missing op', [{ path: '/a' }], 'Unexpected kind: unknown'],
    ['op not an object', [5], 'Unexpected kind: unknown'],
    ['missing path', [{ op: 'add', value: 1 }], 'add operation missing or invalid path'],
    ['replace root with a scalar', [{ op: 'replace', path: '', value: 1 }], 'replace operation value must be object or array'],
  ])('%s', (_name, ops, reason) => {
    expect(tryApplyJsonPatch(doc(), ops)).toEqual({ ok: false, reason });
  });
});

describe('applyJsonPatch', () => {
  test('is atomic: a failing later operation leaves the input untouched', () => {
    const input = doc();
    const before = JSON.stringify(input);
    expect(() =>
      applyJsonPatch(input, [
        { op: 'add', path: '/metadata/labels/x', value: 'y' },
        { op: 'remove', path: '/spec/usages/0' },
        { op: 'test', path: '/metadata/name', value: 'other' },
      ]),
    ).toThrow(ApiError);
    expect(JSON.stringify(input)).toBe(before);
  });

  test('does not alias the input or the operation values', () => {
    const input = doc();
    const value = { nested: ['v'] };
    const out = applyJsonPatch(input, [{ op: 'add', path: '/spec/extra', value }]) as { spec: { extra: { nested: string[] } } };
    out.spec.extra.nested.push('w');
    expect(value.nested).toEqual(['v']);
    expect((input as { spec: Record<string, unknown> }).spec.extra).toBeUndefined();
  });

  test('a failure is the generic 422 with empty details', () => {
    let err: unknown;
    try {
      applyJsonPatch(doc(), [{ op: 'test', path: '/metadata/name', value: 'x' }]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server rejected our request due to an error in our request',
      reason: 'Invalid',
      details: {},
      code: 422,
    });
    expect(Object.keys((err as ApiError).status)).toEqual(['kind', 'apiVersion', 'metadata', 'status', 'message', 'reason', 'details', 'code']);
  });
});

describe('decodeJsonPatch', () => {
  test.each<[string, string, 'Ignore' | 'Warn' | 'Strict', number]>([
    ['array of ops', '[{"op":"add","path":"/a","value":1}]', 'Warn', 1],
    ['null is no operations', 'null', 'Warn', 0],
    ['null elements are kept (and fail when applied)', '[null]', 'Ignore', 1],
    ['empty array', ' [ ] ', 'Strict', 0],
  ])('%s', (_name, body, mode, count) => {
    expect(decodeJsonPatch(body, mode).operations).toHaveLength(count);
  });

  test.each<[string, string, 'Ignore' | 'Warn' | 'Strict', number, string]>([
    ['object body (Warn)', '{"op":"add"}', 'Warn', 400, 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp'],
    ['object body (Ignore)', '{"op":"add"}', 'Ignore', 400, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
    ['syntax error (Warn)', '[{"op":}]', 'Warn', 400, "error decoding patch: invalid character '}' looking for beginning of value"],
    ['syntax error (Ignore)', '[{"op" "add"}]', 'Ignore', 400, "invalid character '\"' after object key"],
    ['empty body', '', 'Ignore', 400, 'unexpected end of JSON input'],
    ['number element (Warn)', '[1]', 'Warn', 400, 'error decoding patch: json: cannot unmarshal number into Go value of type handlers.jsonPatchOp'],
    ['number element (Ignore)', '[1]', 'Ignore', 400, 'json: cannot unmarshal number into Go value of type jsonpatch.Operation'],
    ['op not a string (Warn)', '[{"op":5,"path":"/a"}]', 'Warn', 400, 'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string'],
    ['value out of float64 range (Warn)', '[{"op":"add","path":"/a","value":{"b":[1e400]}}]', 'Warn', 400, 'error decoding patch: json: cannot unmarshal number 1e400 into Go struct field jsonPatchOp.value of type float64'],
    ['nested too deep', `[{"op":"add","path":"/a","value":${'['.repeat(1000)}${']'.repeat(1000)}}]`, 'Ignore', 400, 'the patch is nested more than 1000 levels deep'],
  ])('%s', (_name, body, mode, code, message) => {
    let err: unknown;
    try {
      decodeJsonPatch(body, mode);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(code);
    expect((err as ApiError).status.message).toBe(message);
  });

  test('op not a string passes Ignore (fails later as an unknown op)', () => {
    const { operations } = decodeJsonPatch('[{"op":5,"path":"/a"}]', 'Ignore');
    expect(tryApplyJsonPatch({}, operations)).toEqual({ ok: false, reason: 'Unexpected kind: unknown' });
  });

  test('more than 10000 operations is a 413', () => {
    const body = JSON.stringify(Array.from({ length: 10001 }, () => ({ op: 'test', path: '/a', value: 1 })));
    let err: unknown;
    try {
      decodeJsonPatch(body);
    } catch (e) {
      err = e;
    }
    expect((err as ApiError).code).toBe(413);
    expect((err as ApiError).reason).toBe('RequestEntityTooLarge');
    expect((err as ApiError).status.message).toBe('Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
    expect(decodeJsonPatch(JSON.stringify(Array.from({ length: 10000 }, () => ({})))).operations).toHaveLength(10000);
  });

  test('strict decoding reports unknown and duplicate members', () => {
    expect(decodeJsonPatch('[{"op":"add","path":"/a","value":1,"Op":"x","path":"/b"}]').strictErrors).toEqual([
      'json patch unknown field "[0].Op"',
      'json patch duplicate field "[0].path"',
    ]);
  });

  test('binary input (Buffer) is accepted', () => {
    expect(decodeJsonPatch(Buffer.from('[{"op":"remove","path":"/a"}]')).operations).toEqual([{ op: 'remove', path: '/a' }]);
  });
});
