// A compact JSON list is written straight into one buffer: items kept as text, as stored bytes
// with resourceVersion put back (SplicedJson), shared frozen objects and plain objects alike must
// come out exactly as JSON.stringify of the list writes them.
import { RawJson } from '../codec/rawJson';
import { SplicedJson } from '../codec/splicedJson';
import { builtinStrategies } from '../registry/builtin';
import { buildKindSchemas } from './kindSchemas';
import { encodedListItems, jsonOutput, serialize } from './respond';

test('a compact JSON list of mixed item forms is the JSON of the list', () => {
  const stored = Buffer.from('{"kind":"K","apiVersion":"v1","metadata":{"name":"b"},"x":"ok"}');
  const head = '{"kind":"K","apiVersion":"v1",'.length;
  const offset = stored.indexOf('}');
  const items = [
    new RawJson('{"metadata":{"name":"a","resourceVersion":"1"},"note":"ünïcode ✓"}'),
    new SplicedJson(stored, head, offset, ',"resourceVersion":"2"'),
    Object.freeze({ metadata: { name: 'c', resourceVersion: '3' } }),
    { metadata: { name: 'd', resourceVersion: '4' }, s: 'lone \ud800 surrogate' },
  ];
  const list = { kind: 'KList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items };
  const body = serialize(list, jsonOutput(false));
  const expected = JSON.stringify({ ...list, items: items.map((i) => (i instanceof RawJson || i instanceof SplicedJson ? i.toJSON() : i)) });
  expect(body.toString('utf8')).toBe(expected);
  expect(body.length).toBe(Buffer.byteLength(expected));
  expect(JSON.parse(body.toString('utf8')).items[1]).toEqual({ metadata: { name: 'b', resourceVersion: '2' }, x: 'ok' });
});

test('an empty list and a list without other members', () => {
  expect(serialize({ items: [] }, jsonOutput(false)).toString()).toBe('{"items":[]}');
  expect(serialize({ kind: 'KList', items: [new RawJson('{}')] }, jsonOutput(false)).toString()).toBe('{"kind":"KList","items":[{}]}');
});

test('Protobuf and CBOR lists write kept item encodings exactly as they would encode the items', () => {
  const schemas = buildKindSchemas(
    builtinStrategies.map((s) => s.resource),
    [],
  );
  const items = [0, 1, 2].map((i) => Object.freeze({ metadata: { name: `sa-${i}`, namespace: 'ns', resourceVersion: String(10 + i) }, automountServiceAccountToken: i === 1 }));
  const list = (xs: object[]) => ({ kind: 'ServiceAccountList', apiVersion: 'v1', metadata: { resourceVersion: '12' }, items: xs });
  for (const format of ['protobuf', 'cbor'] as const) {
    const out = { format, mediaType: format === 'protobuf' ? 'application/vnd.svc.protobuf' : 'application/cbor', pretty: false, schemas };
    const enc = encodedListItems(out, 'v1', 'ServiceAccountList')!;
    expect(enc.format).toBe(format);
    const plain = serialize(list([...items].map((i) => ({ ...i }))), out);
    expect(serialize(list(items.map((i) => enc.encode(i))), out).equals(plain)).toBe(true);
  }
  // A kept message of another kind is refused, not written into the wrong field.
  const json = { format: 'protobuf' as const, mediaType: 'application/vnd.svc.protobuf', pretty: false, schemas };
  const ns = encodedListItems(json, 'v1', 'NamespaceList')!.encode({ metadata: { name: 'x' } });
  expect(() => serialize(list([ns]), json)).toThrow();
});
