// --livez-grace-period as upstream defines it: for that long after start, /livez counts
// unfinished post-start hooks as healthy (a slow boot is not restarted), while other checks
// (etcd) and /readyz are never delayed. etcd is unreachable here, so the hooks cannot finish.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiServerProcess, freePort } from './support/apiserver';

jest.setTimeout(60_000);

const servers: ApiServerProcess[] = [];

async function startWithoutEtcd(args: string[]): Promise<ApiServerProcess> {
  // A port nobody listens on: storage is unreachable for the whole test.
  const s = new ApiServerProcess(mkdtempSync(join(tmpdir(), 'svc-livez-')), await freePort(), `http://127.0.0.1:${await freePort()}`, args);
  servers.push(s);
  await s.start({ path: '/livez' });
  return s;
}

afterAll(async () => {
  for (const s of servers) {
    await s.stop();
    rmSync(s.dir, { recursive: true, force: true });
  }
});

const hook = 'poststarthook/rbac/bootstrap-roles';

test('within the grace period unfinished post-start hooks pass /livez; etcd and /readyz are not delayed', async () => {
  const s = await startWithoutEtcd(['--livez-grace-period=1h']);
  const livez = await s.request('GET', '/livez?exclude=etcd&verbose');
  expect(livez.status).toBe(200);
  expect(livez.body).toContain(`[+]${hook} ok\n`);
  expect((await s.request('GET', `/livez/${hook}`)).body).toBe('ok');
  const all = await s.request('GET', '/livez');
  expect(all.status).toBe(500);
  expect(all.body).toContain('[-]etcd failed: reason withheld\n');
  const readyz = await s.request('GET', '/readyz?exclude=etcd&exclude=etcd-readiness');
  expect(readyz.status).toBe(500);
  expect(readyz.body).toContain(`[-]${hook} failed: reason withheld\n`);
  // A SIGTERM while hooks still wait for etcd is still a clean exit.
  expect(await s.signal('SIGTERM')).toBe(0);
});

test('without a grace period (the default) unfinished post-start hooks fail /livez', async () => {
  const s = await startWithoutEtcd([]);
  const livez = await s.request('GET', '/livez?exclude=etcd');
  expect(livez.status).toBe(500);
  expect(livez.body).toContain(`[-]${hook} failed: reason withheld\n`);
  expect((await s.request('GET', `/livez/${hook}`)).body).toBe('internal server error: not finished\n');
});
