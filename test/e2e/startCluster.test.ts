// The e2e support's startCluster when the port it chose for the apiserver is taken by the time
// the process binds it (freePort() closes its listener at once).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { freePort, startCluster } from './support/apiserver';

test('the apiserver port taken when it binds: another port, where the cluster then serves', async () => {
  // Holds the port; connections that reach it (the readiness probe) are dropped.
  const taken = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const takenPort = (taken.address() as AddressInfo).port;
  const ports: number[] = [];
  try {
    const c = await startCluster([], {
      port: async () => {
        const p = ports.length === 0 ? takenPort : await freePort();
        ports.push(p);
        return p;
      },
    });
    try {
      expect(ports).toHaveLength(2);
      expect(c.apiserver.url).toBe(`https://127.0.0.1:${ports[1]}`);
      expect((await c.apiserver.request('GET', '/readyz')).status).toBe(200);
      expect(readFileSync(c.apiserver.kubeconfig, 'utf8')).toContain(`https://127.0.0.1:${ports[1]}`);
    } finally {
      await c.stop();
    }
    // Taken every time: three attempts, then the process's own error.
    ports.length = 0;
    const always = async (): Promise<number> => {
      ports.push(takenPort);
      return takenPort;
    };
    await expect(startCluster([], { port: always })).rejects.toThrow(/EADDRINUSE/);
    expect(ports).toHaveLength(3);
  } finally {
    await new Promise<void>((resolve) => taken.close(() => resolve()));
  }
}, 90_000);
