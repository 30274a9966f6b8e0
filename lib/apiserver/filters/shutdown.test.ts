import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../../machinery/errors';
import { ServerLifecycle } from '../lifecycle';
import { admitDuringShutdown, isRequestExemptFromRetryAfter } from './shutdown';

function fakeRes() {
  const out = { status: 0, headers: {} as Record<string, unknown>, body: '' };
  const res = {
    headersSent: false,
    setHeader: (k: string, v: unknown) => (out.headers[k] = v),
    writeHead: (code: number, h: Record<string, unknown>) => {
      out.status = code;
      Object.assign(out.headers, h);
    },
    end: (b?: string) => (out.body = b ?? ''),
  };
  return { res: res as unknown as ServerResponse, out };
}
const req = (ua = 'kubectl/v1.32.0'): IncomingMessage => ({ method: 'GET', headers: { 'user-agent': ua } }) as unknown as IncomingMessage;

/** state: running | delay (ShutdownInitiated only) | refusing (NotAcceptingNewRequest). */
function lifecycle(state: 'running' | 'delay' | 'refusing', sendRetryAfter: boolean): ServerLifecycle {
  const lc = new ServerLifecycle({ shutdownDelayMs: 0, sendRetryAfter, watchTerminationGraceMs: 0 });
  if (state !== 'running') lc.signals.shutdownInitiated.signal();
  if (state === 'refusing') {
    lc.signals.afterShutdownDelayDuration.signal();
    lc.signals.notAcceptingNewRequest.signal();
    void lc.nonLongRunning.wait();
  }
  return lc;
}

describe('admitDuringShutdown', () => {
  test.each<[string, 'running' | 'delay' | 'refusing', boolean, string, boolean, 'serve' | 429 | 503]>([
    ['running: served', 'running', false, '/api/v1/namespaces', false, 'serve'],
    ['during the delay: still served', 'delay', true, '/api/v1/namespaces', false, 'serve'],
    ['refusing, no retry-after: 503', 'refusing', false, '/api/v1/namespaces', false, 503],
    ['refusing, retry-after: 429', 'refusing', true, '/api/v1/namespaces', false, 429],
    ['refusing, retry-after, a new watch: 429', 'refusing', true, '/api/v1/namespaces', true, 429],
    ['refusing, a new watch: 503', 'refusing', false, '/api/v1/namespaces', true, 503],
    ['/readyz is exempt', 'refusing', true, '/readyz', false, 'serve'],
    ['/livez/ping is exempt', 'refusing', false, '/livez/ping', false, 'serve'],
    ['/healthz is exempt', 'refusing', true, '/healthz', false, 'serve'],
    ['/metrics is exempt', 'refusing', true, '/metrics', false, 'serve'],
    ['/version is not', 'refusing', true, '/version', false, 429],
  ])('%s', (_n, state, retryAfter, path, longRunning, want) => {
    const { res, out } = fakeRes();
    let got: 'serve' | number;
    try {
      got = admitDuringShutdown(lifecycle(state, retryAfter), req(), res, path, longRunning).kind === 'serve' ? 'serve' : out.status;
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      expect((e as ApiError).status).toMatchObject({ code: 503, reason: 'ServiceUnavailable', message: 'apiserver is shutting down' });
      expect(out.headers['Retry-After']).toBe('1');
      got = 503;
    }
    expect(got).toBe(want);
  });

  test("429 is upstream's: Retry-After 5, Connection close, text message", () => {
    const { res, out } = fakeRes();
    admitDuringShutdown(lifecycle('refusing', true), req(), res, '/api', false);
    expect(out).toEqual({
      status: 429,
      headers: { Connection: 'close', 'Retry-After': '5', 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Content-Length': 56 },
      body: 'The apiserver is shutting down, please try again later.\n',
    });
  });

  test('admitted requests are counted until released', () => {
    const lc = lifecycle('running', false);
    const a = admitDuringShutdown(lc, req(), fakeRes().res, '/api', false);
    expect(lc.nonLongRunning.count).toBe(1);
    if (a.kind === 'serve') {
      a.release();
      a.release();
    }
    expect(lc.nonLongRunning.count).toBe(0);
    admitDuringShutdown(lc, req(), fakeRes().res, '/api', true);
    expect(lc.nonLongRunning.count).toBe(0); // watches are tracked by the watch handler
  });

  test("the server's own user agent is exempt", () => {
    expect(isRequestExemptFromRetryAfter('/api', 'svc-apiserver/v1.32.0')).toBe(true);
    expect(isRequestExemptFromRetryAfter('/api', 'kubectl/v1.32.0')).toBe(false);
  });
});
