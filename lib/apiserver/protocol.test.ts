import { EventEmitter } from 'node:events';
import * as http from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bufferedBytes, closeConnectionAfter, isHttp2Response } from './protocol';

/** The shapes protocol.ts reads: an HTTP/1.1 response (socket) or an HTTP/2 compat one (stream). */
function h1(writable: number, socketWritable: number): ServerResponse & { headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  return Object.assign(new EventEmitter(), {
    writableLength: writable,
    socket: { writableLength: socketWritable },
    headersSent: false,
    headers,
    setHeader: (k: string, v: string) => (headers[k] = v),
  }) as unknown as ServerResponse & { headers: Record<string, string> };
}

function h2(streamWritable: number): { res: ServerResponse; session: { closed: boolean; destroyed: boolean; closes: number; close(): void } } {
  const session = {
    closed: false,
    destroyed: false,
    closes: 0,
    close() {
      this.closes++;
      this.closed = true;
    },
  };
  const res = Object.assign(new EventEmitter(), { writableLength: streamWritable, socket: { writableLength: 1 << 30 }, stream: { writableLength: streamWritable, session } });
  return { res: res as unknown as ServerResponse, session };
}

describe('protocol differences', () => {
  test.each([
    ['HTTP/1.1 counts the response (whose writableLength has its socket\'s in it)', h1(10, 5), 10, false],
    ['HTTP/2 counts its stream only (the socket is shared)', h2(7).res, 7, true],
  ])('%s', (_name, res, buffered, isH2) => {
    expect(bufferedBytes(res)).toBe(buffered);
    expect(isHttp2Response(res)).toBe(isH2);
  });

  test('HTTP/1.1: bytes a client has not read are counted once, also once they reached the socket', async () => {
    const server = http.createServer();
    let res: ServerResponse | undefined;
    server.on('request', (_req, r: ServerResponse) => {
      r.writeHead(200);
      r.flushHeaders();
      res = r;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = http.get({ port: (server.address() as AddressInfo).port, host: '127.0.0.1' }, (r) => r.pause());
    try {
      for (let i = 0; i < 1000 && !res; i++) await new Promise((r) => setImmediate(r));
      const body = Buffer.alloc(8 << 20);
      res!.write(body);
      // The response hands its chunk to the socket, whose buffer keeps what the kernel did not take.
      for (let i = 0; i < 1000 && (res!.socket?.writableLength ?? 0) === 0; i++) await new Promise((r) => setImmediate(r));
      expect(res!.socket!.writableLength).toBeGreaterThan(0);
      expect(bufferedBytes(res!)).toBeLessThanOrEqual(body.length + 16);
      expect(bufferedBytes(res!)).toBe(res!.socket!.writableLength);
    } finally {
      client.destroy();
      res?.destroy();
      await new Promise((r) => server.close(r));
    }
  });

  test('Connection: close on HTTP/1.1, a graceful GOAWAY (session.close) on HTTP/2', () => {
    const r1 = h1(0, 0);
    closeConnectionAfter(r1);
    expect(r1.headers.Connection).toBe('close');
    const r2 = h2(0);
    closeConnectionAfter(r2.res);
    closeConnectionAfter(r2.res);
    expect(r2.session.closes).toBe(1);
  });
});
