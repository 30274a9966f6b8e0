// Warnings through the in-process server to a Node client with its default 16 KiB header limit:
// whatever the handlers collected goes out under upstream's 4 Ki-rune rule, so a 20 KB warning
// (an unknown field's name here; a policy's message built from the object in practice) no longer
// makes the client fail to read the answer.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { FeatureGates } from '../api';
import { alwaysAllowAuthorizer } from '../auth/authorizer';
import { MemoryStorage } from '../etcd/memory';
import { builtinStrategies } from '../registry/builtin';
import { createStores } from '../registry/stores';
import { createApiServer, type ApiServer } from './server';

let api: ApiServer;
let server: Server;

beforeAll(async () => {
  api = createApiServer({
    resources: createStores(new MemoryStorage(), builtinStrategies, '/registry', { watchCache: false }),
    authenticator: { authenticate: async () => ({ name: 'admin', groups: ['system:masters', 'system:authenticated'] }) },
    authorizer: alwaysAllowAuthorizer(),
    anonymousEnabled: false,
    requestTimeoutMs: 10_000,
    features: FeatureGates.parse(''),
    log: pino({ level: 'silent' }),
    maxRequestBodyBytes: 3 << 20,
    serverAddress: '127.0.0.1:6443',
    storageHealth: async () => null,
  });
  server = createServer(api.handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  await api.close();
});

/** POST with fieldValidation=Warn; the status and the Warning headers as UTF-8 texts. */
function create(name: string, extra: Record<string, unknown>): Promise<{ status: number; warnings: string[] }> {
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name }, ...extra });
  return new Promise((resolve, reject) => {
    const port = (server.address() as AddressInfo).port;
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts?fieldValidation=Warn', headers: { 'Content-Type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => {
        const raw = res.rawHeaders.filter((_v, i) => i % 2 === 1 && res.rawHeaders[i - 1].toLowerCase() === 'warning');
        resolve({ status: res.statusCode ?? 0, warnings: raw.map((v) => Buffer.from(v, 'latin1').toString('utf8')) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('a 20 KB warning arrives cut to 256 runes', async () => {
  const field = 'x'.repeat(20_000);
  const r = await create('long-warning', { [field]: 1 });
  expect(r.status).toBe(201);
  // `unknown field "` is 15 runes: 241 of the name's follow, and no closing quote.
  expect(r.warnings).toEqual([`299 - "unknown field \\"${'x'.repeat(241)}"`]);
});

test('many warnings: 4 Ki runes in full, then each cut, the rest dropped', async () => {
  // 40 unknown fields of 150 characters: each warning is 166 runes; 24 fit in 4,096, the 25th
  // passes it (4,150), all 25 are written again (none over 256 runes), and the other 15 dropped.
  const names = Array.from({ length: 40 }, (_, i) => `${String(i).padStart(2, '0')}${'f'.repeat(148)}`);
  const r = await create('many-warnings', Object.fromEntries(names.map((n) => [n, 1])));
  expect(r.status).toBe(201);
  expect(r.warnings).toEqual(names.slice(0, 25).map((n) => `299 - "unknown field \\"${n}\\""`));
});
