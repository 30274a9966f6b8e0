// The transport against a scripted HTTP/2 server (node:http2), for what a real etcd does not do
// on demand: trailers-only errors, refused streams, connections dropped mid-call, GOAWAY,
// unanswered pings (keepalive's, and the probe of a stalled call or watch), non-gRPC HTTP answers. The pool's retry rules are checked here too: a read
// is sent again after any UNAVAILABLE, a write only when it surely never reached the server.
import * as http2 from 'node:http2';
import { connect, createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { EndpointPool, isCompactedError, toStorageError } from '../etcd3Pool';
import { WatchMux } from '../etcd3Watch';
import { logRecords, type LogRecords } from '../testing/logRecords';
import { StorageError, UnavailableError } from '../storage';
import { frameMessage } from './grpcFrame';
import { GrpcError, GrpcStatus } from './grpcStatus';
import { Http2Connection } from './http2Connection';
import { ProtoWriter } from '../../protowire/writer';
import { unaryCall } from './unaryCall';
import { readRangeResponse } from './kvMessages';

type Handler = (stream: http2.ServerHttp2Stream, n: number) => void;

/** An h2c server whose n-th request (1-based, counted over all connections) runs handler. */
async function fakeServer(handler: Handler): Promise<{ url: string; requests: () => number; sessions: () => number; close: () => Promise<void> }> {
  let requests = 0;
  let sessions = 0;
  const open = new Set<http2.ServerHttp2Session>();
  const server = http2.createServer();
  server.on('session', (s) => {
    sessions++;
    open.add(s);
    s.on('close', () => open.delete(s));
    s.on('error', () => undefined);
  });
  server.on('stream', (stream) => {
    stream.on('error', () => undefined);
    const n = ++requests;
    // Answer once the request body is in, as etcd does.
    stream.on('data', () => undefined);
    stream.on('end', () => handler(stream, n));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    sessions: () => sessions,
    close: () =>
      new Promise<void>((r) => {
        for (const s of open) s.destroy();
        server.close(() => r());
      }),
  };
}

/** A RangeResponse with header.revision = rev, framed. */
function rangeResponse(rev: number): Buffer {
  return frameMessage((w: ProtoWriter, r: number) => {
    const m = w.begin(1);
    w.tag(3, 0);
    w.int64(r);
    w.end(m);
  }, rev);
}

const ok = (rev: number): Handler => (stream) => {
  stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
  stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
  stream.end(rangeResponse(rev));
};

const servers: Array<{ close: () => Promise<void> }> = [];
const pools: EndpointPool[] = [];
afterEach(async () => {
  for (const p of pools.splice(0)) p.close();
  for (const s of servers.splice(0)) await s.close();
});

async function setup(handler: Handler, timeoutMs = 5000): Promise<{ pool: EndpointPool; srv: Awaited<ReturnType<typeof fakeServer>> }> {
  const srv = await fakeServer(handler);
  servers.push(srv);
  const pool = new EndpointPool([srv.url], timeoutMs);
  pools.push(pool);
  return { pool, srv };
}

const rangeReq = { key: Buffer.from('/k') };
const txnReq = { compare: [], success: [{ request_put: { key: Buffer.from('/k'), value: Buffer.from('v') } }], failure: [] };

test('a unary call decodes the answer', async () => {
  const { pool } = await setup(ok(7));
  await expect(pool.unary('Range', rangeReq, 'read')).resolves.toEqual({ header: { revision: 7 }, kvs: [], more: false, count: 0 });
});

test('request headers: path, content-type, te, grpc-timeout', async () => {
  let headers: http2.IncomingHttpHeaders = {};
  const server = http2.createServer();
  server.on('stream', (stream, h) => {
    headers = h;
    stream.on('data', () => undefined);
    stream.on('end', () => ok(1)(stream, 1));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const pool = new EndpointPool([`http://127.0.0.1:${(server.address() as { port: number }).port}`], 5000);
  await pool.unary('Txn', txnReq, 'write');
  pool.close();
  await new Promise((r) => server.close(r));
  expect(headers[':method']).toBe('POST');
  expect(headers[':path']).toBe('/etcdserverpb.KV/Txn');
  expect(headers['content-type']).toBe('application/grpc');
  expect(headers.te).toBe('trailers');
  expect(headers['grpc-timeout']).toMatch(/^\d+m$/);
  expect(Number(headers['grpc-timeout']!.toString().slice(0, -1))).toBeLessThanOrEqual(5000);
});

test("a trailers-only error keeps etcd's code and message (compacted → CompactedError path; others → StorageError)", async () => {
  const { pool } = await setup((stream) => {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '11', 'grpc-message': 'etcdserver: mvcc: required revision has been compacted' }, { endStream: true });
  });
  const err = await pool.unary('Range', rangeReq, 'read').catch((e: unknown) => e);
  expect(err).toBeInstanceOf(GrpcError);
  expect((err as GrpcError).code).toBe(GrpcStatus.OUT_OF_RANGE);
  expect(isCompactedError(err)).toBe(true);
  const mapped = toStorageError(err, '/k');
  expect(mapped).toBeInstanceOf(StorageError);
  expect(mapped).not.toBeInstanceOf(UnavailableError);
  expect(mapped.message).toBe('etcd: etcdserver: mvcc: required revision has been compacted');
});

test('an error status in trailers after headers', async () => {
  const { pool } = await setup((stream) => {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '3', 'grpc-message': 'etcdserver: key is not provided' }));
    stream.end();
  });
  const err = (await pool.unary('Range', rangeReq, 'read').catch((e: unknown) => e)) as GrpcError;
  expect([err.code, err.details]).toEqual([GrpcStatus.INVALID_ARGUMENT, 'etcdserver: key is not provided']);
});

test('HTTP 503 without grpc-status is UNAVAILABLE (a read retries until its deadline, then UnavailableError)', async () => {
  const { pool, srv } = await setup((stream) => {
    stream.respond({ ':status': 503 }, { endStream: true });
  }, 600);
  const err = await pool.unary('Range', rangeReq, 'read').catch((e: unknown) => e);
  expect((err as GrpcError).code).toBe(GrpcStatus.UNAVAILABLE);
  expect(toStorageError(err)).toBeInstanceOf(UnavailableError);
  expect(srv.requests()).toBeGreaterThan(1);
});

test('a stream refused by the server: a write is sent again (it never reached etcd)', async () => {
  const { pool, srv } = await setup((stream, n) => {
    if (n === 1) stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
    else ok(9)(stream, n);
  });
  await expect(pool.unary('Txn', txnReq, 'write')).resolves.toMatchObject({ header: { revision: 9 } });
  expect(srv.requests()).toBe(2);
});

test('a connection dropped mid-call: UNAVAILABLE; a write is not sent again, a read is', async () => {
  const drop: Handler = (stream, n) => {
    if (n === 1) stream.session?.destroy();
    else ok(3)(stream, n);
  };
  const w = await setup(drop);
  const err = await w.pool.unary('Txn', txnReq, 'write').catch((e: unknown) => e);
  expect((err as GrpcError).code).toBe(GrpcStatus.UNAVAILABLE);
  expect((err as GrpcError).unprocessed).toBe(false);
  expect(toStorageError(err)).toBeInstanceOf(UnavailableError);
  expect(w.srv.requests()).toBe(1);

  const r = await setup(drop);
  await expect(r.pool.unary('Range', rangeReq, 'read')).resolves.toMatchObject({ header: { revision: 3 } });
  expect(r.srv.requests()).toBe(2);
  expect(r.srv.sessions()).toBe(2); // reconnected
});

test('a server RST_STREAM mid-call (CANCEL) maps as grpc-js: CANCELLED → UnavailableError, not retried', async () => {
  const { pool, srv } = await setup((stream) => stream.close(http2.constants.NGHTTP2_CANCEL));
  const err = await pool.unary('Range', rangeReq, 'read').catch((e: unknown) => e);
  expect((err as GrpcError).code).toBe(GrpcStatus.CANCELLED);
  expect(toStorageError(err)).toBeInstanceOf(UnavailableError);
  expect(srv.requests()).toBe(1);
});

test('no answer: DEADLINE_EXCEEDED at the deadline → UnavailableError', async () => {
  const { pool } = await setup(() => undefined, 300);
  const err = await pool.unary('Range', rangeReq, 'read').catch((e: unknown) => e);
  expect((err as GrpcError).code).toBe(GrpcStatus.DEADLINE_EXCEEDED);
  expect(toStorageError(err)).toBeInstanceOf(UnavailableError);
});

test('GOAWAY: calls after it go over a new connection', async () => {
  const { pool, srv } = await setup((stream, n) => {
    ok(n)(stream, n);
    if (n === 1) stream.session?.goaway(http2.constants.NGHTTP2_NO_ERROR);
  });
  expect((await pool.unary('Range', rangeReq, 'read')).header.revision).toBe(1);
  await new Promise((r) => setTimeout(r, 50));
  expect((await pool.unary('Range', rangeReq, 'read')).header.revision).toBe(2);
  expect(srv.sessions()).toBe(2);
});

describe('keepalive', () => {
  let tcp: TcpServer;
  const sockets = new Set<Socket>();
  afterEach(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => tcp.close(r));
  });

  test('a peer cut off after connecting (no RST, no FIN): the call fails UNAVAILABLE when the ping goes unanswered, long before its deadline', async () => {
    const srv = await fakeServer(() => undefined); // takes the call, never answers it
    servers.push(srv);
    // A TCP proxy to it that can stop forwarding in both directions, as a cut network link does.
    let cut = false;
    const target = new URL(srv.url);
    tcp = createTcpServer((client) => {
      const upstream = connect(Number(target.port), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('error', () => undefined);
      }
      client.on('data', (d) => void (cut || upstream.write(d)));
      upstream.on('data', (d) => void (cut || client.write(d)));
    });
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
    const conn = new Http2Connection(`http://127.0.0.1:${(tcp.address() as { port: number }).port}`, { keepaliveTimeMs: 100, keepaliveTimeoutMs: 100 });
    try {
      await new Promise<void>((resolve, reject) => conn.waitForReady(Date.now() + 5000, (err) => (err ? reject(err) : resolve())));
      cut = true;
      const body = frameMessage((w: ProtoWriter) => w.tag(1, 2), undefined);
      const err = await unaryCall(conn, '/etcdserverpb.KV/Range', body, readRangeResponse, Date.now() + 60_000).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GrpcError);
      expect((err as GrpcError).code).toBe(GrpcStatus.UNAVAILABLE);
      expect((err as GrpcError).details).toMatch(/keepalive/);
      expect(conn.connectivity(false)).not.toBe('ready');
    } finally {
      conn.close();
    }
  });

  test('a peer that accepts TCP but never speaks HTTP/2 is never READY', async () => {
    tcp = createTcpServer((s) => {
      sockets.add(s);
      s.on('data', () => undefined);
      s.on('error', () => undefined);
    });
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
    const conn = new Http2Connection(`http://127.0.0.1:${(tcp.address() as { port: number }).port}`);
    try {
      const err = await new Promise<Error | undefined>((resolve) => conn.waitForReady(Date.now() + 300, resolve));
      expect(err?.message).toMatch(/not connected before the deadline/);
    } finally {
      conn.close();
    }
  });
});

describe('a member that stops answering without closing its connection (SIGSTOP, docker kill)', () => {
  const proxies: TcpServer[] = [];
  const sockets = new Set<Socket>();
  afterEach(async () => {
    for (const s of sockets) s.destroy();
    sockets.clear();
    for (const p of proxies.splice(0)) await new Promise((r) => p.close(r));
  });

  /** A TCP proxy to url that can go silent in both directions, keeping its connections open. */
  async function silenceable(url: string): Promise<{ url: string; silence: () => void }> {
    let silent = false;
    const target = new URL(url);
    const tcp = createTcpServer((client) => {
      const upstream = connect(Number(target.port), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('error', () => undefined);
      }
      client.on('data', (d) => void (silent || upstream.write(d)));
      upstream.on('data', (d) => void (silent || client.write(d)));
    });
    proxies.push(tcp);
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
    return { url: `http://127.0.0.1:${(tcp.address() as { port: number }).port}`, silence: () => (silent = true) };
  }

  /** Polls until cond() holds (a bounded number of times: a hang fails the test, nothing is timed). */
  async function until(cond: () => boolean): Promise<void> {
    for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(cond()).toBe(true);
  }

  /** Two endpoints, the first through a proxy that can go silent; both connected; the next call goes to the first. */
  async function twoEndpoints(firstHandler: Handler): Promise<{
    pool: EndpointPool;
    first: Awaited<ReturnType<typeof fakeServer>>;
    second: Awaited<ReturnType<typeof fakeServer>>;
    silence: () => void;
    logs: LogRecords;
  }> {
    const first = await fakeServer(firstHandler);
    const second = await fakeServer(ok(5));
    servers.push(first, second);
    const proxy = await silenceable(first.url);
    const logs = logRecords('etcd');
    // Short stall and probe times so the test is quick; the logic is the same as with 1 s.
    const pool = new EndpointPool([proxy.url, second.url], 20_000, undefined, undefined, logs.log, { stalledAfterMs: 50, probeTimeoutMs: 100 });
    pools.push(pool);
    for (const ep of pool.endpoints) await new Promise<void>((resolve, reject) => ep.conn.waitForReady(Date.now() + 5000, (err) => (err ? reject(err) : resolve())));
    return { pool, first, second, silence: proxy.silence, logs };
  }

  const silenceWarnings = (logs: LogRecords): Array<Record<string, unknown>> => logs.records.filter((r) => r.level === 40 && /gave no answer to a ping/.test(String(r.msg)));

  test('a write stalled on it fails UNAVAILABLE (maybe applied: not sent again) once a ping goes unanswered; the next call goes to another member', async () => {
    // etcd has the write, then goes silent.
    let received = (): void => undefined;
    const { pool, first, second, silence, logs } = await twoEndpoints(() => received());
    received = silence;
    const err = await pool.unary('Txn', txnReq, 'write').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GrpcError);
    expect((err as GrpcError).code).toBe(GrpcStatus.UNAVAILABLE);
    expect((err as GrpcError).unprocessed).toBe(false);
    expect((err as GrpcError).details).toMatch(/no answer to ping within 0\.1 s from http:\/\/127\.0\.0\.1:\d+/);
    expect(toStorageError(err)).toBeInstanceOf(UnavailableError);
    expect(first.requests()).toBe(1);
    expect(second.requests()).toBe(0);
    expect(pool.endpoints[0].conn.connectivity(false)).not.toBe('ready');
    await expect(pool.unary('Txn', txnReq, 'write')).resolves.toMatchObject({ header: { revision: 5 } });
    expect(second.requests()).toBe(1);
    // Logged once, at warn, naming the endpoint, the cause and since when it was silent.
    const warned = silenceWarnings(logs);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ endpoint: pool.endpoints[0].url, error: expect.stringMatching(/no answer to ping within 0\.1 s/), pingSentAt: expect.any(String) });
  });

  test('a read stalled on it is sent again to another member', async () => {
    const { pool, second, silence, logs } = await twoEndpoints(() => undefined);
    silence();
    await expect(pool.unary('Range', rangeReq, 'read')).resolves.toMatchObject({ header: { revision: 5 } });
    expect(second.requests()).toBe(1);
    expect(silenceWarnings(logs)).toHaveLength(1);
  });

  test('a member that answers pings is not given up, however slow its calls', async () => {
    let answer: (() => void) | undefined;
    const { pool, first, logs } = await twoEndpoints((stream, n) => {
      answer = () => ok(8)(stream, n);
    });
    const call = pool.unary('Txn', txnReq, 'write');
    await until(() => answer !== undefined);
    // Past the stall time and the probe's deadline: the ping was answered, the call still waits.
    await new Promise((r) => setTimeout(r, 400));
    answer!();
    await expect(call).resolves.toMatchObject({ header: { revision: 8 } });
    expect(first.sessions()).toBe(1);
    expect(silenceWarnings(logs)).toHaveLength(0);
  });

  test('the watch stream on it resumes on another member when a progress request goes unanswered', async () => {
    const { pool, first, second, silence } = await twoEndpoints(() => undefined);
    const mux = new WatchMux(pool);
    try {
      mux.watch('/k', {}, { onEvents: () => undefined, onError: () => undefined });
      await until(() => first.requests() === 1);
      silence();
      mux.requestProgress();
      await until(() => second.requests() === 1);
      expect(mux.streamsOpened).toBe(2);
    } finally {
      mux.close();
    }
  });
});

describe('calls a lost member holds up on the others (a follower waiting on a vanished leader)', () => {
  async function setupTwo(secondHandler: Handler): Promise<{ pool: EndpointPool; first: Awaited<ReturnType<typeof fakeServer>>; second: Awaited<ReturnType<typeof fakeServer>> }> {
    const first = await fakeServer(ok(1));
    const second = await fakeServer(secondHandler);
    servers.push(first, second);
    const pool = new EndpointPool([first.url, second.url], 20_000, undefined, undefined, undefined, { stalledAfterMs: 60_000, abandonAfterMs: 100, noticeMs: 100 });
    pools.push(pool);
    for (const ep of pool.endpoints) await new Promise<void>((resolve, reject) => ep.conn.waitForReady(Date.now() + 5000, (err) => (err ? reject(err) : resolve())));
    await pool.unary('Range', rangeReq, 'read'); // to the first: the next call goes to the second
    return { pool, first, second };
  }

  test('a write waiting on another member when one is lost is abandoned: UNAVAILABLE, outcome unknown, not sent again', async () => {
    let held = (): void => undefined;
    const { pool, first, second } = await setupTwo(() => held());
    const arrived = new Promise<void>((r) => (held = r));
    const call = pool.unary('Txn', txnReq, 'write').catch((e: unknown) => e);
    await arrived;
    await first.close(); // the first member's connection is reset
    const err = await call;
    expect(err).toBeInstanceOf(GrpcError);
    expect((err as GrpcError).code).toBe(GrpcStatus.UNAVAILABLE);
    expect((err as GrpcError).unprocessed).toBe(false);
    expect((err as GrpcError).details).toMatch(new RegExp(`^abandoned after .* s: etcd member ${first.url} was lost at `));
    expect(toStorageError(err)).toBeInstanceOf(UnavailableError);
    expect(second.requests()).toBe(1);
  });

  test('a read waiting on another member when one is lost is abandoned and sent again', async () => {
    let held = (): void => undefined;
    const { pool, first, second } = await setupTwo((stream, n) => (n === 1 ? held() : ok(6)(stream, n)));
    const arrived = new Promise<void>((r) => (held = r));
    const call = pool.unary('Range', rangeReq, 'read');
    await arrived;
    await first.close();
    await expect(call).resolves.toMatchObject({ header: { revision: 6 } });
    expect(second.requests()).toBe(2);
  });
});
