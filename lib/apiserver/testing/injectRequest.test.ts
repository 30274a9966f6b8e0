import { MemoryStorage } from '../../etcd/memory';
import { builtinStrategies } from '../../registry/builtin';
import { createStores } from '../../registry/stores';
import { injectRequest } from './injectRequest';
import { startInProcessServer } from './inProcessServer';

describe('injectRequest', () => {
  test('the handler reads the method, path, headers and body, and its status, headers and body come back', async () => {
    const r = await injectRequest(
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const text = `${req.method} ${req.url} ${req.headers['x-a']} ${Buffer.concat(chunks).toString()}`;
          res.writeHead(201, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(text), Warning: ['1', '2'] });
          res.end(text);
        });
      },
      { method: 'PUT', path: '/p?q=1', headers: { 'X-A': 'b' }, body: Buffer.from('hello') },
    );
    expect({ status: r.status, type: r.headers['content-type'], warning: r.headers.warning, body: r.body.toString() }).toEqual({
      status: 201,
      type: 'text/plain',
      warning: '1, 2',
      body: 'PUT /p?q=1 b hello',
    });
  });

  test('through the apiserver: a create, then a patch that reads the body', async () => {
    const storage = new MemoryStorage();
    const s = startInProcessServer(createStores(storage, builtinStrategies, '/registry', { watchCache: false }));
    try {
      const ns = await s.request({ method: 'POST', path: '/api/v1/namespaces', headers: { 'Content-Type': 'application/json' }, body: Buffer.from('{"metadata":{"name":"a"}}') });
      expect(ns.status).toBe(201);
      const patched = await s.request({
        method: 'PATCH',
        path: '/api/v1/namespaces/a',
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body: Buffer.from('{"metadata":{"labels":{"x":"y"}}}'),
      });
      expect(patched.status).toBe(200);
      expect(JSON.parse(patched.body.toString()).metadata.labels).toMatchObject({ x: 'y' });
    } finally {
      await s.close();
      await storage.close();
    }
  });
});
