// Measurements (printed to stderr; assertions are loose sanity bounds, not benchmarks):
// idle watcher memory, per-object overhead against the object's JSON size (memory and etcd
// backends), and fan-out throughput to 500 watchers.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Etcd3Storage } from '../etcd/etcd3';
import { MemoryStorage } from '../etcd/memory';
import type { Storage, WatchHandlers } from '../etcd/storage';
import { EtcdServer, startEtcd } from '../etcd/testing/etcdServer';
import type { CacheWatch } from './cacheWatch';
import { WatchCache } from './watchCache';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

function heap(): { used: number; buffers: number } {
  for (let i = 0; i < 3; i++) gc();
  const m = process.memoryUsage();
  return { used: m.heapUsed, buffers: m.arrayBuffers };
}

const report = (line: string): void => void process.stderr.write(`watchcache measure: ${line}\n`);

/** A ServiceAccount as the registry stores it (JSON, ~350 bytes). */
function serviceAccount(i: number): Uint8Array {
  const obj = {
    kind: 'ServiceAccount',
    apiVersion: 'v1',
    metadata: {
      name: `sa-${i}`,
      namespace: `team-${i % 50}`,
      uid: `6a1f3c2e-${String(i).padStart(4, '0')}-4b7d-9f0e-2c8a5d3b1e7f`,
      creationTimestamp: '2026-01-10T08:00:00Z',
      labels: { app: `app-${i % 20}`, tier: 'backend' },
      annotations: { 'svc.io/description': `service account number ${i}` },
    },
    automountServiceAccountToken: false,
    secrets: [{ name: `sa-${i}-token` }],
  };
  return new Uint8Array(Buffer.from(JSON.stringify(obj)));
}

async function fill(s: Storage, prefix: string, n: number, concurrency: number): Promise<number> {
  let next = 0;
  let bytes = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const v = serviceAccount(i);
        bytes += v.byteLength;
        await s.create(`${prefix}team-${i % 50}/sa-${i}`, v);
      }
    }),
  );
  return bytes / n;
}

const noop: WatchHandlers = { onEvents() {}, onError() {} };

test('idle watcher memory', async () => {
  const mem = new MemoryStorage();
  const cache = new WatchCache({ underlying: mem, prefix: '/registry/x/' });
  await cache.start();
  const from = (await cache.currentRevision()) + 1;
  const n = 10_000;
  const held: CacheWatch[] = [];
  const before = heap();
  for (let i = 0; i < n; i++) held.push(cache.watch(`/registry/x/ns-${i % 100}/`, { startRevision: from }, noop));
  const after = heap();
  const perWatcher = (after.used - before.used) / n;
  report(`idle window watcher: ${perWatcher.toFixed(0)} bytes each (${n} watchers, shared handlers)`);
  for (const w of held.splice(0)) w.close();

  expect(perWatcher).toBeLessThan(1024);
  await cache.close();
  await mem.close();
});

test('fan-out to 500 watchers', async () => {
  const mem = new MemoryStorage();
  const cache = new WatchCache({ underlying: mem, prefix: '/registry/x/' });
  await cache.start();
  const events = 4000;
  const run = async (watchers: number): Promise<{ seconds: number; delivered: number }> => {
    const from = (await cache.currentRevision()) + 1;
    let delivered = 0;
    const handlers: WatchHandlers = { onEvents: (evs) => void (delivered += evs.length), onError: (e) => { throw e; } };
    const ws = Array.from({ length: watchers }, () => cache.watch('/registry/x/', { startRevision: from }, handlers));
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < events; i++) await cache.guaranteedUpdate(`/registry/x/k${i % 100}`, () => serviceAccount(i), { ignoreNotFound: true });
    while (delivered < watchers * events) await new Promise((r) => setImmediate(r));
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    for (const w of ws) w.close();
    return { seconds, delivered };
  };
  const base = await run(1);
  const fan = await run(500);
  report(`1 watcher: ${Math.round(events / base.seconds)} events/s (write path of the memory store included)`);
  report(`500 watchers: ${Math.round(events / fan.seconds)} events/s in, ${Math.round(fan.delivered / fan.seconds)} event deliveries/s out`);
  expect(fan.delivered).toBe(500 * events);
  await cache.close();
  await mem.close();
}, 60_000);

test('per-object overhead over memory (values shared with the store)', async () => {
  const mem = new MemoryStorage();
  const n = 20_000;
  const avgJson = await fill(mem, '/registry/serviceaccounts/', n, 1);
  const before = heap();
  const cache = new WatchCache({ underlying: mem, prefix: '/registry/serviceaccounts/', copyValues: false });
  await cache.start();
  const after = heap();
  const per = (after.used - before.used) / n;
  report(`memory backend: ${n} objects of ${avgJson.toFixed(0)} B JSON; cache overhead ${per.toFixed(0)} B/object beyond the shared value bytes`);
  expect(cache.stats().objects).toBe(n);
  await cache.close();
  await mem.close();
}, 60_000);

describe('over a real etcd', () => {
  let etcd: EtcdServer;
  beforeAll(async () => {
    etcd = await startEtcd();
  }, 30_000);
  afterAll(async () => {
    await etcd?.stop();
  });

  test('per-object memory of the cache vs JSON size', async () => {
    const writer = new Etcd3Storage({ endpoints: [etcd.endpoint] });
    const n = 20_000;
    const avgJson = await fill(writer, '/registry/serviceaccounts/', n, 64);
    await writer.close();
    const underlying = new Etcd3Storage({ endpoints: [etcd.endpoint] });
    await underlying.currentRevision(); // connect before measuring
    const before = heap();
    const cache = new WatchCache({ underlying, prefix: '/registry/serviceaccounts/' });
    await cache.start();
    await new Promise((r) => setTimeout(r, 200)); // let the list's gRPC buffers go
    const after = heap();
    const heapPer = (after.used - before.used) / n;
    const bufPer = (after.buffers - before.buffers) / n;
    report(
      `etcd backend: ${n} objects of ${avgJson.toFixed(0)} B JSON; cache holds ${(heapPer + bufPer).toFixed(0)} B/object ` +
        `(${heapPer.toFixed(0)} heap + ${bufPer.toFixed(0)} buffer) = ${((heapPer + bufPer) / avgJson).toFixed(2)}x the JSON`,
    );
    expect(cache.stats().objects).toBe(n);

    // Updates arrive as watch events, one gRPC message each: what does an updated object cost?
    const w2 = new Etcd3Storage({ endpoints: [etcd.endpoint] });
    await w2.currentRevision();
    const b2 = heap();
    const m = 5000;
    await Promise.all(
      Array.from({ length: 32 }, async (_, c) => {
        for (let i = c; i < m; i += 32) await w2.guaranteedUpdate(`/registry/serviceaccounts/team-${i % 50}/sa-${i}`, () => serviceAccount(i + 1_000_000));
      }),
    );
    await cache.waitUntilFresh(await w2.currentRevision());
    const a2 = heap();
    await w2.close();
    report(
      `etcd backend: after ${m} updates via the watch: ${((a2.used - b2.used) / m).toFixed(0)} heap + ${((a2.buffers - b2.buffers) / m).toFixed(0)} buffer B per update ` +
        `(new state value + window event with value and prevValue; window: ${cache.stats().windowEvents} events, ${cache.stats().windowBytes} B of values)`,
    );
    await cache.close();
    await underlying.close();
  }, 120_000);
});
