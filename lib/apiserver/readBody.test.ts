import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { ApiError, toApiError } from '../machinery/errors';
import { readBody, type BodySource } from './readBody';

function source(headers: Record<string, string> = {}): PassThrough & BodySource {
  return Object.assign(new PassThrough(), { headers });
}

describe('readBody on a stream', () => {
  const limit = 10;
  test.each([
    ['no body', [] as string[], {}, ''],
    ['one chunk', ['{"a":1}'], {}, '{"a":1}'],
    ['several chunks', ['{"a"', ':', '1}'], {}, '{"a":1}'],
    ['exactly at the limit', ['0123456789'], {}, '0123456789'],
    ['declared length at the limit', ['0123456789'], { 'content-length': '10' }, '0123456789'],
  ])('%s', async (_name, chunks, headers, want) => {
    const s = source(headers);
    const p = readBody(s, limit);
    for (const c of chunks) s.write(c);
    s.end();
    expect((await p).toString()).toBe(want);
  });

  test.each([
    ['declared length over the limit', ['x'], { 'content-length': '11' }],
    ['chunks over the limit', ['01234', '56789', 'a'], {}],
  ])('%s → 413 RequestEntityTooLarge, the request is not destroyed', async (_name, chunks, headers) => {
    const s = source(headers);
    const p = readBody(s, limit);
    for (const c of chunks) s.write(c);
    const err = toApiError(await p.then(() => undefined, (e: unknown) => e));
    expect([err.code, err.status.reason, err.status.message]).toEqual([413, 'RequestEntityTooLarge', 'Request entity too large: limit is 10']);
    expect(s.destroyed).toBe(false);
    // Nothing listens for the rest any more.
    expect([s.listenerCount('data'), s.listenerCount('end'), s.listenerCount('error'), s.listenerCount('close')]).toEqual([0, 0, 0, 0]);
  });

  test('a stream that fails mid-body → 400 naming the cause', async () => {
    const s = source();
    const p = readBody(s, limit);
    s.write('{');
    s.destroy(new Error('aborted'));
    const err = await p.then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toMatchObject({ code: 400, reason: 'BadRequest', message: 'error reading the request body: aborted' });
  });

  test('a stream closed without an error before its end → 400', async () => {
    const s = source();
    const p = readBody(s, limit);
    s.write('{');
    s.destroy();
    expect(toApiError(await p.then(() => undefined, (e: unknown) => e)).code).toBe(400);
  });

  test('a stream already read to its end → empty', async () => {
    const s = source();
    s.end('x');
    s.resume();
    await new Promise((r) => s.once('end', r));
    expect((await readBody(s, limit)).length).toBe(0);
  });
});

describe('readBody on a real HTTP/1.1 connection', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      readBody(req, 10_000).then(
        (b) => res.end(`read ${b.length}`),
        (e: unknown) => {
          const err = toApiError(e);
          res.statusCode = err.code;
          res.end(err.status.reason);
        },
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  function chunked(size: number): string {
    let out = '';
    for (let i = 0; i < size; i += 4096) {
      const n = Math.min(4096, size - i);
      out += `${n.toString(16)}\r\n${'a'.repeat(n)}\r\n`;
    }
    return `${out}0\r\n\r\n`;
  }

  /** Sends raw bytes and collects everything the server answers until it closes. */
  function exchange(raw: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const s = net.connect(port, '127.0.0.1');
      let got = '';
      s.on('data', (d: Buffer) => (got += d.toString()));
      s.on('error', reject);
      s.on('close', () => resolve(got));
      s.write(raw);
    });
  }

  test('an oversized chunked body gets its 413 before the connection closes', async () => {
    const got = await exchange(`POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunked(30_000)}`);
    expect(got).toMatch(/^HTTP\/1\.1 413 /);
    expect(got.endsWith('RequestEntityTooLarge')).toBe(true);
  });

  test('after a 413 on a kept-alive connection the next request is still answered', async () => {
    const got = await exchange(
      `POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(30_000)}` +
        `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(got).toMatch(/^HTTP\/1\.1 413 /);
    expect(got).toContain('read 2');
  });
});
