import { findEtcdBinary, startEtcd } from './etcdServer';
import { existsSync } from 'node:fs';

test('a missing etcd binary gives a clear error', async () => {
  await expect(startEtcd({ binary: '/nonexistent/etcd' })).rejects.toThrow('etcd binary not found or not executable: /nonexistent/etcd');
  expect(() => findEtcdBinary('/nonexistent/etcd')).toThrow(/not found/);
});

test('start, kill, restart on the same data and port, stop removes the data dir', async () => {
  const etcd = await startEtcd();
  try {
    expect(etcd.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = async (): Promise<string> => (await fetch(`${etcd.endpoint}/health`)).text();
    expect(await health()).toContain('true');
    await etcd.kill();
    await expect(health()).rejects.toThrow();
    await etcd.restart();
    expect(await health()).toContain('true');
    expect(existsSync(etcd.dataDir)).toBe(true);
  } finally {
    await etcd.stop();
  }
  expect(existsSync(etcd.dataDir)).toBe(false);
  await etcd.stop(); // idempotent
}, 30_000);
