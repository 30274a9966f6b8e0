import { Compactor } from './compactor';
import { Etcd3Storage } from './etcd3';
import { MemoryStorage } from './memory';
import { CompactedError, CompactionStore, Storage } from './storage';
import { EtcdServer, startEtcd } from './testing/etcdServer';
import { ManualTimers } from './testing/manualTimers';

const interval = 5 * 60 * 1000;
const enc = (s: string): Uint8Array => new Uint8Array(Buffer.from(s));

interface Replica {
  name: string;
  storage: Storage & CompactionStore;
  compactor: Compactor;
}

/** Wraps a store to record every compaction it performs. */
function spy(name: string, store: Storage & CompactionStore, log: Array<{ by: string; revision: number }>): CompactionStore {
  return {
    putIfVersion: (k, v, val) => store.putIfVersion(k, v, val),
    compact: async (revision) => {
      log.push({ by: name, revision });
      await store.compact(revision);
    },
  };
}

/**
 * Runs `rounds` intervals with the given replicas (both compactors fire each interval, their
 * rounds racing at the store) and checks: from the second round on exactly one compaction per
 * interval while a winner is alive, always to a revision the store had reached by the end of the
 * previous interval's round — never to anything written within the last interval.
 */
async function runRounds(stores: Array<Storage & CompactionStore>, key: string, stopAfter?: { replica: number; round: number }) {
  const timers = new ManualTimers();
  const log: Array<{ by: string; revision: number }> = [];
  const errors: Error[] = [];
  const replicas: Replica[] = stores.map((storage, i) => {
    const name = `r${i}`;
    const compactor = new Compactor(spy(name, storage, log), { intervalMs: interval, key, timers, onError: (e) => errors.push(e) });
    compactor.start();
    return { name, storage, compactor };
  });
  const probe = stores[stores.length - 1];
  const revAfterRound: number[] = [];
  const perRound: Array<Array<{ by: string; revision: number }>> = [];
  for (let round = 0; round < 6; round++) {
    // Writes during the interval.
    for (let i = 0; i < 3; i++) await probe.create(`${key}/data/${round}-${i}`, enc('x'));
    const before = log.length;
    timers.advance(interval);
    await Promise.all(replicas.map((r) => r.compactor.whenIdle()));
    perRound.push(log.slice(before));
    revAfterRound.push(await probe.currentRevision());
    if (stopAfter && stopAfter.round === round) await replicas[stopAfter.replica].compactor.stop();
  }
  await Promise.all(replicas.map((r) => r.compactor.stop()));
  expect(errors).toEqual([]);
  return { perRound, revAfterRound, log };
}

function checkRounds(perRound: Array<Array<{ by: string; revision: number }>>, revAfterRound: number[], skip: number[] = []) {
  expect(perRound[0]).toEqual([]); // nobody compacts on bootstrap
  for (let r = 1; r < perRound.length; r++) {
    if (skip.includes(r)) {
      expect(perRound[r].length).toBeLessThanOrEqual(1);
      continue;
    }
    expect(perRound[r]).toHaveLength(1);
    const { revision } = perRound[r][0];
    expect(revision).toBeLessThanOrEqual(revAfterRound[r - 1]); // never newer than one interval ago
    if (r >= 2) expect(revision).toBeGreaterThan(revAfterRound[r - 2]); // but it does move on
  }
}

describe('Compactor with MemoryStorage', () => {
  test('two replicas on one store compact once per interval, one interval behind', async () => {
    const store = new MemoryStorage();
    const { perRound, revAfterRound, log } = await runRounds([store, store], 'compact_rev_key');
    checkRounds(perRound, revAfterRound);
    const last = log[log.length - 1].revision;
    await expect(store.get('compact_rev_key/data/0-0', { revision: last - 1 })).rejects.toBeInstanceOf(CompactedError);
  });

  test('staggered replicas: at most one compaction per interval, each to a revision one interval old', async () => {
    const timers = new ManualTimers();
    const store = new MemoryStorage();
    const log: Array<{ by: string; revision: number; at: number }> = [];
    const make = (name: string): Compactor =>
      new Compactor(
        { putIfVersion: (k, v, val) => store.putIfVersion(k, v, val), compact: async (r) => (log.push({ by: name, revision: r, at: timers.now }), store.compact(r)) },
        { intervalMs: interval, timers },
      );
    const a = make('a');
    const b = make('b');
    a.start();
    timers.advance(interval / 2);
    b.start(); // b's rounds fall half an interval after a's
    const revAt = new Map<number, number>();
    revAt.set(timers.now, await store.currentRevision());
    for (let step = 0; step < 16; step++) {
      await store.create(`/data/${step}`, enc('x'));
      timers.advance(interval / 2);
      await Promise.all([a.whenIdle(), b.whenIdle()]);
      revAt.set(timers.now, await store.currentRevision());
      if (step === 7) await a.stop(); // a, the winner so far, dies
    }
    await b.stop();
    expect(log.length).toBeGreaterThanOrEqual(5);
    for (let i = 0; i < log.length; i++) {
      expect(log[i].revision).toBeLessThanOrEqual(revAt.get(log[i].at - interval)!);
      if (i > 0) expect(log[i].at - log[i - 1].at).toBeGreaterThanOrEqual(interval);
    }
    expect(log.some((c) => c.by === 'b')).toBe(true); // b took over
  });

  test('interval 0 disables; stop() ends the rounds', async () => {
    const timers = new ManualTimers();
    const store = new MemoryStorage();
    const off = new Compactor(store, { intervalMs: 0, timers });
    off.start();
    expect(timers.size).toBe(0);
    const on = new Compactor(store, { intervalMs: 1000, timers });
    on.start();
    expect(timers.size).toBe(1);
    await on.stop();
    expect(timers.size).toBe(0);
  });

  test('a failing round is reported and the next interval runs anyway', async () => {
    const timers = new ManualTimers();
    const store = new MemoryStorage();
    let fail = true;
    const errors: string[] = [];
    const flaky: CompactionStore = {
      putIfVersion: (k, v, val) => (fail ? Promise.reject(new Error('etcd down')) : store.putIfVersion(k, v, val)),
      compact: (r) => store.compact(r),
    };
    const c = new Compactor(flaky, { intervalMs: 1000, timers, onError: (e) => errors.push(e.message) });
    c.start();
    timers.advance(1000);
    await c.whenIdle();
    expect(errors).toEqual(['etcd down']);
    fail = false;
    timers.advance(1000);
    await c.whenIdle();
    expect((await store.get('compact_rev_key')).kv).not.toBeNull();
    await c.stop();
  });
});

describe('Compactor with two Etcd3Storage clients on one etcd', () => {
  let etcd: EtcdServer;
  const clients: Etcd3Storage[] = [];
  beforeAll(async () => {
    etcd = await startEtcd();
  }, 30_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await etcd?.stop();
  });
  const client = (): Etcd3Storage => {
    const c = new Etcd3Storage({ endpoints: [etcd.endpoint] });
    clients.push(c);
    return c;
  };

  test('compaction happens once per interval and never to a revision newer than one interval ago', async () => {
    const { perRound, revAfterRound, log } = await runRounds([client(), client()], 'compact_rev_key');
    checkRounds(perRound, revAfterRound);
    const probe = client();
    const last = log[log.length - 1].revision;
    await expect(probe.get('/x', { revision: last - 1 })).rejects.toBeInstanceOf(CompactedError);
    expect(await probe.get('/x', { revision: last })).toMatchObject({ kv: null });
  });

  test('when one replica stops, the other takes over within two intervals', async () => {
    const key = `compact_rev_key_failover_${Date.now()}`;
    // Replica 0 stops after round 2; rounds 3–4 may skip one compaction while replica 1 catches on.
    const { perRound, revAfterRound } = await runRounds([client(), client()], key, { replica: 0, round: 2 });
    checkRounds(perRound, revAfterRound, [3]);
    expect(perRound[4].concat(perRound[5]).every((c) => c.by === 'r1')).toBe(true);
    expect(perRound[5]).toHaveLength(1);
  });
});
