import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { FeatureGates } from '../api/featureGates';
import type { Authenticator } from '../auth';
import { errors } from '../machinery/errors';
import { createDispatcher, unauthenticatedLogUser } from './dispatch';
import { ServerLifecycle } from './lifecycle';
import { ApiServerMetrics } from './metrics';
import { ResourceTable } from './resourceTable';

/** A dispatcher over no resources whose /version answers 200; the request log is captured. */
async function serve(anonymousEnabled: boolean) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  const authenticator: Authenticator = {
    authenticate: async (req) => {
      const auth = req.headers.authorization;
      if (auth === 'Bearer good') return { name: 'alice', groups: ['system:authenticated'] };
      if (auth) throw errors.unauthorized();
      return null;
    },
  };
  const dispatch = createDispatcher({
    resources: new ResourceTable([]),
    authenticator,
    authorizer: { authorize: () => ({ decision: 'allow', reason: '' }) },
    anonymousEnabled,
    nonResource: async (req, res) => {
      res.statusCode = req.url?.includes('fail=1') ? 503 : 200;
      res.end('ok');
    },
    metrics: new ApiServerMetrics(),
    features: FeatureGates.parse(''),
    log: pino({ level: 'debug' }, sink),
    maxRequestBodyBytes: 1 << 20,
    requestTimeoutMs: 60_000,
  });
  const server = http.createServer(dispatch);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const get = (authorization?: string, path = '/version'): Promise<number> =>
    new Promise((resolve, reject) => {
      const { port } = server.address() as AddressInfo;
      http
        .get({ port, host: '127.0.0.1', path, agent: false, headers: authorization ? { authorization } : {} }, (r) => {
          r.resume();
          r.on('end', () => resolve(r.statusCode ?? 0));
        })
        .on('error', reject);
    });
  return { lines, get, close: () => new Promise((r) => server.close(r)) };
}

describe('the request log line names the user', () => {
  test.each<[string, boolean, string | undefined, number, string]>([
    ['a rejected bearer token is not system:anonymous', true, 'Bearer bad', 401, unauthenticatedLogUser],
    ['no credentials with anonymous disabled', false, undefined, 401, unauthenticatedLogUser],
    ['no credentials with anonymous enabled', true, undefined, 200, 'system:anonymous'],
    ['an authenticated user', true, 'Bearer good', 200, 'alice'],
  ])('%s', async (_n, anonymous, authorization, code, user) => {
    const s = await serve(anonymous);
    try {
      expect(await s.get(authorization)).toBe(code);
      const line = s.lines.find((l) => l.msg === 'request');
      expect(line).toMatchObject({ code, user, path: '/version' });
    } finally {
      await s.close();
    }
  });
});

describe('passing health probes are logged at debug, failing ones and other requests at info', () => {
  test.each<[string, number, number]>([
    ['/readyz', 200, 20],
    ['/livez/ping', 200, 20],
    ['/healthz?verbose', 200, 20],
    ['/readyz?fail=1', 503, 30],
    ['/version', 200, 30],
  ])('%s', async (path, code, level) => {
    const s = await serve(true);
    try {
      expect(await s.get(undefined, path)).toBe(code);
      expect(s.lines.find((l) => l.msg === 'request')).toMatchObject({ code, level });
    } finally {
      await s.close();
    }
  });
});

test('a request answered by the request timeout no longer holds the shutdown drain', async () => {
  const lifecycle = new ServerLifecycle({ shutdownDelayMs: 0, sendRetryAfter: false, watchTerminationGraceMs: 0 });
  let entered!: () => void;
  const handlerEntered = new Promise<void>((r) => (entered = r));
  const dispatch = createDispatcher({
    resources: new ResourceTable([]),
    authenticator: { authenticate: async () => ({ name: 'alice', groups: ['system:authenticated'] }) },
    authorizer: { authorize: () => ({ decision: 'allow', reason: '' }) },
    anonymousEnabled: false,
    // A handler that never finishes, like one reading a body the client stopped sending.
    nonResource: () => {
      entered();
      return new Promise<void>(() => undefined);
    },
    metrics: new ApiServerMetrics(),
    features: FeatureGates.parse(''),
    log: pino({ level: 'silent' }),
    maxRequestBodyBytes: 1 << 20,
    requestTimeoutMs: 60_000,
    lifecycle,
  });
  const server = http.createServer(dispatch);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  try {
    const { port } = server.address() as AddressInfo;
    const status = new Promise<number>((resolve, reject) => {
      http.get({ port, host: '127.0.0.1', path: '/version?timeout=50ms', agent: false }, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      }).on('error', reject);
    });
    await handlerEntered;
    expect(lifecycle.nonLongRunning.count).toBe(1);
    expect(await status).toBe(504);
    expect(lifecycle.nonLongRunning.count).toBe(0);
    await lifecycle.nonLongRunning.wait(); // resolves: nothing in flight is counted
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

describe('every 5xx request log line names its cause', () => {
  /** A dispatcher whose only route is nonResource; its request log is captured. */
  async function serveWith(nonResource: Parameters<typeof createDispatcher>[0]['nonResource'], storageCondition?: () => string | undefined) {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
        cb();
      },
    });
    const dispatch = createDispatcher({
      resources: new ResourceTable([]),
      authenticator: { authenticate: async () => ({ name: 'alice', groups: ['system:authenticated'] }) },
      authorizer: { authorize: () => ({ decision: 'allow', reason: '' }) },
      anonymousEnabled: false,
      nonResource,
      metrics: new ApiServerMetrics(),
      features: FeatureGates.parse(''),
      log: pino({}, sink),
      maxRequestBodyBytes: 1 << 20,
      requestTimeoutMs: 60_000,
      storageCondition,
    });
    const server = http.createServer(dispatch);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const get = (path: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const { port } = server.address() as AddressInfo;
        http
          .get({ port, host: '127.0.0.1', path, agent: false }, (r) => {
            r.resume();
            r.on('end', () => resolve(r.statusCode ?? 0));
          })
          .on('error', reject);
      });
    const requestLine = async (): Promise<Record<string, unknown>> => {
      // The line is written when the handler has finished, which may be after the response.
      for (let i = 0; i < 200 && !lines.some((l) => l.msg === 'request'); i++) await new Promise((r) => setTimeout(r, 5));
      return lines.find((l) => l.msg === 'request') ?? {};
    };
    return { get, requestLine, close: () => new Promise((r) => server.close(r)) };
  }

  const unavailable = Object.assign(errors.serverTimeout({ group: '', resource: 'namespaces' }, 'get'), { cause: new Error('etcd unavailable: no endpoint of http://127.0.0.1:2379 ready within 60000 ms') });
  test.each<[string, () => Promise<void>, number, string | undefined]>([
    ['a Status with the storage error behind it', () => Promise.reject(unavailable), 500, 'etcd unavailable: no endpoint of http://127.0.0.1:2379 ready within 60000 ms'],
    ['a Status alone: its message', () => Promise.reject(errors.internal('stored object is corrupt')), 500, 'Internal error occurred: stored object is corrupt'],
    ['an error that is no Status', () => Promise.reject(new Error('boom')), 500, 'boom'],
    ['a 503 refusal', () => Promise.reject(errors.serviceUnavailable('apiserver is shutting down')), 503, 'apiserver is shutting down'],
    ['a 4xx has none', () => Promise.reject(errors.badRequest('nope')), 400, undefined],
  ])('%s', async (_name, fail, code, cause) => {
    const s = await serveWith(() => fail());
    try {
      expect(await s.get('/version')).toBe(code);
      const line = await s.requestLine();
      expect(line.code).toBe(code);
      expect(line.cause).toBe(cause);
    } finally {
      await s.close();
    }
  });

  test('a request answered by the timeout names what storage is going through', async () => {
    let finish!: () => void;
    const s = await serveWith(
      () => new Promise<void>((r) => (finish = r)),
      () => 'etcd unreachable since 2026-12-02T04:31:07.412Z (3.0 s): http://127.0.0.1:2379: connect ECONNREFUSED 127.0.0.1:2379',
    );
    try {
      expect(await s.get('/version?timeout=50ms')).toBe(504);
      finish();
      expect(await s.requestLine()).toMatchObject({
        code: 504,
        cause: 'the handler had not finished after 50 ms; etcd unreachable since 2026-12-02T04:31:07.412Z (3.0 s): http://127.0.0.1:2379: connect ECONNREFUSED 127.0.0.1:2379',
      });
    } finally {
      await s.close();
    }
  });

  test('a request answered by the timeout while storage is fine says only that', async () => {
    let finish!: () => void;
    const s = await serveWith(() => new Promise<void>((r) => (finish = r)), () => undefined);
    try {
      expect(await s.get('/version?timeout=50ms')).toBe(504);
      finish();
      expect((await s.requestLine()).cause).toBe('the handler had not finished after 50 ms');
    } finally {
      await s.close();
    }
  });
});
