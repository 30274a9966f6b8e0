import { addPostStartHook, createLogCheck, createShutdownCheck, pingCheck, registerDefaultChecks } from './defaults';
import { HealthRegistry } from './registry';

describe('default checks', () => {
  test('registration order per endpoint', () => {
    const reg = new HealthRegistry();
    const d = registerDefaultChecks(reg, { etcd: () => null });
    d.addPostStartHook('a');
    d.addPostStartHook('rbac/bootstrap-roles');
    const names = (e: 'livez' | 'readyz' | 'healthz'): string[] => reg.checksFor(e).map((c) => c.name);
    expect(names('livez')).toEqual(['ping', 'log', 'etcd', 'poststarthook/a', 'poststarthook/rbac/bootstrap-roles']);
    expect(names('healthz')).toEqual(names('livez'));
    expect(names('readyz')).toEqual(['ping', 'log', 'etcd', 'etcd-readiness', 'poststarthook/a', 'poststarthook/rbac/bootstrap-roles', 'shutdown']);
  });

  test('etcd-readiness uses its own function when given', async () => {
    const reg = new HealthRegistry();
    registerDefaultChecks(reg, { etcd: () => null, etcdReadiness: () => 'not ready' });
    expect((await reg.handleHealth('readyz', 'etcd-readiness', {})).body).toBe('internal server error: not ready\n');
    expect((await reg.handleHealth('readyz', 'etcd', {})).body).toBe('ok');
  });

  test('post-start hook fails with "not finished" until completed', async () => {
    const reg = new HealthRegistry();
    const hook = addPostStartHook(reg, 'x');
    expect((await reg.handleHealth('healthz', 'poststarthook/x', {})).body).toBe('internal server error: not finished\n');
    hook.complete();
    expect((await reg.handleHealth('healthz', 'poststarthook/x', {})).body).toBe('ok');
  });

  test('shutdown check flips when the lifecycle says shutdown was initiated', () => {
    let initiated = false;
    const s = createShutdownCheck(() => initiated);
    expect(s.check()).toBeNull();
    initiated = true;
    expect(s.check()).toBe('process is shutting down');
    expect(pingCheck.check()).toBeNull();
  });

  test('log check fails with "logging blocked" when flushes stall past the limit', async () => {
    jest.useFakeTimers();
    try {
      let t = 0;
      let blocked = false;
      const log = createLogCheck({ now: () => t, intervalMs: 1000, maxStaleMs: 2000, flush: () => (blocked ? new Promise<void>(() => undefined) : undefined) });
      expect(log.check.check()).toBeNull();
      t = 1000;
      await jest.advanceTimersByTimeAsync(1000); // a flush completes at t=1000
      t = 2900;
      expect(log.check.check()).toBeNull();
      blocked = true;
      await jest.advanceTimersByTimeAsync(1000); // this flush never completes
      t = 3100;
      expect(log.check.check()).toBe('logging blocked');
      log.stop();
    } finally {
      jest.useRealTimers();
    }
  });
});
