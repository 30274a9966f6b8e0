import * as http2 from 'node:http2';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as tls from 'node:tls';
import { selfSignedCertificate } from '../client/testTls';
import { answerClientError } from './clientError';
import { http2Limits } from './http2Serving';
import { readHeaderTimeoutMs, secureServerOptions, servingTimeouts, tlsHandshakeTimeoutMs } from './secureServing';

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
  expect(o.http1Options).toMatchObject({ headersTimeout: 32_000, maxHeaderSize: 1 << 20 });
});

describe('the server built from these options, with the bound shortened to 200 ms', () => {
  let server: http2.Http2SecureServer;
  let port: number;
  const tlsErrors: string[] = [];
  beforeAll(async () => {
    const cert = await selfSignedCertificate('localhost');
    server = http2.createSecureServer(secureServerOptions({ cert: cert.certPem, key: cert.keyPem, http2: http2Limits(0), readHeaderTimeoutMs: 200 }), (_req, res) => res.end('served'));
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
});
