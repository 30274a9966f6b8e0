import { EtcdAvailability } from './availability';
import { checkEtcdHealth, type HealthCheckedStorage } from './healthCheck';

const url = 'http://127.0.0.1:2379';

function storage(read: () => Promise<number>): HealthCheckedStorage & { connects: number; reads: number } {
  const s = {
    availability: new EtcdAvailability([url], undefined, () => Date.UTC(2026, 0, 1)),
    connects: 0,
    reads: 0,
    currentRevision: () => {
      s.reads++;
      return read();
    },
    connectAll: () => {
      s.connects++;
    },
  };
  return s;
}

it('healthy when etcd answers', async () => {
  expect(await checkEtcdHealth(storage(async () => 7))).toBeNull();
});

it('a known outage is the reason at once, in upstream’s words, and the probe starts reconnecting', async () => {
  const s = storage(() => new Promise<number>(() => undefined));
  s.availability.report(url, { ready: false, attempted: true, error: 'connect ECONNREFUSED 127.0.0.1:2379' });
  expect(await checkEtcdHealth(s)).toBe('error getting data from etcd: etcd unreachable since 2026-01-01T00:00:00.000Z (0.0 s): http://127.0.0.1:2379: connect ECONNREFUSED 127.0.0.1:2379');
  expect(s.reads).toBe(0);
  expect(s.connects).toBe(1);
});

it('a read that fails gives its error', async () => {
  expect(await checkEtcdHealth(storage(() => Promise.reject(new Error('etcd: etcdserver: no leader'))))).toBe('error getting data from etcd: etcd: etcdserver: no leader');
});

it('a read that fails because the outage became known meanwhile names the outage', async () => {
  const s = storage(() => {
    s.availability.report(url, { ready: false, attempted: true, error: 'connect ECONNREFUSED 127.0.0.1:2379' });
    return Promise.reject(new Error('etcd unavailable: no endpoint ready'));
  });
  expect(await checkEtcdHealth(s)).toMatch(/^error getting data from etcd: etcd unreachable since .*connect ECONNREFUSED/);
});

it('a read that does not answer within the timeout fails the check', async () => {
  expect(await checkEtcdHealth(storage(() => new Promise<number>(() => undefined)), 5)).toBe('error getting data from etcd: no answer within 5 ms');
});
