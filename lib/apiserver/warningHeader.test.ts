import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { warningHeaderValue } from './warningHeader';

describe('warningHeaderValue', () => {
  test.each([
    ['unknown field "spec.x"', '299 - "unknown field \\"spec.x\\""'],
    ['tab\there', '299 - "tab\\there"'],
    ['nul\u0000', '299 - "nul\\x00"'],
  ])('%j', (text, want) => {
    expect(warningHeaderValue(text)).toBe(want);
  });

  test('non-Latin-1 text reaches the client as the UTF-8 of Go\'s quoting, not a thrown error', async () => {
    const text = 'unknown field "apiVrsion" in rbac.authorizItion.svÑ.io/v1 名前';
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { Warning: [warningHeaderValue(text)] });
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const raw = await new Promise<Buffer>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/' }, (res) => {
          // Node decodes header bytes as Latin-1; a Go client reads them as UTF-8.
          resolve(Buffer.from(String(res.headers.warning), 'latin1'));
          res.resume();
        }).on('error', reject);
      });
      expect(raw.toString('utf8')).toBe('299 - "unknown field \\"apiVrsion\\" in rbac.authorizItion.svÑ.io/v1 名前"');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
