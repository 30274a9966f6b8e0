// The splice must rebuild exactly the text it was checked against, and refuse stored bytes that do
// not reproduce it (the store then keeps the text).
import { listItemSplice, splicedListItem, writtenSplice } from './servedJsonSplice';

const stored = (s: string): Buffer => Buffer.from(s);

test.each([
  [
    'resourceVersion before the next member',
    '{"kind":"ServiceAccount","apiVersion":"v1","metadata":{"name":"a","uid":"u","creationTimestamp":"t"},"secrets":[]}',
    '{"metadata":{"name":"a","uid":"u","resourceVersion":"42","creationTimestamp":"t"},"secrets":[]}',
  ],
  ['resourceVersion last in metadata', '{"kind":"K","apiVersion":"g/v1","metadata":{"name":"a"},"x":1}', '{"metadata":{"name":"a","resourceVersion":"42"},"x":1}'],
  ['metadata holds only resourceVersion', '{"kind":"K","apiVersion":"v1","metadata":{}}', '{"metadata":{"resourceVersion":"42"}}'],
])('%s', (_name, bytes, item) => {
  const splice = listItemSplice(stored(bytes), item, 42);
  expect(splice).toBeDefined();
  const spliced = splicedListItem(stored(bytes), splice!, 42);
  expect(spliced.json).toBe(item);
  expect(spliced.byteLength).toBe(item.length);
  const out = Buffer.alloc(item.length + 4, 0x2e);
  expect(spliced.copyTo(out, 2)).toBe(item.length);
  expect(out.toString('latin1')).toBe(`..${item}..`);
  // As a body's pieces: the same bytes, after a comma when asked.
  for (const comma of [false, true]) {
    const chunks: Uint8Array[] = [];
    const n = spliced.appendTo(chunks, comma);
    const text = Buffer.concat(chunks).toString('latin1');
    expect(text).toBe(comma ? `,${item}` : item);
    expect(n).toBe(text.length);
    // The stored bytes after the insert are a view of them, not a copy.
    expect(chunks).toHaveLength(2);
    const b = stored(bytes);
    const again: Uint8Array[] = [];
    splicedListItem(b, splice!, 42).appendTo(again, comma);
    expect(again[1].buffer).toBe(b.buffer);
    expect(again[1].byteOffset + again[1].length).toBe(b.byteOffset + b.length);
  }
  // A Uint8Array that is not a Buffer, inside a larger ArrayBuffer, works the same.
  const big = new Uint8Array(bytes.length + 8);
  big.set(stored(bytes), 4);
  expect(splicedListItem(big.subarray(4, 4 + bytes.length), splice!, 42).json).toBe(item);
});

test.each([
  ['another field order', '{"kind":"K","apiVersion":"v1","metadata":{"name":"a"},"y":2,"x":1}', '{"metadata":{"name":"a","resourceVersion":"7"},"x":1,"y":2}'],
  ['a field the served object drops', '{"kind":"K","apiVersion":"v1","metadata":{"name":"a"},"zz":1}', '{"metadata":{"name":"a","resourceVersion":"7"}}'],
  ['a stored resourceVersion', '{"kind":"K","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"3"}}', '{"metadata":{"name":"a","resourceVersion":"7"}}'],
  ['non-ASCII text', '{"kind":"K","apiVersion":"v1","metadata":{"name":"a","annotations":{"x":"ü"}}}', '{"metadata":{"name":"a","resourceVersion":"7","annotations":{"x":"ü"}}}'],
  ['no resourceVersion in the item', '{"kind":"K","apiVersion":"v1","metadata":{"name":"a"}}', '{"metadata":{"name":"a"}}'],
  ['resourceVersion twice (an object reference)', '{"kind":"K","apiVersion":"v1","metadata":{"name":"a"},"ref":{"resourceVersion":"7"}}', '{"metadata":{"name":"a","resourceVersion":"7"},"ref":{"resourceVersion":"7"}}'],
])('not spliced: %s', (_name, bytes, item) => {
  expect(listItemSplice(stored(bytes), item, 7)).toBeUndefined();
});

describe('writtenSplice: the splice of bytes just stored from an object, without serialising it again', () => {
  /** encodeForStorage's bytes of obj (its JSON without resourceVersion). */
  const storedOf = (obj: Record<string, unknown>): Buffer => {
    if (!obj.metadata) return Buffer.from(JSON.stringify(obj));
    const { resourceVersion: _rv, ...meta } = obj.metadata as Record<string, unknown>;
    return Buffer.from(JSON.stringify({ ...obj, metadata: meta }));
  };

  test.each([
    [
      'resourceVersion after uid, before the next member',
      { kind: 'ServiceAccount', apiVersion: 'v1', metadata: { name: 'a', namespace: 'n', uid: 'u', creationTimestamp: 't', labels: { x: '1' } }, secrets: [] },
      '{"metadata":{"name":"a","namespace":"n","uid":"u","resourceVersion":"42","creationTimestamp":"t","labels":{"x":"1"}},"secrets":[]}',
    ],
    ['resourceVersion last in metadata', { kind: 'K', apiVersion: 'g/v1', metadata: { name: 'a' }, x: 1 }, '{"metadata":{"name":"a","resourceVersion":"42"},"x":1}'],
    ['metadata holds only resourceVersion', { kind: 'K', apiVersion: 'v1', metadata: {} }, '{"metadata":{"resourceVersion":"42"}}'],
    ['only members after resourceVersion', { kind: 'K', apiVersion: 'v1', metadata: { generation: 2 } }, '{"metadata":{"resourceVersion":"42","generation":2}}'],
    ['a stale resourceVersion in the object (the stored bytes have none)', { kind: 'K', apiVersion: 'v1', metadata: { name: 'a', resourceVersion: '3', generation: 1 } }, '{"metadata":{"name":"a","resourceVersion":"42","generation":1}}'],
    [
      'the same text elsewhere (listItemSplice cannot tell the places apart)',
      { kind: 'K', apiVersion: 'v1', metadata: { name: 'a', labels: { resourceVersion: '42' } }, ref: { resourceVersion: '42' } },
      '{"metadata":{"name":"a","resourceVersion":"42","labels":{"resourceVersion":"42"}},"ref":{"resourceVersion":"42"}}',
    ],
  ])('%s', (_name, obj, item) => {
    const bytes = storedOf(obj);
    const splice = writtenSplice(bytes, obj);
    expect(splice).toBeDefined();
    expect(splicedListItem(bytes, splice!, 42).json).toBe(item);
    // Where the slow check also finds it, both rebuild the same text (maybe joined at the other comma).
    const checked = listItemSplice(bytes, item, 42);
    if (checked !== undefined) expect(splicedListItem(bytes, checked, 42).json).toBe(item);
  });

  test.each([
    ['kind not first', { apiVersion: 'v1', kind: 'K', metadata: { name: 'a' } }, undefined],
    ['metadata members out of emission order', { kind: 'K', apiVersion: 'v1', metadata: { uid: 'u', name: 'a' } }, undefined],
    ['a metadata member the schema lacks', { kind: 'K', apiVersion: 'v1', metadata: { name: 'a', extra: 1 } }, undefined],
    ['non-ASCII text', { kind: 'K', apiVersion: 'v1', metadata: { name: 'a', annotations: { x: 'ü' } } }, undefined],
    ['no metadata', { kind: 'K', apiVersion: 'v1', spec: {} }, undefined],
    ['bytes stored in another version', { kind: 'K', apiVersion: 'g/v2', metadata: { name: 'a' } }, '{"kind":"K","apiVersion":"g/v1","metadata":{"name":"a"}}'],
    ['bytes another writer stored', { kind: 'K', apiVersion: 'v1', metadata: { name: 'a' } }, '{"kind":"K","apiVersion":"v1","metadata":{"uid":"u","name":"a"}}'],
  ])('not spliced: %s', (_name, obj, bytes) => {
    const b = bytes === undefined ? storedOf(obj as Record<string, unknown>) : Buffer.from(bytes);
    expect(writtenSplice(b, obj as Record<string, unknown>)).toBeUndefined();
  });
});
