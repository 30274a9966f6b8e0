// SplicedJson writes `{` + stored[head, offset) + inserted + stored[offset, end), as text or bytes;
// withHead gives the whole stored text only when the skipped head is exactly the one asked for.
import { SplicedJson } from './splicedJson';

const stored = Buffer.from('{"kind":"K","apiVersion":"v1","metadata":{"name":"a"},"x":1}');
const head = '{"kind":"K","apiVersion":"v1",'.length;
const offset = stored.indexOf('}');
const item = new SplicedJson(stored, head, offset, ',"resourceVersion":"5"');

test('the item as text, bytes and JSON', () => {
  const text = '{"metadata":{"name":"a","resourceVersion":"5"},"x":1}';
  expect(item.json).toBe(text);
  expect(item.byteLength).toBe(text.length);
  expect(item.toBuffer().toString('latin1')).toBe(text);
  expect(item.toJSON()).toEqual(JSON.parse(text));
});

test('withHead: the whole stored text with the insert when the head matches, else nothing', () => {
  const whole = item.withHead(Buffer.from('{"kind":"K","apiVersion":"v1",'));
  expect(whole?.json).toBe('{"kind":"K","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"5"},"x":1}');
  expect(whole?.toBuffer().toString('latin1')).toBe(whole?.json);
  expect(item.withHead(Buffer.from('{"kind":"K","apiVersion":"v2",'))).toBeUndefined();
  expect(item.withHead(Buffer.from('{"kind":"K","apiVersion":"v1"'))).toBeUndefined();
});
