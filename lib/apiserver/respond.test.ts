// A compact JSON list is written as pieces (or one buffer): items kept as text, as stored bytes
// with resourceVersion put back (SplicedJson), shared frozen objects and plain objects alike must
// come out exactly as JSON.stringify of the list writes them.
import * as http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { BodyChunks } from '../codec/bodyChunks';
import { RawJson } from '../codec/rawJson';
import { SplicedJson } from '../codec/splicedJson';
import { EncodedMessage } from '../codec/protobuf';
import { builtinStrategies } from '../registry/builtin';
import { listItemSplice, splicedListItem } from '../registry/servedJsonSplice';
import { buildKindSchemas } from './kindSchemas';
import { encodedListItems, jsonOutput, serialize, serializeBody, writeBody } from './respond';

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

describe.each(['cbor', 'protobuf', 'json'] as const)('a %s list is written as pieces: the envelope, then each kept item as it is', (format) => {
  const schemas = buildKindSchemas(
    builtinStrategies.map((s) => s.resource),
    [],
  );
  const mediaType = { cbor: 'application/cbor', protobuf: 'application/vnd.svc.protobuf', json: 'application/json' }[format];
  const out = { format, mediaType, pretty: false, schemas };
  // Enough items for the body to pass the gzip threshold.
  const objects = Array.from({ length: 200 }, (_, i) => ({ metadata: { name: `sa-${i}`, namespace: 'ns', resourceVersion: String(10 + i), annotations: { pad: 'x'.repeat(700) } } }));
  const keep = (o: (typeof objects)[number]): object => {
    if (format !== 'json') return encodedListItems(out, 'v1', 'ServiceAccountList')!.encode(o);
    // The store's form: the stored bytes (no resourceVersion) with it put back at its place.
    const { resourceVersion, ...meta } = o.metadata;
    const stored = Buffer.from(JSON.stringify({ kind: 'ServiceAccount', apiVersion: 'v1', metadata: meta }));
    const item = JSON.stringify(o);
    return splicedListItem(stored, listItemSplice(stored, item, Number(resourceVersion))!, Number(resourceVersion));
  };
  const kept = objects.map(keep);
  const list = (items: unknown[] = kept, metadata: Record<string, unknown> = { resourceVersion: '300', continue: 'c', remainingItemCount: 7 }) => ({
    kind: 'ServiceAccountList',
    apiVersion: 'v1',
    metadata,
    items: [...items],
  });
  // The reference: the list of plain objects in one buffer (JSON: as JSON.stringify writes it).
  const reference = (items: unknown[], metadata?: Record<string, unknown>): Buffer =>
    format === 'json' ? Buffer.from(JSON.stringify(list(items, metadata))) : serialize(list(items, metadata), out);
  const whole = reference(objects);

  test('the pieces are the single-buffer bytes, the items not copied', () => {
    const body = serializeBody(list(), out);
    expect(body).toBeInstanceOf(BodyChunks);
    const chunks = body as BodyChunks;
    expect(chunks.length).toBe(whole.length);
    expect(chunks.toBuffer().equals(whole)).toBe(true);
    // serialize (the one-buffer form, e.g. for a remembered body) writes the same bytes.
    expect(serialize(list(), out).equals(whole)).toBe(true);
    // Each kept item's bytes are among the pieces as they are; no piece holds more than an item.
    for (const k of kept) {
      if (k instanceof EncodedMessage) expect(chunks.chunks).toContain(k.bytes);
      else if (Buffer.isBuffer(k)) expect(chunks.chunks).toContain(k);
    }
    expect(Math.max(...chunks.chunks.map((c) => c.length))).toBeLessThan(1000);
    // A shared frozen list keeps one remembered buffer.
    expect(Buffer.isBuffer(serializeBody(Object.freeze(list()), out))).toBe(true);
  });

  test.each([
    ['an empty list', [], { resourceVersion: '1' }],
    ['an empty list without metadata fields', [], {}],
    ['one item, continue and remainingItemCount', [0], { resourceVersion: '5', continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ', remainingItemCount: 12345 }],
    ['plain objects among kept items', [0, -1, 2], { resourceVersion: '5' }],
  ])('%s: the same bytes', (_name, picks, metadata) => {
    const items = picks.map((i) => (i < 0 ? { ...objects[1] } : kept[i]));
    const plain = picks.map((i) => objects[i < 0 ? 1 : i]);
    const body = serializeBody(list(items, metadata), out);
    expect(body).toBeInstanceOf(BodyChunks);
    const expected = reference(plain, metadata);
    expect(body.length).toBe(expected.length);
    expect((body as BodyChunks).toBuffer().equals(expected)).toBe(true);
  });

  test('pretty JSON, YAML and items that are not a list keep their own route', () => {
    expect(Buffer.isBuffer(serializeBody(list(objects), { ...out, format: 'json', mediaType: 'application/json', pretty: true }))).toBe(true);
    expect(Buffer.isBuffer(serializeBody(list(objects), { ...out, format: 'yaml', mediaType: 'application/yaml' }))).toBe(true);
    expect(Buffer.isBuffer(serializeBody({ kind: 'Status', apiVersion: 'v1', status: 'Failure' }, { ...out, format: 'json', mediaType: 'application/json' }))).toBe(true);
  });

  async function served(protocol: 'http1' | 'http2', method: string, headers: Record<string, string> = {}): Promise<{ headers: Record<string, unknown>; body: Buffer }> {
    const handler = (req: IncomingMessage, res: ServerResponse): void => writeBody(req, res, 200, serializeBody(list(), out) as BodyChunks, out.mediaType, { compression: true });
    const server = protocol === 'http1' ? http.createServer(handler) : http2.createServer(handler as never);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      if (protocol === 'http1') {
        return await new Promise((resolve, reject) => {
          http
            .request({ host: '127.0.0.1', port, method, headers }, (res) => {
              const parts: Buffer[] = [];
              res.on('data', (c: Buffer) => parts.push(c));
              res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
            })
            .on('error', reject)
            .end();
        });
      }
      const session = http2.connect(`http://127.0.0.1:${port}`);
      try {
        return await new Promise((resolve, reject) => {
          const req = session.request({ ':method': method, ':path': '/', ...headers });
          const parts: Buffer[] = [];
          let h: Record<string, unknown> = {};
          req.on('response', (x) => (h = x));
          req.on('data', (c: Buffer) => parts.push(c));
          req.on('end', () => resolve({ headers: h, body: Buffer.concat(parts) }));
          req.on('error', reject);
        });
      } finally {
        session.close();
      }
    } finally {
      await new Promise((r) => server.close(r));
    }
  }

  test.each(['http1', 'http2'] as const)('over %s: exactly those bytes with their Content-Length, gzipped when asked, none for HEAD', async (protocol) => {
    const plain = await served(protocol, 'GET');
    expect(Number(plain.headers['content-length'])).toBe(whole.length);
    expect(plain.body.equals(whole)).toBe(true);
    const gz = await served(protocol, 'GET', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(whole)).toBe(true);
    const head = await served(protocol, 'HEAD');
    expect(Number(head.headers['content-length'])).toBe(whole.length);
    expect(head.body.length).toBe(0);
  });
});
