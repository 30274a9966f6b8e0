import { promises as fs } from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TLSSocket } from 'node:tls';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ClientApiError,
  ClientTransportError,
  isAlreadyExists,
  isConflict,
  isConnectionRefused,
  isExpired,
  isForbidden,
  isGone,
  isNotFound,
  isTooManyRequests,
} from './errors';
import { FakeClock } from './fakeClock';
import { Informer } from './informer';
import { ResourceDescriptor } from './resourcePath';
import { RestClient } from './restClient';
import { selfSignedCertificate, TestCertificate } from './testTls';
import type { WatchEvent } from './watchStream';

const serviceaccounts: ResourceDescriptor = { group: '', version: 'v1', resource: 'serviceaccounts', namespaced: true };
const csrs: ResourceDescriptor = { group: 'certificates.svc.io', version: 'v1', resource: 'certificatesigningrequests', namespaced: false };

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  clientCN?: string;
  remotePort: number;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

let serverCert: TestCertificate;
let clientCert: TestCertificate;
let server: https.Server;
let base: string;
let handler: Handler;
let seen: Seen[];
let clients: RestClient[];

function json(res: ServerResponse, code: number, body: unknown, contentType = 'application/json'): void {
  res.writeHead(code, { 'Content-Type': contentType });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function client(extra: Partial<ConstructorParameters<typeof RestClient>[0]> = {}): RestClient {
  const c = new RestClient({ server: base, ca: serverCert.certPem, userAgent: 'svc-controller-manager/v0.1.0', ...extra });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  serverCert = await selfSignedCertificate('server');
  clientCert = await selfSignedCertificate('client-user');
  server = https.createServer({ key: serverCert.keyPem, cert: serverCert.certPem, ca: clientCert.certPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const socket = req.socket as TLSSocket;
      const peer = socket.authorized ? socket.getPeerCertificate() : undefined;
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, clientCN: peer ? String(peer.subject?.CN) : undefined, remotePort: socket.remotePort ?? 0 });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen = [];
  clients = [];
  handler = (_req, res) => json(res, 200, { kind: 'Thing' });
});

afterEach(() => {
  for (const c of clients) c.close();
});

describe('RestClient requests', () => {
  const cases: Array<{ name: string; call: (c: RestClient) => Promise<unknown>; method: string; url: string; contentType?: string; body?: unknown }> = [
    {
      name: 'get namespaced',
      call: (c) => c.get(serviceaccounts, 'builder', { namespace: 'team-a' }),
      method: 'GET',
      url: '/api/v1/namespaces/team-a/serviceaccounts/builder',
    },
    {
      name: 'get cluster-scoped in a group, subresource',
      call: (c) => c.get(csrs, 'csr-1', { subresource: 'status' }),
      method: 'GET',
      url: '/apis/certificates.svc.io/v1/certificatesigningrequests/csr-1/status',
    },
    {
      name: 'list across namespaces with every option',
      call: (c) =>
        c.list(serviceaccounts, {
          labelSelector: 'app=x,tier in (a,b)',
          fieldSelector: 'metadata.name=y',
          resourceVersion: '10',
          resourceVersionMatch: 'NotOlderThan',
          limit: 500,
          continue: 'tok',
          timeoutSeconds: 5,
        }),
      method: 'GET',
      url: '/api/v1/serviceaccounts?labelSelector=app%3Dx%2Ctier+in+%28a%2Cb%29&fieldSelector=metadata.name%3Dy&resourceVersion=10&resourceVersionMatch=NotOlderThan&limit=500&continue=tok&timeoutSeconds=5',
    },
    {
      name: 'create takes the namespace from the body',
      call: (c) => c.create(serviceaccounts, { metadata: { name: 'a', namespace: 'ns' } }, { dryRun: true, fieldManager: 'ctrl' }),
      method: 'POST',
      url: '/api/v1/namespaces/ns/serviceaccounts?dryRun=All&fieldManager=ctrl',
      contentType: 'application/json',
      body: { metadata: { name: 'a', namespace: 'ns' } },
    },
    {
      name: 'create of a subresource',
      call: (c) => c.create(serviceaccounts, { spec: { audiences: ['x'] } }, { namespace: 'ns', name: 'a', subresource: 'token' }),
      method: 'POST',
      url: '/api/v1/namespaces/ns/serviceaccounts/a/token',
      contentType: 'application/json',
      body: { spec: { audiences: ['x'] } },
    },
    {
      name: 'update of a subresource by the body name',
      call: (c) => c.update(csrs, { metadata: { name: 'csr-1', resourceVersion: '7' } }, { subresource: 'approval' }),
      method: 'PUT',
      url: '/apis/certificates.svc.io/v1/certificatesigningrequests/csr-1/approval',
      contentType: 'application/json',
      body: { metadata: { name: 'csr-1', resourceVersion: '7' } },
    },
    {
      name: 'merge patch',
      call: (c) => c.patch(csrs, 'csr-1', 'merge', { metadata: { labels: { a: 'b' } } }),
      method: 'PATCH',
      url: '/apis/certificates.svc.io/v1/certificatesigningrequests/csr-1',
      contentType: 'application/merge-patch+json',
      body: { metadata: { labels: { a: 'b' } } },
    },
    {
      name: 'strategic merge patch',
      call: (c) => c.patch(serviceaccounts, 'a', 'strategic', { secrets: [{ name: 's' }] }, { namespace: 'ns' }),
      method: 'PATCH',
      url: '/api/v1/namespaces/ns/serviceaccounts/a',
      contentType: 'application/strategic-merge-patch+json',
      body: { secrets: [{ name: 's' }] },
    },
    {
      name: 'json patch',
      call: (c) => c.patch(serviceaccounts, 'a', 'json', [{ op: 'add', path: '/metadata/labels', value: {} }], { namespace: 'ns' }),
      method: 'PATCH',
      url: '/api/v1/namespaces/ns/serviceaccounts/a',
      contentType: 'application/json-patch+json',
      body: [{ op: 'add', path: '/metadata/labels', value: {} }],
    },
    {
      name: 'apply patch',
      call: (c) => c.patch(csrs, 'csr-1', 'apply', { apiVersion: 'certificates.svc.io/v1' }, { fieldManager: 'mgr', force: true }),
      method: 'PATCH',
      url: '/apis/certificates.svc.io/v1/certificatesigningrequests/csr-1?fieldManager=mgr&force=true',
      contentType: 'application/apply-patch+yaml',
      body: { apiVersion: 'certificates.svc.io/v1' },
    },
    {
      name: 'delete with options in the body',
      call: (c) => c.delete(serviceaccounts, 'a', { namespace: 'ns', propagationPolicy: 'Background', preconditions: { uid: 'u1' } }),
      method: 'DELETE',
      url: '/api/v1/namespaces/ns/serviceaccounts/a',
      contentType: 'application/json',
      body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'u1' }, propagationPolicy: 'Background' },
    },
    {
      name: 'delete without options has no body',
      call: (c) => c.delete(csrs, 'csr-1'),
      method: 'DELETE',
      url: '/apis/certificates.svc.io/v1/certificatesigningrequests/csr-1',
    },
  ];

  it.each(cases)('$name', async ({ call, method, url, contentType, body }) => {
    const result = await call(client({ token: 'secret-token' }));
    expect(result).toEqual({ kind: 'Thing' });
    expect(seen).toHaveLength(1);
    const s = seen[0];
    expect(s.method).toBe(method);
    expect(s.url).toBe(url);
    expect(s.headers['user-agent']).toBe('svc-controller-manager/v0.1.0');
    expect(s.headers.authorization).toBe('Bearer secret-token');
    expect(s.headers['content-type']).toBe(contentType);
    if (body === undefined) expect(s.body).toBe('');
    else expect(JSON.parse(s.body)).toEqual(body);
  });

  it('refuses a namespace on a cluster-scoped resource and an update without a name', async () => {
    const c = client();
    await expect(c.get(csrs, 'x', { namespace: 'ns' })).rejects.toThrow('cluster-scoped');
    await expect(c.update(csrs, { metadata: {} })).rejects.toThrow('metadata.name');
    expect(seen).toHaveLength(0);
  });

  it('presents the client certificate and reuses one keep-alive connection', async () => {
    const c = client({ cert: clientCert.certPem, key: clientCert.keyPem });
    await c.get(csrs, 'a');
    await c.get(csrs, 'b');
    expect(seen.map((s) => s.clientCN)).toEqual(['client-user', 'client-user']);
    expect(seen[1].remotePort).toBe(seen[0].remotePort);
  });

  it('rejects a server whose certificate it does not trust, unless told to skip verification', async () => {
    const untrusting = new RestClient({ server: base, ca: clientCert.certPem });
    clients.push(untrusting);
    const err = await untrusting.get(csrs, 'a').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClientTransportError);
    expect(seen).toHaveLength(0);
    await expect(client({ ca: undefined, insecureSkipTLSVerify: true }).get(csrs, 'a')).resolves.toEqual({ kind: 'Thing' });
    expect(() => new RestClient({ server: base, ca: serverCert.certPem, insecureSkipTLSVerify: true })).toThrow(
      'specifying a root certificates file with the insecure flag is not allowed',
    );
  });

  it('re-reads a token file once a minute', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'client-token-'));
    try {
      const file = path.join(dir, 'token');
      await fs.writeFile(file, 'first\n');
      const clock = new FakeClock();
      const c = client({ tokenFile: file, clock });
      await c.get(csrs, 'a');
      await fs.writeFile(file, 'second\n');
      await clock.advance(59_000);
      await c.get(csrs, 'a');
      await clock.advance(1_000);
      await c.get(csrs, 'a');
      expect(seen.map((s) => s.headers.authorization)).toEqual(['Bearer first', 'Bearer first', 'Bearer second']);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps a path prefix of the server URL', async () => {
    await client({ server: `${base}/prefix/` }).get(csrs, 'a');
    expect(seen[0].url).toBe('/prefix/apis/certificates.svc.io/v1/certificatesigningrequests/a');
  });
});

describe('RestClient errors', () => {
  const status = (code: number, reason: string, message: string, details?: object) => ({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  });

  const cases: Array<{
    name: string;
    respond: Handler;
    method?: 'get' | 'create';
    code: number;
    reason?: string;
    message: string;
    is: Array<(e: unknown) => boolean>;
    isNot: Array<(e: unknown) => boolean>;
  }> = [
    {
      name: 'NotFound Status',
      respond: (_q, r) => json(r, 404, status(404, 'NotFound', 'serviceaccounts "a" not found', { name: 'a', kind: 'serviceaccounts' })),
      code: 404,
      reason: 'NotFound',
      message: 'serviceaccounts "a" not found',
      is: [isNotFound],
      isNot: [isConflict, isAlreadyExists, isExpired],
    },
    {
      name: 'Conflict Status',
      respond: (_q, r) => json(r, 409, status(409, 'Conflict', 'Operation cannot be fulfilled')),
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled',
      is: [isConflict],
      isNot: [isAlreadyExists, isNotFound],
    },
    {
      name: 'AlreadyExists Status',
      method: 'create',
      respond: (_q, r) => json(r, 409, status(409, 'AlreadyExists', 'serviceaccounts "a" already exists')),
      code: 409,
      reason: 'AlreadyExists',
      message: 'serviceaccounts "a" already exists',
      is: [isAlreadyExists],
      isNot: [isConflict],
    },
    {
      name: 'Expired Status',
      respond: (_q, r) => json(r, 410, status(410, 'Expired', 'too old resource version: 1 (5)')),
      code: 410,
      reason: 'Expired',
      message: 'too old resource version: 1 (5)',
      is: [isExpired, isGone],
      isNot: [isNotFound],
    },
    {
      name: 'Forbidden Status',
      respond: (_q, r) => json(r, 403, status(403, 'Forbidden', 'user "x" cannot get resource')),
      code: 403,
      reason: 'Forbidden',
      message: 'user "x" cannot get resource',
      is: [isForbidden],
      isNot: [isNotFound],
    },
    {
      name: 'a 2xx Status that is a Failure',
      respond: (_q, r) => json(r, 200, status(0, 'Conflict', 'stale')),
      code: 200,
      reason: 'Conflict',
      message: 'stale',
      is: [isConflict],
      isNot: [],
    },
    {
      name: 'plain-text 429 from a proxy',
      respond: (_q, r) => {
        r.writeHead(429, { 'Content-Type': 'text/plain', 'Retry-After': '3' });
        r.end('slow down\n');
      },
      code: 429,
      reason: 'TooManyRequests',
      message: 'the server has received too many requests and has asked us to try again later (get serviceaccounts a)',
      is: [isTooManyRequests],
      isNot: [isNotFound],
    },
    {
      name: 'HTML 404 from a proxy',
      respond: (_q, r) => json(r, 404, '<html>nope</html>', 'text/html'),
      code: 404,
      reason: 'NotFound',
      message: 'the server could not find the requested resource (get serviceaccounts a)',
      is: [isNotFound],
      isNot: [isConflict],
    },
    {
      name: 'plain-text 502',
      respond: (_q, r) => json(r, 502, 'bad gateway', 'text/plain'),
      code: 502,
      reason: 'InternalError',
      message: 'an error on the server ("bad gateway") has prevented the request from succeeding (get serviceaccounts a)',
      is: [],
      isNot: [isNotFound, isConflict],
    },
  ];

  it.each(cases)('$name', async ({ respond, method, code, reason, message, is, isNot }) => {
    handler = respond;
    const c = client();
    const call = method === 'create' ? c.create(serviceaccounts, { metadata: { name: 'a', namespace: 'ns' } }) : c.get(serviceaccounts, 'a', { namespace: 'ns' });
    const err = await call.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClientApiError);
    const e = err as ClientApiError;
    expect(e.code).toBe(code);
    expect(e.reason).toBe(reason);
    expect(e.message).toBe(message);
    for (const p of is) expect(p(e)).toBe(true);
    for (const p of isNot) expect(p(e)).toBe(false);
  });

  it('carries details and Retry-After of synthesised errors', async () => {
    handler = (_q, r) => {
      r.writeHead(429, { 'Content-Type': 'text/plain', 'Retry-After': '3' });
      r.end('slow down\n');
    };
    const e = (await client().get(serviceaccounts, 'a', { namespace: 'ns' }).catch((x: unknown) => x)) as ClientApiError;
    expect(e.details).toEqual({ kind: 'serviceaccounts', name: 'a', causes: [{ reason: 'UnexpectedServerResponse', message: 'slow down' }], retryAfterSeconds: 3 });
  });

  it('reports a refused connection as a transport error', async () => {
    const probe = https.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const err = await client({ server: `https://127.0.0.1:${port}` }).get(csrs, 'a').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClientTransportError);
    expect((err as ClientTransportError).code).toBe('ECONNREFUSED');
    expect(isConnectionRefused(err)).toBe(true);
    expect(isNotFound(err)).toBe(false);
  });

  it('times a request out', async () => {
    handler = () => undefined; // never answers
    const err = await client({ timeoutMs: 100 }).get(csrs, 'a').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClientTransportError);
    expect((err as ClientTransportError).code).toBe('ETIMEDOUT');
  });

  it('aborts a request on its signal', async () => {
    handler = () => undefined;
    const ac = new AbortController();
    const pending = client().get(csrs, 'a', { signal: ac.signal }).catch((e: unknown) => e);
    setTimeout(() => ac.abort(), 20);
    const err = await pending;
    expect(err).toBeInstanceOf(ClientTransportError);
    expect((err as ClientTransportError).code).toBe('ABORT_ERR');
  });
});

describe('RestClient raw requests', () => {
  it('returns JSON parsed and text as text', async () => {
    handler = (req, res) => (req.url === '/apis' ? json(res, 200, { kind: 'APIGroupList', groups: [] }) : json(res, 200, 'ok', 'text/plain; charset=utf-8'));
    const c = client();
    await expect(c.request('GET', '/apis')).resolves.toEqual({ kind: 'APIGroupList', groups: [] });
    await expect(c.request('GET', '/healthz')).resolves.toBe('ok');
  });

  it('sends an object body as JSON', async () => {
    handler = (_q, r, body) => json(r, 201, JSON.parse(body));
    await expect(client().request('POST', '/apis/authentication.svc.io/v1/tokenreviews', { spec: { token: 't' } })).resolves.toEqual({ spec: { token: 't' } });
    expect(seen[0].headers['content-type']).toBe('application/json');
  });
});

describe('RestClient watch', () => {
  /** Writes `text` in chunks of `size` bytes, yielding between them so they arrive separately. */
  async function writeChunked(res: ServerResponse, text: string, size: number): Promise<void> {
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += size) {
      res.write(bytes.subarray(i, i + size));
      await new Promise((r) => setImmediate(r));
    }
  }

  async function collect(it: AsyncIterable<WatchEvent>): Promise<{ events: WatchEvent[]; error?: unknown }> {
    const events: WatchEvent[] = [];
    try {
      for await (const e of it) events.push(e);
    } catch (error) {
      return { events, error };
    }
    return { events };
  }

  const lines = [
    { type: 'ADDED', object: { kind: 'ServiceAccount', metadata: { name: 'ünïcødé-☃', resourceVersion: '11' } } },
    { type: 'MODIFIED', object: { kind: 'ServiceAccount', metadata: { name: 'b', resourceVersion: '12' }, note: 'braces } { and "quotes\\" in strings' } },
    { type: 'BOOKMARK', object: { kind: 'ServiceAccount', metadata: { resourceVersion: '15' } } },
    { type: 'DELETED', object: { kind: 'ServiceAccount', metadata: { name: 'b', resourceVersion: '16' } } },
  ];

  it.each([1, 3, 7, 1000])('parses events split into %i-byte chunks', async (size) => {
    handler = async (_q, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json;stream=watch' });
      await writeChunked(res, lines.map((l) => JSON.stringify(l) + '\n').join(''), size);
      res.end();
    };
    const w = await client().watch(serviceaccounts, { namespace: 'ns', resourceVersion: '10', allowWatchBookmarks: true, timeoutSeconds: 300 });
    const { events, error } = await collect(w);
    expect(error).toBeUndefined();
    expect(events).toEqual(lines);
    expect(seen[0].url).toBe('/api/v1/namespaces/ns/serviceaccounts?watch=true&resourceVersion=10&timeoutSeconds=300&allowWatchBookmarks=true');
  });

  it('accepts documents that are not newline-separated', async () => {
    handler = (_q, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(lines.map((l) => JSON.stringify(l, null, 2)).join(' '));
    };
    const { events } = await collect(await client().watch(serviceaccounts));
    expect(events).toEqual(lines);
  });

  it('throws an ERROR event as ClientApiError after the events before it', async () => {
    handler = (_q, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(JSON.stringify(lines[0]) + '\n');
      res.end(
        JSON.stringify({
          type: 'ERROR',
          object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (5)', reason: 'Expired', code: 410 },
        }) + '\n',
      );
    };
    const { events, error } = await collect(await client().watch(serviceaccounts));
    expect(events).toEqual([lines[0]]);
    expect(error).toBeInstanceOf(ClientApiError);
    expect(isExpired(error)).toBe(true);
    expect((error as ClientApiError).message).toBe('too old resource version: 1 (5)');
  });

  it('rejects the watch call itself when the server refuses it', async () => {
    handler = (_q, r) => json(r, 403, status403);
    const err = await client().watch(serviceaccounts).catch((e: unknown) => e);
    expect(isForbidden(err)).toBe(true);
  });
  const status403 = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'no', reason: 'Forbidden', code: 403 };

  it('ends quietly when the connection drops, and on stop()', async () => {
    handler = (_q, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(JSON.stringify(lines[0]) + '\n');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    const dropped = await collect(await client().watch(serviceaccounts));
    expect(dropped).toEqual({ events: [lines[0]] });

    handler = (_q, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(JSON.stringify(lines[0]) + '\n');
    };
    const w = await client().watch(serviceaccounts);
    const received: WatchEvent[] = [];
    for await (const e of w) {
      received.push(e);
      w.stop();
    }
    expect(received).toEqual([lines[0]]);
  });

  it('delivers a burst larger than its buffer completely and in order', async () => {
    const n = 3000;
    handler = (_q, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      let text = '';
      for (let i = 0; i < n; i++) text += JSON.stringify({ type: 'MODIFIED', object: { metadata: { name: 'a', resourceVersion: String(i) } } }) + '\n';
      res.end(text);
    };
    const rvs: string[] = [];
    for await (const e of await client().watch(serviceaccounts)) {
      rvs.push(e.object.metadata?.resourceVersion ?? '');
      if (rvs.length % 500 === 0) await new Promise((r) => setTimeout(r, 1)); // a slow consumer
    }
    expect(rvs).toEqual(Array.from({ length: n }, (_, i) => String(i)));
  });

  it('throws on bytes that are not JSON', async () => {
    handler = (_q, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(lines[0]) + '\nnot json\n');
    };
    const { events, error } = await collect(await client().watch(serviceaccounts));
    expect(events).toEqual([lines[0]]);
    expect((error as Error).message).toMatch(/invalid character "n" looking for beginning of value/);
  });
});

describe('RestClient.listWatch', () => {
  it('feeds an Informer: scoped list, watch from its RV, resume from the last bookmark', async () => {
    handler = (req, res) => {
      const u = new URL(req.url ?? '', 'https://x');
      if (u.searchParams.get('watch') !== 'true') {
        json(res, 200, { apiVersion: 'v1', kind: 'ServiceAccountList', metadata: { resourceVersion: '5' }, items: [{ metadata: { name: 'a', namespace: 'ns', resourceVersion: '4' } }] });
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      if (u.searchParams.get('resourceVersion') === '5') {
        res.write(JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'b', namespace: 'ns', resourceVersion: '6' } } }) + '\n');
        res.end(JSON.stringify({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '8' } } }) + '\n');
      } // later watches stay open
    };
    const informer = new Informer({ listWatch: client().listWatch(serviceaccounts, { namespace: 'ns', labelSelector: 'app=x' }) });
    informer.start();
    expect(await informer.waitForSync()).toBe(true);
    const deadline = Date.now() + 5000;
    while (seen.filter((s) => s.url.includes('watch=true')).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await informer.stop();
    expect(seen.map((s) => s.url.replace(/timeoutSeconds=\d+/, 'timeoutSeconds=T'))).toEqual([
      '/api/v1/namespaces/ns/serviceaccounts?labelSelector=app%3Dx&resourceVersion=0&limit=500',
      '/api/v1/namespaces/ns/serviceaccounts?watch=true&labelSelector=app%3Dx&resourceVersion=5&timeoutSeconds=T&allowWatchBookmarks=true',
      '/api/v1/namespaces/ns/serviceaccounts?watch=true&labelSelector=app%3Dx&resourceVersion=8&timeoutSeconds=T&allowWatchBookmarks=true',
    ]);
    expect(informer.keys().sort()).toEqual(['ns/a', 'ns/b']);
  });
});
