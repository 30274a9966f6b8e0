// Upstream's TestValidateFieldPath (apiextensions validation_test.go), on the structural form of
// its schema, plus the selectableFields form (no array notation) and the paths returned.
import { validFieldPath, type FieldPathSchema } from './validFieldPath';

const schema: FieldPathSchema = {
  type: 'object',
  properties: {
    foo: { type: 'object', additionalProperties: { type: 'object', properties: { f1: { type: 'number' } } } },
    a: {
      type: 'object',
      properties: {
        bbb: { type: 'object', properties: { c: { type: 'number' }, '34': { type: 'number' } } },
        'bbb.c': { type: 'object', properties: { 'a-b34': { type: 'number' } } },
      },
    },
    list: { type: 'array' },
  },
};

describe('validFieldPath (TestValidateFieldPath)', () => {
  it.each<[string, string, string]>([
    ['Valid .a', '.a', ''],
    ['Valid .a.b', '.a.bbb', ''],
    ['Valid .foo.f1', '.foo.f1', ''],
    ['Invalid map syntax .a.b', ".a['bbb']", ''],
    ["Valid .a['bbb.c']", ".a['bbb.c']", ''],
    ["Valid .a['bbb.c'].a-b34", ".a['bbb.c'].a-b34", ''],
    ["Valid .a['bbb.c']['a-b34']", ".a['bbb.c']['a-b34']", ''],
    ['Valid .a.bbb.c', '.a.bbb.c', ''],
    ['Valid .a.bbb.34', ".a.bbb['34']", ''],
    ['Invalid map key', '.a.foo', 'does not refer to a valid field'],
    ['Malformed map key', '.a.bbb[0]', 'expected single quoted string but got 0'],
    ['number in field names', '.a.bbb.34', ''],
    ['Special field names', ".a.bbb['34']", ''],
    ['Valid .list', '.list', ''],
    ['Invalid .list[1]', '.list[1]', 'expected single quoted string but got 1'],
    ['Unsopported .list.a', '.list.a', 'does not refer to a valid field'],
    ["Unsupported .list['a-b.34']", ".list['a-b.34']", 'does not refer to a valid field'],
    ['Invalid .list.a-b.34', '.list.a-b.34', 'does not refer to a valid field'],
    ['Missing leading dot', 'a', 'expected [ or . but got: a'],
    ['Nonexistent field', '.c', 'does not refer to a valid field'],
    ['Duplicate dots', '.a..b', 'does not refer to a valid field'],
    ['Negative array index', '.list[-1]', 'expected single quoted string but got -1'],
    ['Floating-point array index', '.list[1.0]', 'expected single quoted string but got 1'],
    // beyond upstream's table
    ['trailing dot', '.a.', 'unexpected end of JSON path'],
    ['unclosed bracket', ".a['bbb'", 'unexpected end of JSON path'],
    ['bracket not closed by ]', ".a['bbb'.c", 'expected ] but got .'],
    ['bad escape', ".a['b\\qb']", 'invalid string literal: invalid escape char \\q'],
  ])('%s', (_name, path, errMsg) => {
    const r = validFieldPath(path, schema);
    if (errMsg) expect(r).toEqual({ ok: false, error: errMsg });
    else expect(r.ok).toBe(true);
  });

  it('returns the field path, its root and the schema found', () => {
    const r = validFieldPath(".foo['x.y'].f1", schema);
    expect(r.ok && [r.path.toString(), r.root, r.schema]).toEqual(['foo[x.y].f1', 'foo', { type: 'number' }]);
    const e = validFieldPath(".a['bb\\'b']", { properties: { a: { additionalProperties: { type: 'string' } } } });
    expect(e.ok && [e.path.toString(), e.schema]).toEqual(["a[bb'b]", { type: 'string' }]);
  });

  it('refuses array notation when asked to', () => {
    expect(validFieldPath(".a['bbb']", schema, { allowArrayNotation: false })).toEqual({ ok: false, error: 'array notation is not allowed' });
  });
});
