import { JsonDocumentSplitter } from './jsonDocuments';

describe('JsonDocumentSplitter', () => {
  const text = '{"a":"}{\\"x"}\n[1,{"b":[]}]  {"c":"é☃"}\r\n';
  const expected = ['{"a":"}{\\"x"}', '[1,{"b":[]}]', '{"c":"é☃"}'];

  it.each([1, 2, 5, 13, 1000])('finds the same documents in %i-byte chunks', (size) => {
    const s = new JsonDocumentSplitter();
    const bytes = Buffer.from(text);
    const docs: string[] = [];
    for (let i = 0; i < bytes.length; i += size) {
      const r = s.push(bytes.subarray(i, i + size));
      expect(r.error).toBeUndefined();
      docs.push(...r.documents);
    }
    expect(() => s.end()).not.toThrow();
    expect(docs).toEqual(expected);
    expect(docs.map((d) => JSON.parse(d))).toEqual(expected.map((d) => JSON.parse(d)));
  });

  it.each([
    ['garbage between documents', '{"a":1} x {"b":2}', ['{"a":1}'], 'invalid character "x" looking for beginning of value'],
    ['a scalar document', '3', [], 'invalid character "3" looking for beginning of value'],
  ])('stops at %s, keeping the documents before it', (_name, input, docs, message) => {
    const s = new JsonDocumentSplitter();
    const r = s.push(input);
    expect(r.documents).toEqual(docs);
    expect(r.error?.message).toBe(message);
    expect(s.push('{}').error?.message).toBe(message);
  });

  it('reports an unfinished document at the end', () => {
    const s = new JsonDocumentSplitter();
    expect(s.push('{"a":[1,2').documents).toEqual([]);
    expect(() => s.end()).toThrow('unexpected end of JSON input');
  });
});
