import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { findEtcdBinary, freePort, startEtcd } from './etcdServer';

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

test('a client port taken when etcd binds it: new ports, and the endpoint is where etcd listens', async () => {
  // Holds the port; the health probes that reach it are dropped (an open one would keep close() waiting).
  const taken = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const takenPort = (taken.address() as AddressInfo).port;
  const chosen: number[][] = [];
  try {
    const etcd = await startEtcd({
      ports: async () => {
        const p: [number, number] = chosen.length === 0 ? [takenPort, await freePort()] : [await freePort(), await freePort()];
        chosen.push(p);
        return p;
      },
    });
    try {
      expect(chosen).toHaveLength(2);
      expect(etcd.endpoint).toBe(`http://127.0.0.1:${chosen[1][0]}`);
      expect(await (await fetch(`${etcd.endpoint}/health`)).text()).toContain('true');
    } finally {
      await etcd.stop();
    }
    // Only a taken port is retried: always taken, it gives up after three attempts with etcd's error.
    chosen.length = 0;
    const always = async (): Promise<[number, number]> => {
      const p: [number, number] = [takenPort, await freePort()];
      chosen.push(p);
      return p;
    };
    await expect(startEtcd({ ports: always })).rejects.toThrow(/address already in use/);
    expect(chosen).toHaveLength(3);
  } finally {
    await new Promise<void>((resolve) => taken.close(() => resolve()));
  }
}, 30_000);
