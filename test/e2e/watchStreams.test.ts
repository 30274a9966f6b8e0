// Watch streams under load: identical streams for concurrent watchers, resume across an
// apiserver restart, and a stalled client that is closed without slowing the others.
import * as tls from 'node:tls';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCluster, TestCluster, eventually } from './support/apiserver';

let c: TestCluster;
const ns = 'streams';
const collection = `/api/v1/namespaces/${ns}/serviceaccounts`;

beforeAll(async () => {
  c = await startCluster();
  await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
});
afterAll(async () => {
  await c?.stop();
});

async function currentRv(): Promise<string> {
  return (await c.apiserver.request('GET', collection)).json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
}

test('20 watchers from one revision see identical, ordered, gap-free streams while writers run', async () => {
  const api = c.apiserver;
  const start = await currentRv();
  const watchers = Array.from({ length: 20 }, () => api.watch(`${collection}?watch=true&resourceVersion=${start}`));
  const writes = 150;
  // Three concurrent writers: creates, then updates of what they created.
  await Promise.all(
    [0, 1, 2].map(async (w) => {
      for (let i = 0; i < writes / 3; i++) {
        const name = `w${w}-${i}`;
        await api.request('POST', collection, { body: { metadata: { name } } });
        if (i % 2) await api.request('PATCH', `${collection}/${name}`, { body: { metadata: { labels: { n: String(i) } } }, contentType: 'application/merge-patch+json' });
      }
    }),
  );
  const expected = writes + 3 * Math.floor(writes / 3 / 2);
  for (const w of watchers) await w.waitFor((e) => e.length >= expected, 20_000);
  const streams = watchers.map((w) => w.events.map((e) => `${e.type}/${e.object.metadata?.name}/${e.object.metadata?.resourceVersion}`));
  watchers.forEach((w) => w.close());
  for (const s of streams) expect(s).toEqual(streams[0]);
  const rvs = streams[0].map((s) => Number(s.split('/')[2]));
  for (let i = 1; i < rvs.length; i++) expect(rvs[i]).toBeGreaterThan(rvs[i - 1]);
  expect(streams[0]).toHaveLength(expected);
});

test('a watcher resumes across an apiserver restart without losing events', async () => {
  const api = c.apiserver;
  const start = await currentRv();
  const first = api.watch(`${collection}?watch=true&resourceVersion=${start}`);
  for (let i = 0; i < 5; i++) await api.request('POST', collection, { body: { metadata: { name: `before-${i}` } } });
  await first.waitFor((e) => e.length >= 5);
  const lastRv = first.events[4].object.metadata?.resourceVersion;
  await api.stop();
  await eventually(async () => first.ended, 5000, 'the stream to end on shutdown');
  // Writes while no apiserver runs, straight into etcd through a second server later: use a restart.
  await api.start();
  for (let i = 0; i < 5; i++) await api.request('POST', collection, { body: { metadata: { name: `after-${i}` } } });
  const second = api.watch(`${collection}?watch=true&resourceVersion=${lastRv}`);
  const events = await second.waitFor((e) => e.length >= 5);
  second.close();
  expect(events.map((e) => e.object.metadata?.name)).toEqual(['after-0', 'after-1', 'after-2', 'after-3', 'after-4']);
});

test('a stalled watcher is closed and does not delay the others', async () => {
  const api = c.apiserver;
  const start = await currentRv();
  const pki = join(c.dir, 'pki');
  // A client that never reads: a raw TLS socket, paused, so the kernel buffers fill and the
  // server's backlog for it grows until the server drops it.
  let stalledEnded = false;
  const stalled = tls.connect({
    host: '127.0.0.1',
    port: api.port,
    ca: api.caPem,
    cert: readFileSync(join(pki, 'admin.crt')),
    key: readFileSync(join(pki, 'admin.key')),
  });
  stalled.on('secureConnect', () => {
    stalled.write(`GET ${collection}?watch=true&resourceVersion=${start} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    stalled.pause();
  });
  stalled.on('close', () => (stalledEnded = true));
  stalled.on('error', () => (stalledEnded = true));
  const healthy = api.watch(`${collection}?watch=true&resourceVersion=${start}`);
  const big = 'x'.repeat(200_000);
  const n = 200; // ~40 MB of events: more than the kernel's socket buffers plus the server's limit
  const t0 = Date.now();
  for (let i = 0; i < n; i++) {
    await api.request('POST', collection, { body: { metadata: { name: `big-${i}`, annotations: { blob: big } } } });
  }
  await healthy.waitFor((e) => e.length >= n, 30_000);
  healthy.close();
  expect(Date.now() - t0).toBeLessThan(30_000);
  // The server counts the drop; once the paused client reads again it sees the connection end.
  const terminated = async (): Promise<boolean> =>
    /apiserver_terminated_watchers_total\{group="",version="v1",resource="serviceaccounts"\} [1-9]/.test((await api.request('GET', '/metrics')).body);
  await eventually(terminated, 20_000, 'the server to drop the stalled watcher');
  stalled.on('data', () => undefined);
  stalled.resume();
  await eventually(async () => stalledEnded, 20_000, 'the stalled connection to close');
}, 90_000);
