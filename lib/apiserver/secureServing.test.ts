import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { answerClientError } from './clientError';
import { readHeaderTimeoutMs, servingTimeouts } from './secureServing';

test("upstream's ReadHeaderTimeout is the default", () => {
  expect(readHeaderTimeoutMs).toBe(32_000);
  expect(servingTimeouts()).toEqual({ headersTimeout: 32_000, connectionsCheckingInterval: 1000 });
});

describe('a client still sending its headers after the timeout', () => {
  let server: http.Server;
  beforeAll(async () => {
    // The mechanism with a short timeout; the real default is exercised end to end.
    server = http.createServer({ ...servingTimeouts(200) }, (_req, res) => res.end('served'));
    server.on('clientError', answerClientError);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  test('gets a 408 and the connection closes', async () => {
    const { port } = server.address() as AddressInfo;
    const sock = net.connect(port, '127.0.0.1');
    let received = '';
    sock.on('data', (d: Buffer) => (received += d.toString('latin1')));
    const closed = new Promise<void>((resolve) => sock.on('close', () => resolve()));
    sock.write('GET /version HTTP/1.1\r\nHost: x\r\nUser-Agent: slow');
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(received).toContain('Connection: close\r\n');
  });

  test('a request whose headers arrive in time is served', async () => {
    const { port } = server.address() as AddressInfo;
    const body = await new Promise<string>((resolve, reject) => {
      http.get({ port, host: '127.0.0.1', path: '/', agent: false }, (r) => {
        let b = '';
        r.on('data', (c: Buffer) => (b += c.toString()));
        r.on('end', () => resolve(b));
      }).on('error', reject);
    });
    expect(body).toBe('served');
  });
});
