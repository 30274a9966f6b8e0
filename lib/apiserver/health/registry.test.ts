import { registerDefaultChecks } from './defaults';
import { HealthRegistry, type HealthEndpoint, type HealthQuery } from './registry';

const text = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };

/** The reference server's layout: ping, log, etcd (+ an override in the etcd group), hooks, shutdown. */
function server(state: { etcd?: string; hook?: boolean; shutdown?: boolean } = {}) {
  const failures: string[] = [];
  const reg = new HealthRegistry({ onFailure: (e, n, r) => failures.push(`${e}:${n}:${r}`) });
  const d = registerDefaultChecks(reg, { etcd: () => state.etcd, shutdownInitiated: () => state.shutdown === true });
  reg.add({ name: 'etcd-override-0', group: 'etcd', check: () => state.etcd });
  const hook = d.addPostStartHook('start-svc-apiserver-admission-initializer');
  if (state.hook !== false) hook.complete();
  reg.add({ name: 'informer-sync', endpoints: ['readyz'], check: () => null });
  return { reg, failures };
}

describe('failing reasons in ?verbose listings (departure: for callers who may read the check itself)', () => {
  const mayReadEtcd = (endpoint: HealthEndpoint, name: string): boolean => endpoint === 'readyz' && name === 'etcd';
  const reason = 'error getting data from etcd: etcd unreachable since 2026-12-02T04:31:07.412Z (3.0 s): http://127.0.0.1:2379: connect ECONNREFUSED 127.0.0.1:2379';
  test.each<[string, HealthQuery, ((e: HealthEndpoint, n: string) => boolean) | undefined, string]>([
    ['anonymous (no reveal function): upstream bytes', { verbose: '' }, undefined, '[-]etcd failed: reason withheld\n'],
    ['may read /readyz/etcd and asks ?verbose: the reason, as upstream logs it', { verbose: '' }, mayReadEtcd, `[-]etcd failed: ${reason}\n`],
    ['may read /readyz/etcd but no ?verbose (a probe): upstream bytes', {}, mayReadEtcd, '[-]etcd failed: reason withheld\n'],
    ['may read nothing: upstream bytes', { verbose: '' }, () => false, '[-]etcd failed: reason withheld\n'],
  ])('%s', async (_name, query, reveal, etcdLine) => {
    const { reg } = server({ etcd: reason });
    const r = await reg.handleHealth('readyz', '', query, reveal);
    expect(r.status).toBe(500);
    expect(r.body).toContain(etcdLine);
    // Only the checks the caller may read: etcd-readiness fails with the same reason but stays withheld.
    expect(r.body).toContain('[-]etcd-readiness failed: reason withheld\n');
    expect(r.body.endsWith('readyz check failed\n')).toBe(true);
    expect(r.failed).toEqual([
      { name: 'etcd', reason },
      { name: 'etcd-readiness', reason },
      { name: 'etcd-override-0', reason },
    ]);
  });
});

describe('root endpoints', () => {
  test.each<[string, HealthEndpoint, Parameters<typeof server>[0], HealthQuery, number, string]>([
    ['healthy → exactly ok', 'livez', {}, {}, 200, 'ok'],
    ['healthy readyz → ok', 'readyz', {}, {}, 200, 'ok'],
    [
      'verbose (value irrelevant)',
      'livez',
      {},
      { verbose: '' },
      200,
      '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]etcd-override-0 ok\n[+]poststarthook/start-svc-apiserver-admission-initializer ok\nlivez check passed\n',
    ],
    [
      'readyz verbose lists readyz-only checks, shutdown last',
      'readyz',
      {},
      new URLSearchParams('verbose=false'),
      200,
      '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]etcd-readiness ok\n[+]etcd-override-0 ok\n[+]poststarthook/start-svc-apiserver-admission-initializer ok\n[+]informer-sync ok\n[+]shutdown ok\nreadyz check passed\n',
    ],
    [
      'healthz uses its own name in the summary',
      'healthz',
      {},
      { verbose: '1' },
      200,
      '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]etcd-override-0 ok\n[+]poststarthook/start-svc-apiserver-admission-initializer ok\nhealthz check passed\n',
    ],
    [
      'failing → 500, always verbose, reason withheld',
      'livez',
      { etcd: 'connection refused' },
      {},
      500,
      '[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\n[-]etcd-override-0 failed: reason withheld\n[+]poststarthook/start-svc-apiserver-admission-initializer ok\nlivez check failed\n',
    ],
    [
      'unfinished post-start hook fails',
      'healthz',
      { hook: false },
      {},
      500,
      '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]etcd-override-0 ok\n[-]poststarthook/start-svc-apiserver-admission-initializer failed: reason withheld\nhealthz check failed\n',
    ],
    ['shutdown fails readyz only', 'livez', { shutdown: true }, {}, 200, 'ok'],
    [
      'shutdown fails readyz',
      'readyz',
      { shutdown: true },
      {},
      500,
      '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]etcd-readiness ok\n[+]etcd-override-0 ok\n[+]poststarthook/start-svc-apiserver-admission-initializer ok\n[+]informer-sync ok\n[-]shutdown failed: reason withheld\nreadyz check failed\n',
    ],
    ['exclude a failing check → healthy, terse', 'livez', { etcd: 'down' }, { exclude: 'etcd' }, 200, 'ok'],
    [
      'exclude by name and through the group, verbose',
      'livez',
      { etcd: 'down' },
      { exclude: 'etcd', verbose: '' },
      200,
      '[+]ping ok\n[+]log ok\n[+]etcd excluded: ok\n[+]etcd-override-0 excluded with etcd: ok\n[+]poststarthook/start-svc-apiserver-admission-initializer ok\nlivez check passed\n',
    ],
    [
      'exclude repeatable; unmatched names sorted and quoted in a warn line',
      'livez',
      {},
      new URLSearchParams('exclude=zz&exclude=log&exclude=informer-sync&verbose'),
      200,
      '[+]ping ok\n[+]log excluded: ok\n[+]etcd ok\n[+]etcd-override-0 ok\n[+]poststarthook/start-svc-apiserver-admission-initializer ok\nwarn: some health checks cannot be excluded: no matches for "informer-sync","zz"\nlivez check passed\n',
    ],
    [
      'warn line also appears on failure',
      'livez',
      { hook: false },
      { exclude: ['nope'] },
      500,
      '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]etcd-override-0 ok\n[-]poststarthook/start-svc-apiserver-admission-initializer failed: reason withheld\nwarn: some health checks cannot be excluded: no matches for "nope"\nlivez check failed\n',
    ],
    ['exclude without verbose stays terse even with a warning', 'livez', {}, { exclude: 'nope' }, 200, 'ok'],
    [
      'group exclusion of etcd-readiness',
      'readyz',
      { etcd: 'down' },
      { exclude: ['etcd-readiness', 'etcd'], verbose: '' },
      200,
      '[+]ping ok\n[+]log ok\n[+]etcd excluded: ok\n[+]etcd-readiness excluded: ok\n[+]etcd-override-0 excluded with etcd: ok\n[+]poststarthook/start-svc-apiserver-admission-initializer ok\n[+]informer-sync ok\n[+]shutdown ok\nreadyz check passed\n',
    ],
    [
      'name with quotes is Go-quoted',
      'livez',
      {},
      { exclude: 'a"b', verbose: '' },
      200,
      '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]etcd-override-0 ok\n[+]poststarthook/start-svc-apiserver-admission-initializer ok\nwarn: some health checks cannot be excluded: no matches for "a\\"b"\nlivez check passed\n',
    ],
  ])('%s', async (_n, endpoint, state, query, status, body) => {
    const { reg } = server(state);
    const { failed: _failed, ...response } = await reg.handleHealth(endpoint, '', query);
    expect(response).toEqual({ status, headers: text, body });
  });

  test('failure reasons go to onFailure, not the body', async () => {
    const { reg, failures } = server({ etcd: 'dial tcp 127.0.0.1:2379: connect: connection refused' });
    await reg.handleHealth('livez', '', {});
    expect(failures).toEqual([
      'livez:etcd:dial tcp 127.0.0.1:2379: connect: connection refused',
      'livez:etcd-override-0:dial tcp 127.0.0.1:2379: connect: connection refused',
    ]);
  });
});

describe('per-check paths', () => {
  test.each<[string, HealthEndpoint, string, Parameters<typeof server>[0], number, string]>([
    ['healthy check', 'readyz', 'etcd', {}, 200, 'ok'],
    ['leading slash accepted', 'readyz', '/etcd', {}, 200, 'ok'],
    ['failing check reveals its reason', 'readyz', 'etcd', { etcd: 'connection refused' }, 500, 'internal server error: connection refused\n'],
    ['name with slashes', 'livez', 'poststarthook/start-svc-apiserver-admission-initializer', { hook: false }, 500, 'internal server error: not finished\n'],
    ['shutdown reason', 'readyz', 'shutdown', { shutdown: true }, 500, 'internal server error: process is shutting down\n'],
    ['unknown check → 404', 'livez', 'nope', {}, 404, ''],
    ['readyz-only check is not under livez', 'livez', 'etcd-readiness', {}, 404, ''],
  ])('%s', async (_n, endpoint, sub, state, status, body) => {
    const { reg } = server(state);
    const r = await reg.handleHealth(endpoint, sub, {});
    expect({ status: r.status, body: r.body }).toEqual({ status, body });
    expect(r.headers).toEqual(text);
  });
});

describe('check functions', () => {
  test.each<[string, () => unknown, string | null]>([
    ['undefined → ok', () => undefined, null],
    ['null → ok', () => null, null],
    ['string → failure', () => 'bad', 'bad'],
    ['async string → failure', async () => 'later', 'later'],
    ['throw → failure with message', () => {
      throw new Error('boom');
    }, 'boom'],
    ['rejection → failure', () => Promise.reject(new Error('nope')), 'nope'],
    ['non-Error throw', () => {
      throw 'raw';
    }, 'raw'],
  ])('%s', async (_n, fn, want) => {
    const reg = new HealthRegistry();
    reg.add({ name: 'c', check: fn as () => string | null });
    expect(await reg.run('livez', reg.checksFor('livez')[0])).toBe(want);
  });

  test('slow checks time out', async () => {
    const reg = new HealthRegistry({ checkTimeoutMs: 20 });
    reg.add({ name: 'slow', check: () => new Promise<string | null>((r) => setTimeout(() => r(null), 1000).unref()) });
    expect(await reg.handleHealth('readyz', 'slow', {})).toMatchObject({ status: 500, body: 'internal server error: timed out after 20ms\n' });
  });

  test('livez grace period: boot-sequence checks pass on /livez until it has elapsed; other checks and endpoints are not delayed', async () => {
    let t = 1000;
    const reg = new HealthRegistry({ now: () => t, livezGracePeriodMs: 500 });
    reg.add({ name: 'poststarthook/slow', bootSequence: true, check: () => 'not finished' });
    expect(await reg.handleHealth('livez', '', {})).toMatchObject({ status: 200, body: 'ok' });
    expect((await reg.handleHealth('livez', 'poststarthook/slow', {})).status).toBe(200);
    expect((await reg.handleHealth('readyz', '', {})).status).toBe(500);
    expect((await reg.handleHealth('healthz', '', {})).status).toBe(500);
    t = 1500; // upstream: the check runs once the clock is after start + grace
    expect((await reg.handleHealth('livez', '', {})).status).toBe(200);
    t = 1501;
    expect((await reg.handleHealth('livez', '', {})).body).toBe('[-]poststarthook/slow failed: reason withheld\nlivez check failed\n');
  });

  test('livez grace period does not hide a failing non-boot check', async () => {
    const reg = new HealthRegistry({ now: () => 0, livezGracePeriodMs: 60_000 });
    reg.add({ name: 'etcd', check: () => 'down' });
    expect((await reg.handleHealth('livez', 'etcd', {})).status).toBe(500);
  });

  test('no grace period: a boot-sequence check fails /livez at once', async () => {
    const reg = new HealthRegistry({ now: () => 0 });
    reg.add({ name: 'poststarthook/slow', bootSequence: true, check: () => 'not finished' });
    expect((await reg.handleHealth('livez', '', {})).status).toBe(500);
  });

  test('duplicate names per endpoint are refused; same name on disjoint endpoints is fine', () => {
    const reg = new HealthRegistry();
    reg.add({ name: 'x', endpoints: ['readyz'], check: () => null });
    reg.add({ name: 'x', endpoints: ['livez'], check: () => null });
    expect(() => reg.add({ name: 'x', check: () => null })).toThrow('health check "x" already registered for /livez');
  });

  test('an endpoint without checks is healthy', async () => {
    expect(await new HealthRegistry().handleHealth('healthz', '', { verbose: '' })).toEqual({ status: 200, headers: text, body: 'healthz check passed\n' });
  });

  test('handleHealth is usable detached from the registry', async () => {
    const { handleHealth } = server().reg;
    expect((await handleHealth('livez', '', {})).body).toBe('ok');
  });
});
