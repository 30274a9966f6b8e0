// Slow clients are cut off by the real server at its real default bound (upstream's
// ReadHeaderTimeout, 32 s, which Go's net/http also applies to the TLS handshake): a connection
// that never starts its TLS handshake is closed (not left for Node's own 120 s), and one that
// never finishes its request headers is answered 408 and disconnected (not left for Node's own
// 60 s + check interval). Only the outcomes are asserted, not how long they took; the test's own
// 90 s bound is what Node's defaults would overrun.
import * as net from 'node:net';
import * as tls from 'node:tls';
import { startCluster, TestCluster } from './support/apiserver';

jest.setTimeout(120_000);

let c: TestCluster;
beforeAll(async () => {
  c = await startCluster();
});
afterAll(async () => {
  await c?.stop();
});

/** Resolves with what the server sent before it closed the connection. */
function untilClosed(sock: net.Socket): Promise<string> {
  let received = '';
  sock.on('data', (d: Buffer) => (received += d.toString('latin1')));
  sock.on('error', () => undefined);
  return new Promise((resolve) => sock.on('close', () => resolve(received)));
}

test('a TLS handshake never started is closed; headers never finished get a 408 and are closed', async () => {
  // Both at once, so the one 32 s wait covers both.
  const silent = net.connect(c.apiserver.port, '127.0.0.1');
  const silentClosed = untilClosed(silent);

  const { ca } = c.apiserver.adminTls();
  const slow = tls.connect({ host: '127.0.0.1', port: c.apiserver.port, ca, servername: 'localhost', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
  const slowClosed = untilClosed(slow);
  await new Promise<void>((resolve) => slow.once('secureConnect', () => resolve()));
  slow.write('GET /version HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: never-finishes');

  expect(await silentClosed).toBe('');
  const answer = await slowClosed;
  expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  expect(answer).toContain('Connection: close\r\n');
}, 90_000);
