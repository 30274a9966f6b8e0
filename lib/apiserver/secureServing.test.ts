import * as http2 from 'node:http2';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as tls from 'node:tls';
import { selfSignedCertificate } from '../client/testTls';
import { answerClientError } from './clientError';
import { http2Limits } from './http2Serving';
import { createSecureServer, readHeaderTimeoutMs, secureServerOptions, servingTimeouts, tlsHandshakeTimeoutMs } from './secureServing';

describe("Go's tlsHandshakeTimeout: the smallest positive of ReadHeaderTimeout, ReadTimeout, WriteTimeout", () => {
  test.each([
    ['upstream: ReadHeaderTimeout only', [32_000, 0, 0], 32_000],
    ['ReadTimeout smaller', [32_000, 10_000, 0], 10_000],
    ['WriteTimeout alone', [0, 0, 5_000], 5_000],
    ['none set: no bound', [0, 0, 0], 0],
  ])('%s', (_name, [header, read, write], want) => {
    expect(tlsHandshakeTimeoutMs(header, read, write)).toBe(want);
  });
});

test("upstream's bounds are the server's defaults: 32 s for the head and for the TLS handshake", () => {
  expect(readHeaderTimeoutMs).toBe(32_000);
  expect(servingTimeouts()).toEqual({ headersTimeout: 32_000, connectionsCheckingInterval: 1000 });
  const o = secureServerOptions({ cert: 'c', key: 'k', http2: http2Limits(0) });
  expect(o.handshakeTimeout).toBe(32_000);
  // Go's HTTP/1.1 head read limit: MaxHeaderBytes + 4096 (initialReadLimitSize).
  expect(o.http1Options).toMatchObject({ headersTimeout: 32_000, maxHeaderSize: (1 << 20) + 4096 });
  // No cap on an h2 head's number of fields below what its 1 MiB list can hold (32 bytes each).
  expect(o.maxHeaderListPairs).toBe(Math.floor(((1 << 20) + 320) / 32));
});

describe('the server as main builds it, with the bound shortened to 200 ms', () => {
  let server: http2.Http2SecureServer;
  let port: number;
  const tlsErrors: string[] = [];
  beforeAll(async () => {
    const cert = await selfSignedCertificate('localhost');
    server = createSecureServer({ cert: cert.certPem, key: cert.keyPem, http2: http2Limits(0), readHeaderTimeoutMs: 200 }, (req, res) => {
      const fields = Object.keys(req.headers).filter((h) => h.startsWith('x-f-')).length;
      res.end(fields ? `served ${fields}` : 'served');
    });
    server.on('clientError', answerClientError);
    server.on('tlsClientError', (err: Error & { code?: string }) => tlsErrors.push(err.code ?? err.message));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  test('a connection that never starts its TLS handshake is closed by the server', async () => {
    const sock = net.connect(port, '127.0.0.1');
    sock.on('error', () => undefined);
    let received = 0;
    sock.on('data', (d: Buffer) => (received += d.length));
    // Bounded by jest's timeout (Node's own default would wait 120 s): the server closes it.
    await new Promise<void>((resolve) => sock.on('close', () => resolve()));
    expect(received).toBe(0);
    expect(tlsErrors).toContain('ERR_TLS_HANDSHAKE_TIMEOUT');
  });

  test('an HTTP/1.1 client still sending its headers gets a 408 and the connection closes', async () => {
    const sock = tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
    let received = '';
    sock.on('data', (d: Buffer) => (received += d.toString('latin1')));
    sock.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => sock.on('close', () => resolve()));
    await new Promise<void>((resolve) => sock.once('secureConnect', () => resolve()));
    sock.write('GET /version HTTP/1.1\r\nHost: x\r\nUser-Agent: slow');
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(received).toContain('Connection: close\r\n');
  });

  test('a request whose handshake and headers arrive in time is served, over h2 and HTTP/1.1', async () => {
    const session = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
    try {
      const body = await new Promise<string>((resolve, reject) => {
        const req = session.request({ ':path': '/' });
        let b = '';
        req.on('data', (c: Buffer) => (b += c.toString()));
        req.on('end', () => resolve(b));
        req.on('error', reject);
      });
      expect(body).toBe('served');
    } finally {
      session.close();
    }
    const sock = tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
    let received = '';
    sock.on('data', (d: Buffer) => (received += d.toString('latin1')));
    await new Promise<void>((resolve) => sock.once('secureConnect', () => resolve()));
    sock.end('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await new Promise<void>((resolve) => sock.on('close', () => resolve()));
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nserved$/);
  });

  /** One HTTP/1.1 exchange on a fresh TLS connection: the status line and the body. */
  function http1(head: string): Promise<{ status: string; body: string }> {
    return new Promise((resolve) => {
      const sock = tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }, () => sock.end(head));
      const chunks: Buffer[] = [];
      sock.on('data', (d: Buffer) => chunks.push(d));
      sock.on('error', () => undefined);
      sock.on('close', () => {
        const text = Buffer.concat(chunks).toString('latin1');
        resolve({ status: text.split('\r\n')[0], body: text.slice(text.indexOf('\r\n\r\n') + 4) });
      });
    });
  }
  const fields = (n: number): string => Array.from({ length: n }, (_, i) => `x-f-${i}: v\r\n`).join('');

  test.each([
    // Go counts only the head's bytes; Node also caps the fields (about a thousand) unless told not to.
    ['1,500 fields', `GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${fields(1500)}\r\n`, 'HTTP/1.1 200 OK', 'served 1500'],
    // Go reads up to MaxHeaderBytes + 4096 before the head must be complete.
    ['a field of 1 MiB + 2 KiB', `GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: ${'v'.repeat((1 << 20) + 2048)}\r\n\r\n`, 'HTTP/1.1 200 OK', 'served'],
    ['a field of 1 MiB + 8 KiB: 431', `GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: ${'v'.repeat((1 << 20) + 8192)}\r\n\r\n`, 'HTTP/1.1 431 Request Header Fields Too Large', '431 Request Header Fields Too Large'],
  ])('HTTP/1.1 head with %s', async (_name, head, status, body) => {
    const r = await http1(head);
    expect(r.status).toBe(status);
    expect(r.body).toBe(body);
  });

  test('h2: a request with 1,000 fields is served, not reset (Node resets past 128 by default)', async () => {
    const session = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
    session.on('error', () => undefined);
    try {
      await new Promise((r) => session.once('remoteSettings', r));
      const headers: http2.OutgoingHttpHeaders = { ':path': '/' };
      for (let i = 0; i < 1000; i++) headers[`x-f-${i}`] = 'v';
      const body = await new Promise<string>((resolve, reject) => {
        const req = session.request(headers);
        let b = '';
        req.on('data', (c: Buffer) => (b += c.toString()));
        req.on('close', () => (req.rstCode ? reject(new Error(`reset ${req.rstCode}`)) : resolve(b)));
        req.on('error', () => undefined);
      });
      expect(body).toBe('served 1000');
    } finally {
      session.close();
    }
  });
});
