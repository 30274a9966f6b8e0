// The server-wide watch budget (--max-watch-unsent-bytes, issue 26 item 6) with real clients:
// watchers that never read, over HTTP/1.1 (a paused TLS socket) and HTTP/2 (paused streams on
// one session), beside one that reads. The server's accounted unsent bytes stay within the
// budget plus one frame (its own gauges say so), stalled watchers are cut off and counted, and
// the reader gets every event.
import * as http2 from 'node:http2';
import * as tls from 'node:tls';
import { startCluster, TestCluster, eventually } from './support/apiserver';
import { connectH2, h2Watch, type H2Watch } from './support/h2client';

const budgetBytes = 4 * 1024 * 1024;
const blobBytes = 200_000;
/** One event's frame: the blob and the rest of the object's JSON, well under this. */
const frameBound = blobBytes + 4096;

let c: TestCluster;
const ns = 'budget';
const collection = `/api/v1/namespaces/${ns}/serviceaccounts`;

beforeAll(async () => {
  c = await startCluster([`--max-watch-unsent-bytes=${budgetBytes}`]);
  await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
});
afterAll(async () => {
  await c?.stop();
});

async function metric(name: string): Promise<number> {
  const body = (await c.apiserver.request('GET', '/metrics')).body;
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(body);
  return m ? Number(m[1]) : NaN;
}

/** A watch over HTTP/1.1 on a raw TLS socket that is never read. */
function stalledH1(path: string): { socket: tls.TLSSocket; ended: () => boolean } {
  const creds = c.apiserver.adminTls();
  let ended = false;
  const socket = tls.connect({ host: '127.0.0.1', port: c.apiserver.port, ca: creds.ca, cert: creds.cert, key: creds.key, ALPNProtocols: ['http/1.1'] });
  socket.on('secureConnect', () => {
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    socket.pause();
  });
  socket.on('close', () => (ended = true));
  socket.on('error', () => (ended = true));
  return { socket, ended: () => ended };
}

test('watchers that never read stay within --max-watch-unsent-bytes and are cut off; a reader gets every event', async () => {
  const api = c.apiserver;
  const start = (await api.request('GET', collection)).json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
  const path = `${collection}?watch=true&resourceVersion=${start}`;
  const h1 = Array.from({ length: 4 }, () => stalledH1(path));
  const session: http2.ClientHttp2Session = connectH2(api);
  const h2: H2Watch[] = [];
  try {
    for (let i = 0; i < 48; i++) {
      const w = h2Watch(session, path);
      expect(await w.status).toBe(200);
      w.stream.pause();
      h2.push(w);
    }
    const reader = api.watch(path);
    const n = 40; // 8 MB per watcher: past the stalled HTTP/1.1 sockets' kernel buffers too
    let highest = 0;
    for (let i = 0; i < n; i++) {
      const r = await api.request('POST', collection, { body: { metadata: { name: `big-${i}`, annotations: { blob: 'x'.repeat(blobBytes) } } } });
      expect(r.status).toBe(201);
      if (i % 10 === 9) highest = Math.max(highest, await metric('apiserver_watch_unsent_bytes'));
    }
    const events = await reader.waitFor((e) => e.length >= n, 60_000);
    reader.close();
    expect(events.map((e) => e.object.metadata?.name)).toEqual(Array.from({ length: n }, (_, i) => `big-${i}`));

    // Stalled watchers are cut off (once they have sent nothing for a second while others wait
    // for room): counted, logged with the bytes they held.
    const terminated = await eventually(async () => (await metric('apiserver_terminated_watchers_total')) || undefined, 20_000, 'stalled watchers to be cut off');
    const cutLog = (): string[] => api.logs.split('\n').filter((l) => l.includes('Forcing serviceaccounts watcher close due to unresponsiveness'));
    // The log is written in batches: its lines may come a moment after the metric moved.
    const cutLines = await eventually(async () => (cutLog().length >= terminated ? cutLog() : undefined), 10_000, 'a log line per cut-off');
    expect(cutLines.length).toBeGreaterThanOrEqual(terminated);
    const first = JSON.parse(cutLines[0]) as { cause: string; unsentBytes: number; resource: string };
    expect(first).toMatchObject({ cause: 'budget', resource: 'serviceaccounts' });
    expect(first.unsentBytes).toBeGreaterThan(0);

    // The accounted bytes: never beyond the budget plus the one frame that crossed it.
    expect(await metric('apiserver_watch_unsent_bytes_limit')).toBe(budgetBytes);
    const peak = await metric('apiserver_watch_unsent_bytes_peak');
    expect(peak).toBeGreaterThan(budgetBytes / 2);
    expect(peak).toBeLessThanOrEqual(budgetBytes + frameBound);
    expect(highest).toBeLessThanOrEqual(budgetBytes + frameBound);
    expect(await metric('apiserver_watch_unsent_bytes')).toBeLessThanOrEqual(budgetBytes + frameBound);

    // The cut HTTP/2 streams were reset; the session and its other streams go on.
    await eventually(async () => h2.filter((w) => w.stream.closed).length + h1.filter((s) => s.ended()).length >= terminated, 10_000, 'the cut watches to close');
    expect(session.closed).toBe(false);
  } finally {
    for (const s of h1) s.socket.destroy();
    session.destroy();
  }
}, 120_000);

test('a reader whose initial state is many times the budget (and over the former 32 MiB per watcher) gets all of it', async () => {
  const api = c.apiserver;
  const big = '/api/v1/namespaces/budget-initial/configmaps';
  await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'budget-initial' } } });
  const n = 150; // 150 × 256 KiB: 37.5 MiB of initial events, written at once before
  const blob = 'y'.repeat(256 * 1024);
  for (let i = 0; i < n; i += 10) {
    const batch = Array.from({ length: 10 }, (_, j) => api.request('POST', big, { body: { metadata: { name: `cm-${i + j}` }, data: { blob } } }));
    for (const r of await Promise.all(batch)) expect(r.status).toBe(201);
  }
  const before = await metric('apiserver_terminated_watchers_total');
  // No resourceVersion: the initial state as ADDED events, then changes.
  const reader = api.watch(`${big}?watch=true`);
  const events = await reader.waitFor((e) => e.length >= n, 60_000);
  reader.close();
  expect(new Set(events.map((e) => e.object.metadata?.name)).size).toBe(n);
  expect((await metric('apiserver_terminated_watchers_total')) || 0).toBe(before || 0);
  expect(await metric('apiserver_watch_unsent_bytes_peak')).toBeLessThanOrEqual(budgetBytes + frameBound + 64 * 1024);
}, 120_000);
