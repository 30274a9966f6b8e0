import { mediaTypeOf, parseAccept } from './mediaType';
import { jsonMediaType, negotiate, NegotiateOptions, yamlMediaType } from './negotiate';

const table: NegotiateOptions = {
  allowsConversion: (t, m) => m.format === 'json' && t.kind === 'Table' && t.group === 'meta.svc.io' && (t.version === 'v1' || t.version === 'v1beta1'),
};

describe('negotiate', () => {
  it.each<[string | undefined, NegotiateOptions, string | null, Record<string, unknown>]>([
    [undefined, {}, 'application/json', {}],
    ['', {}, 'application/json', {}],
    ['*/*', {}, 'application/json', {}],
    ['application/*', {}, 'application/json', {}],
    ['application/yaml', {}, 'application/yaml', {}],
    ['application/yaml;q=0.5, application/json;q=0.9', {}, 'application/json', {}],
    ['text/html, application/yaml', {}, 'application/yaml', {}],
    ['application/vnd.svc.protobuf, */*', {}, 'application/json', {}],
    ['application/vnd.svc.protobuf', {}, null, {}],
    ['text/plain', {}, null, {}],
    ['application/json;q=0', {}, 'application/json', {}], // q=0 only sorts last upstream
    ['application/json;pretty=1', {}, 'application/json', { pretty: true }],
    ['application/json;stream=watch', {}, 'application/json', { stream: 'watch' }],
    ['application/yaml;stream=watch', {}, null, {}],
    ['application/json;stream=other', {}, null, {}],
    ['application/json;as=Table;g=meta.svc.io;v=v1', {}, null, {}],
    ['application/json;as=Table;v=v1;g=meta.svc.io,application/json', {}, 'application/json', { convert: undefined }],
    ['application/json;as=Table;v=v1;g=meta.svc.io,application/json', table, 'application/json', { convert: { kind: 'Table', group: 'meta.svc.io', version: 'v1' } }],
    ['application/yaml;as=Table;v=v1;g=meta.svc.io, application/yaml', table, 'application/yaml', { convert: undefined }],
    ['application/json;sv=v1', {}, null, {}],
    ['*/*;q=0.1, application/yaml', {}, 'application/yaml', {}],
    ['application/json', { supported: [yamlMediaType, jsonMediaType] }, 'application/json', {}],
  ])('%j', (accept, opts, mediaType, extra) => {
    const r = negotiate(accept, opts);
    expect(r?.mediaType ?? null).toBe(mediaType);
    if (r) expect(r).toMatchObject(Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined)));
    if (r && 'convert' in extra && extra.convert === undefined) expect(r.convert).toBeUndefined();
  });

  it('exposes the matching clause parameters', () => {
    expect(negotiate('application/json;as=Table;g=meta.svc.io;v=v1', table)?.params).toEqual({ as: 'Table', g: 'meta.svc.io', v: 'v1' });
  });
});

describe('parseAccept (goautoneg order)', () => {
  it.each([
    ['*/*, application/json', ['application/json', '*/*']],
    ['application/*, application/yaml', ['application/yaml', 'application/*']],
    ['a/b;q=0.5, c/d', ['c/d', 'a/b']],
    ['a/b;q= 0.9, c/d;q=0.5', ['c/d', 'a/b']], // " 0.9" does not parse in Go: q=0
    ['a/b, bogus, c/d', ['a/b', 'c/d']],
    ['*', ['*/*']],
  ])('%j', (header, order) => expect(parseAccept(header).map((c) => `${c.type}/${c.subType}`)).toEqual(order));
});

describe('mediaTypeOf', () => {
  it.each([
    [undefined, '', {}],
    ['application/json', 'application/json', {}],
    ['Application/YAML; Charset="utf-8"', 'application/yaml', { charset: 'utf-8' }],
    ['application/apply-patch+yaml;x', 'application/apply-patch+yaml', {}],
  ])('%j', (h, mediaType, params) => expect(mediaTypeOf(h)).toEqual({ mediaType, params }));
});
