// A client that never finishes its request headers is answered 408 and disconnected by the real
// server with its real default (upstream's ReadHeaderTimeout, 32 s), not left hanging for Node's
// own 60 s + check interval. Only the outcome is asserted, not how long it took.
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

test('a connection still sending its headers gets a 408 and is closed', async () => {
  const { ca } = c.apiserver.adminTls();
  const sock = tls.connect({ host: '127.0.0.1', port: c.apiserver.port, ca, servername: 'localhost', rejectUnauthorized: false });
  let received = '';
  sock.on('data', (d: Buffer) => (received += d.toString('latin1')));
  sock.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => sock.on('close', () => resolve()));
  await new Promise<void>((resolve) => sock.once('secureConnect', () => resolve()));
  sock.write('GET /version HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: never-finishes');
  // Bounded by jest's timeout: the server must answer and close on its own.
  await closed;
  expect(received).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  expect(received).toContain('Connection: close\r\n');
});
