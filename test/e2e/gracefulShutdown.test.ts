// Graceful shutdown through the real processes: two replicas on one etcd. SIGTERM on one makes
// its /readyz fail while it still serves; in-flight requests finish; its watches end cleanly so a
// client resumes on the other replica from its last resourceVersion without losing an event; with
// --shutdown-send-retry-after new requests get upstream's 429; the process exits 0.
import * as https from 'node:https';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { ApiServerProcess, eventually, freePort, startCluster, TestCluster } from './support/apiserver';

jest.setTimeout(90_000);

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on a fresh connection (no pooled socket), so a closed listener shows as ECONNREFUSED. */
function raw(s: ApiServerProcess, method: string, path: string, body?: unknown): Promise<Raw> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = https.request(`${s.url}${path}`, {
      method,
      agent: false,
      ...s.adminTls(),
      headers: payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {},
    });
    req.on('response', (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => resolve({ status: r.statusCode ?? 0, headers: r.headers, body: Buffer.concat(chunks).toString('utf8') }));
      r.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** A create whose body arrives in two halves: in flight from the first half until finish(). */
function slowCreate(s: ApiServerProcess, path: string, body: unknown): { finish(): Promise<Raw> } {
  const payload = Buffer.from(JSON.stringify(body));
  const half = Math.floor(payload.length / 2);
  let response: Promise<Raw>;
  const req = https.request(`${s.url}${path}`, { method: 'POST', agent: false, ...s.adminTls(), headers: { 'Content-Type': 'application/json', 'Content-Length': payload.length } });
  response = new Promise((resolve, reject) => {
    req.on('response', (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => resolve({ status: r.statusCode ?? 0, headers: r.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
  });
  req.write(payload.subarray(0, half));
  return {
    finish: () => {
      req.end(payload.subarray(half));
      return response;
    },
  };
}

interface Event {
  type: string;
  object: { metadata: { name: string; resourceVersion: string } };
}

/** A watch that records how its stream ended: `complete` only when the chunked terminator arrived. */
function openWatch(s: ApiServerProcess, path: string): { events: Event[]; ended: Promise<{ complete: boolean; error?: string }> } {
  const events: Event[] = [];
  const ended = new Promise<{ complete: boolean; error?: string }>((resolve) => {
    const req = https.request(`${s.url}${path}`, { agent: false, ...s.adminTls() }, (r) => {
      let buf = '';
      r.on('data', (c: Buffer) => {
        buf += c.toString('utf8');
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          events.push(JSON.parse(buf.slice(0, i)) as Event);
          buf = buf.slice(i + 1);
        }
      });
      r.on('end', () => resolve({ complete: r.complete }));
      r.on('error', (e) => resolve({ complete: false, error: e.message }));
    });
    req.on('error', (e) => resolve({ complete: false, error: e.message }));
    req.end();
  });
  return { events, ended };
}

const names = (es: Event[]): string[] => es.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata.name);

async function refusesConnections(s: ApiServerProcess): Promise<boolean> {
  try {
    await raw(s, 'GET', '/version');
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ECONNREFUSED';
  }
}

let c: TestCluster;
let b: ApiServerProcess;

/** Another replica on the cluster's etcd, serving the cluster's PKI. */
async function replica(args: string[]): Promise<ApiServerProcess> {
  const r = new ApiServerProcess(mkdtempSync(join(c.dir, 'replica-')), await freePort(), c.etcd.endpoint, args, join(c.dir, 'pki'));
  await r.start();
  return r;
}

beforeAll(async () => {
  c = await startCluster();
  b = await replica([]);
});
afterAll(async () => {
  await b?.stop();
  await c?.stop();
});

test('SIGTERM with --shutdown-delay-duration: readyz fails while serving, in-flight requests finish, watches end cleanly and resume on the other replica without loss', async () => {
  const a = await replica(['--shutdown-delay-duration=3s']);
  const ns = 'shutdown-delay';
  const collection = `/api/v1/namespaces/${ns}/serviceaccounts`;
  expect((await raw(b, 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  const rv = JSON.parse((await raw(a, 'GET', collection)).body).metadata.resourceVersion as string;
  const watch = openWatch(a, `${collection}?watch=true&resourceVersion=${rv}`);
  expect((await raw(b, 'POST', collection, { metadata: { name: 'w0' } })).status).toBe(201);
  await eventually(async () => names(watch.events).includes('w0'), 10_000, 'the watch on A to see w0');
  const slow = slowCreate(a, collection, { metadata: { name: 'slow' } });

  const exited = a.signal('SIGTERM');
  const readyz = await eventually(async () => {
    const r = await raw(a, 'GET', '/readyz');
    return r.status === 500 ? r : null;
  }, 10_000, '/readyz on A to fail');
  expect(readyz.body).toContain('[-]shutdown failed: reason withheld\nreadyz check failed\n');
  // Still serving during the delay.
  expect((await raw(a, 'GET', collection)).status).toBe(200);
  expect((await raw(a, 'GET', '/livez')).status).toBe(200);
  expect((await raw(b, 'POST', collection, { metadata: { name: 'during-1' } })).status).toBe(201);

  // After the delay the listener closes; the watch ends with the chunked terminator.
  await eventually(() => refusesConnections(a), 20_000, 'A to stop listening');
  expect(await watch.ended).toEqual({ complete: true });
  expect((await raw(b, 'POST', collection, { metadata: { name: 'during-2' } })).status).toBe(201);
  // The in-flight create completes on its open connection, then the process exits cleanly.
  const created = await slow.finish();
  expect(created.status).toBe(201);
  expect(created.headers.connection).toBe('close');
  expect(await exited).toBe(0);
  expect((await raw(b, 'POST', collection, { metadata: { name: 'after' } })).status).toBe(201);

  // Resume on B from the last resourceVersion A delivered: every later event, none twice.
  const seenOnA = watch.events;
  const last = seenOnA[seenOnA.length - 1].object.metadata.resourceVersion;
  const resumed = openWatch(b, `${collection}?watch=true&resourceVersion=${last}`);
  await eventually(async () => names(resumed.events).includes('after'), 10_000, 'the resumed watch to see "after"');
  const all = [...seenOnA, ...resumed.events];
  expect(names(all).sort()).toEqual(['after', 'during-1', 'during-2', 'slow', 'w0']);
  const rvs = all.map((e) => Number(e.object.metadata.resourceVersion));
  expect(rvs).toEqual([...rvs].sort((x, y) => x - y));
  expect(new Set(rvs).size).toBe(rvs.length);
  const list = JSON.parse((await raw(b, 'GET', collection)).body) as { items: { metadata: { name: string } }[] };
  expect(list.items.map((i) => i.metadata.name).sort()).toEqual(['after', 'during-1', 'during-2', 'slow', 'w0']);
});

test("--shutdown-send-retry-after: after the delay new requests get upstream's 429 while in-flight ones drain; probes are still served; watches end cleanly within the grace period", async () => {
  const a = await replica(['--shutdown-delay-duration=1s', '--shutdown-send-retry-after', '--shutdown-watch-termination-grace-period=10s']);
  const ns = 'shutdown-retry-after';
  const collection = `/api/v1/namespaces/${ns}/serviceaccounts`;
  expect((await raw(b, 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  const rv = JSON.parse((await raw(a, 'GET', collection)).body).metadata.resourceVersion as string;
  const watch = openWatch(a, `${collection}?watch=true&resourceVersion=${rv}`);
  expect((await raw(b, 'POST', collection, { metadata: { name: 'w0' } })).status).toBe(201);
  await eventually(async () => names(watch.events).includes('w0'), 10_000, 'the watch on A to see w0');
  const slow = slowCreate(a, collection, { metadata: { name: 'slow' } });

  const exited = a.signal('SIGTERM');
  const refused = await eventually(async () => {
    const r = await raw(a, 'GET', collection);
    return r.status === 429 ? r : null;
  }, 20_000, 'A to answer 429');
  expect(refused.headers['retry-after']).toBe('5');
  expect(refused.headers.connection).toBe('close');
  expect(refused.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(refused.body).toBe('The apiserver is shutting down, please try again later.\n');
  const readyz = await raw(a, 'GET', '/readyz');
  expect(readyz.status).toBe(500);
  expect(readyz.body).toContain('[-]shutdown failed: reason withheld');
  expect(await watch.ended).toEqual({ complete: true });

  expect((await slow.finish()).status).toBe(201);
  expect(await exited).toBe(0);
  expect(JSON.parse((await raw(b, 'GET', `${collection}/slow`)).body).metadata.name).toBe('slow');
});
