// A compact JSON list is written straight into one buffer: items kept as text, as stored bytes
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
import { builtinStrategies } from '../registry/builtin';
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

describe('a CBOR list is written as pieces: the envelope, then each kept item encoding as it is', () => {
  const schemas = buildKindSchemas(
    builtinStrategies.map((s) => s.resource),
    [],
  );
  const out = { format: 'cbor' as const, mediaType: 'application/cbor', pretty: false, schemas };
  const enc = encodedListItems(out, 'v1', 'ServiceAccountList')!;
  // Enough items for the body to pass the gzip threshold.
  const kept = Array.from({ length: 200 }, (_, i) => enc.encode({ metadata: { name: `sa-${i}`, namespace: 'ns', resourceVersion: String(10 + i), annotations: { pad: 'x'.repeat(700) } } }) as Buffer);
  const list = () => ({ kind: 'ServiceAccountList', apiVersion: 'v1', metadata: { resourceVersion: '300', continue: 'c' }, items: [...kept] });
  const whole = serialize(list(), out);

  test('the pieces are the bytes serialize writes, the items not copied', () => {
    const body = serializeBody(list(), out);
    expect(body).toBeInstanceOf(BodyChunks);
    const chunks = body as BodyChunks;
    expect(chunks.length).toBe(whole.length);
    expect(chunks.toBuffer().equals(whole)).toBe(true);
    expect(chunks.chunks.slice(1)).toHaveLength(kept.length);
    chunks.chunks.slice(1).forEach((c, i) => expect(c).toBe(kept[i]));
    // A shared frozen list keeps one remembered buffer; other formats are unchanged.
    expect(Buffer.isBuffer(serializeBody(Object.freeze(list()), out))).toBe(true);
    const plainList = { ...list(), items: [{ metadata: { name: 'a' } }] };
    expect(Buffer.isBuffer(serializeBody(plainList, { ...out, format: 'protobuf', mediaType: 'application/vnd.svc.protobuf' }))).toBe(true);
    expect(Buffer.isBuffer(serializeBody(plainList, jsonOutput(false)))).toBe(true);
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
