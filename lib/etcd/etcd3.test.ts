import { transformFileSync } from '@swc/core';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3Storage } from './etcd3';
import { UnavailableError } from './storage';
import { describeStorageContract } from './testing/contract';
import { EtcdServer, startEtcd } from './testing/etcdServer';
import { logRecords } from './testing/logRecords';
import { recordWatch } from './testing/watchRecorder';

const enc = (s: string): Uint8Array => new Uint8Array(Buffer.from(s));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

let etcd: EtcdServer;
beforeAll(async () => {
  etcd = await startEtcd({
    // Big values for the 4 MiB test; quick per-watch progress notifications for the progress test.
    extraArgs: ['--max-request-bytes=10485760', '--experimental-watch-progress-notify-interval=300ms'],
  });
}, 30_000);
afterAll(async () => {
  await etcd?.stop();
});

describeStorageContract('etcd3', async () => {
  const storage = new Etcd3Storage({ endpoints: [etcd.endpoint] });
  return { storage, teardown: () => storage.close() };
});

async function unusedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Writes n keys under prefix with `concurrency` creates in flight; returns creates per second. */
async function writeMany(s: Etcd3Storage, prefix: string, n: number, concurrency = 64): Promise<number> {
  const t0 = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        await s.create(`${prefix}${String(i).padStart(6, '0')}`, enc(`value-${i}`));
      }
    }),
  );
  return n / ((Date.now() - t0) / 1000);
}

describe('Etcd3Storage against a real etcd', () => {
  let s: Etcd3Storage;
  beforeEach(() => {
    s = new Etcd3Storage({ endpoints: [etcd.endpoint] });
  });
  afterEach(async () => {
    await s.close();
  });

  test('a watcher catching up on 12,000 events survives SIGKILL of etcd: every event exactly once, in order', async () => {
    const n = 12_000;
    const prefix = `/catchup-${Date.now()}/`;
    const first = (await s.currentRevision()) + 1;
    const rate = await writeMany(s, prefix, n);
    process.stderr.write(`etcd3: ${n} creates at ${Math.round(rate)}/s\n`);

    const w = recordWatch(s, prefix, { startRevision: first });
    const t0 = Date.now();
    await w.waitFor(() => w.events.length >= 1500, 20_000);
    const atKill = w.events.length;
    await etcd.kill();
    expect(atKill).toBeLessThan(n); // the kill happened during the catch-up
    await sleep(200);
    await etcd.restart();
    const later = await s.create(`${prefix}after-restart`, enc('live'));
    await w.waitForEvents(n + 1, 30_000);
    const seconds = (Date.now() - t0) / 1000;
    process.stderr.write(`etcd3: watcher caught up on ${n} events (etcd killed after ${atKill}) in ${seconds.toFixed(1)} s, ${s.watchStreamsOpened} streams\n`);
    await sleep(100);
    w.close();

    expect(w.error).toBeUndefined();
    expect(w.events).toHaveLength(n + 1);
    const revs = w.events.map((e) => e.modRevision);
    for (let i = 0; i < n; i++) expect(revs[i]).toBe(first + i);
    expect(revs[n]).toBe(later.modRevision);
    const keys = new Set(w.events.map((e) => e.key));
    expect(keys.size).toBe(n + 1);
    expect(s.watchStreamsOpened).toBeGreaterThanOrEqual(2); // it really reconnected
  }, 90_000);

  test('a range result and a watch event larger than 4 MiB are readable', async () => {
    const prefix = `/big-${Date.now()}/`;
    const big = new Uint8Array(5 * 1024 * 1024).fill(0x61);
    const w = recordWatch(s, prefix, {});
    await sleep(50);
    await s.create(prefix + 'one', big);
    await s.create(prefix + 'two', big);
    const got = await s.get(prefix + 'one');
    expect(got.kv!.value.length).toBe(big.length);
    const list = await s.list(prefix);
    expect(list.kvs.map((kv) => kv.value.length)).toEqual([big.length, big.length]);
    await w.waitForEvents(2);
    expect(w.events[1].value.length).toBe(big.length);
    w.close();
  });

  test('all watches share one gRPC stream', async () => {
    const prefix = `/mux-${Date.now()}/`;
    const recs = Array.from({ length: 5 }, (_, i) => recordWatch(s, `${prefix}${i}/`, {}));
    await sleep(50);
    for (let i = 0; i < 5; i++) await s.create(`${prefix}${i}/x`, enc(String(i)));
    for (const r of recs) await r.waitForEvents(1);
    expect(recs.map((r) => r.events.map((e) => e.key))).toEqual(Array.from({ length: 5 }, (_, i) => [`${prefix}${i}/x`]));
    expect(s.watchStreamsOpened).toBe(1);
    recs.forEach((r) => r.close());
  });

  test('progress_notify delivers per-watch progress that advances with the store', async () => {
    const prefix = `/progress-${Date.now()}/`;
    // From a pinned revision: a watch without one starts wherever etcd is when it registers,
    // which under load can be after the create below.
    const w = recordWatch(s, prefix, { progressNotify: true, startRevision: (await s.currentRevision()) + 1 });
    const kv = await s.create(`${prefix}a`, enc('1'));
    await w.waitFor(() => w.progress.some((r) => r >= kv.modRevision), 5000);
    expect(w.events.map((e) => e.modRevision)).toEqual([kv.modRevision]);
    w.close();
  });

  test('observe is called for every request', async () => {
    const seen: Array<[string, string]> = [];
    const o = new Etcd3Storage({ endpoints: [etcd.endpoint], observe: (op, key, seconds) => (expect(seconds).toBeGreaterThanOrEqual(0), seen.push([op, key])) });
    const key = `/observe-${Date.now()}`;
    await o.create(key, enc('1'));
    await o.get(key);
    await o.list(key + '/');
    await o.guaranteedUpdate(key, () => enc('2'));
    await o.delete(key);
    await o.currentRevision();
    await o.close();
    expect(seen).toEqual([
      ['create', key],
      ['get', key],
      ['list', key + '/'],
      ['update', key],
      ['delete', key],
      ['currentRevision', ''],
    ]);
  });

  test('fails over from a dead endpoint for requests and watches', async () => {
    const dead = `http://127.0.0.1:${await unusedPort()}`;
    const f = new Etcd3Storage({ endpoints: [dead, etcd.endpoint], requestTimeoutMs: 5000 });
    try {
      const key = `/failover-${Date.now()}/a`;
      const w = recordWatch(f, key, { prefix: false, startRevision: (await s.currentRevision()) + 1 });
      for (let i = 0; i < 4; i++) await f.guaranteedUpdate(key, () => enc(String(i)), { ignoreNotFound: true });
      expect((await f.get(key)).kv).not.toBeNull();
      await w.waitFor(() => w.events.length > 0, 5000); // the stream moved to the live endpoint
      w.close();
    } finally {
      await f.close();
    }
  }, 20_000);

  test('etcd down: requests fail with UnavailableError; once back, used again at once (no circuit breaker)', async () => {
    const u = new Etcd3Storage({ endpoints: [etcd.endpoint], requestTimeoutMs: 700 });
    try {
      const key = `/outage-${Date.now()}`;
      await u.create(key, enc('1'));
      await s.get(key); // s (default timeout) is connected before the outage too
      const w = recordWatch(u, key, { prefix: false });
      await sleep(50);
      await etcd.kill();
      const t0 = Date.now();
      await expect(u.get(key)).rejects.toBeInstanceOf(UnavailableError);
      await expect(u.create(key + '-x', enc('x'))).rejects.toBeInstanceOf(UnavailableError);
      expect(Date.now() - t0).toBeLessThan(3000);
      await sleep(1500); // long enough for a circuit breaker or a long reconnect backoff to kick in
      await etcd.restart();
      const back = Date.now();
      await s.guaranteedUpdate(key, () => enc('2'));
      const recovered = Date.now() - back;
      process.stderr.write(`etcd3: first request after etcd restart succeeded in ${recovered} ms\n`);
      expect(recovered).toBeLessThan(3000); // worst case: one 2 s (+jitter) channel backoff
      await w.waitFor(() => w.events.length === 1, 5000);
      expect(Buffer.from(w.events[0].value).toString()).toBe('2');
      w.close();
    } finally {
      await u.close();
    }
  }, 30_000);

  test('close() leaves nothing that keeps the process alive (checked in a child process)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'etcd3-exit-'));
    try {
      // Compile this folder's library files (and wire/, and the lib/protowire they import, at the
      // same relative place) to CommonJS for a plain node child.
      const folders: [string, string][] = [
        [__dirname, join(dir, 'lib')],
        [join(__dirname, 'wire'), join(dir, 'lib', 'wire')],
        [join(__dirname, '..', 'protowire'), join(dir, 'protowire')],
      ];
      for (const [from, to] of folders) {
        mkdirSync(to, { recursive: true });
        for (const f of readdirSync(from)) {
          if (!f.endsWith('.ts') || f.endsWith('.test.ts')) continue;
          const out = transformFileSync(join(from, f), {
            jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
            module: { type: 'commonjs' },
            sourceMaps: false,
          });
          writeFileSync(join(to, f.replace(/\.ts$/, '.js')), out.code);
        }
      }
      const dead = `http://127.0.0.1:${await unusedPort()}`;
      writeFileSync(
        join(dir, 'driver.js'),
        `
const { Etcd3Storage } = require('./lib/etcd3');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
(async () => {
  const s = new Etcd3Storage({ endpoints: [process.env.ETCD] });
  const key = '/exit-' + Date.now() + '/';
  const first = (await s.create(key + 'a', Buffer.from('1'))).modRevision;
  await s.guaranteedUpdate(key + 'a', () => Buffer.from('2'));
  await s.list(key);
  const got = [];
  const h = { onEvents: (e) => got.push(...e), onError: () => {}, onProgress: () => {} };
  s.watch(key, { startRevision: first }, h);
  s.watch(key + 'a', { prefix: false, progressNotify: true }, h);
  while (got.length < 2) await sleep(10);
  s.requestProgress();
  // A client whose only endpoint is dead: a watch stream reconnecting and a request waiting.
  const d = new Etcd3Storage({ endpoints: [process.env.DEAD], requestTimeoutMs: 60000 });
  d.watch('/x', {}, h);
  const pending = d.get('/x').then(() => 'resolved', (e) => e.constructor.name);
  await sleep(300);
  await s.close();
  await d.close();
  console.log('closed ' + (await pending));
  process.on('exit', () => console.log('exit'));
})().catch((e) => { console.error(e); process.exit(2); });
`,
      );
      const child = spawn(process.execPath, [join(dir, 'driver.js')], {
        env: { ...process.env, NODE_PATH: join(__dirname, '..', '..', 'node_modules'), ETCD: etcd.endpoint, DEAD: dead },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let closedAt = 0;
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (!closedAt && out.includes('closed')) closedAt = Date.now();
      });
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
      clearTimeout(killer);
      expect(out).toContain('closed UnavailableError');
      expect(code).toBe(0); // not killed: it exited by itself
      expect(Date.now() - closedAt).toBeLessThan(3000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('debug records (component=etcd)', () => {
  test('a watch that runs into a compaction is logged at debug level', async () => {
    const { log, withMessage } = logRecords('etcd');
    const s = new Etcd3Storage({ endpoints: [etcd.endpoint], log });
    try {
      const key = `/compact-log-${Date.now()}`;
      const v1 = await s.create(key, enc('1'));
      const v2 = await s.guaranteedUpdate(key, () => enc('2'));
      await s.compact(v2.modRevision);
      const w = recordWatch(s, key, { startRevision: v1.modRevision, prefix: false });
      await w.waitFor(() => w.error !== undefined);
      w.close();
      await new Promise((r) => setImmediate(r));
      expect(withMessage('etcd watch ran into a compaction')).toEqual([
        expect.objectContaining({ level: 20, component: 'etcd', key, fromRevision: v1.modRevision, compactRevision: v2.modRevision }),
      ]);
    } finally {
      await s.close();
    }
  });
});
