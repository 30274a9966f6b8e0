// The splice must rebuild exactly the text it was checked against, and refuse stored bytes that do
// not reproduce it (the store then keeps the text).
import { listItemSplice, splicedListItem } from './servedJsonSplice';

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
