import type { CertificateSigningRequest } from '../../api';
import { FakeClock, flushPromises, Informer } from '../../client';
import { CertificateController, IgnorableError, type CsrHandler } from './certificateController';
import { csrResource } from './csrClient';
import type { ControllerLog } from './log';
import { approved, csrObject, waitFor } from './testing/builders';
import { FakeCsrApi } from './testing/fakeCsrApi';

interface Setup {
  api: FakeCsrApi;
  clock: FakeClock;
  informer: Informer<CertificateSigningRequest>;
  controller: CertificateController;
  logs: string[];
  abort: AbortController;
  running: Promise<void>;
}

function recordingLog(logs: string[]): ControllerLog {
  return {
    debug: (m, f) => logs.push(`debug ${m} ${JSON.stringify(f)}`),
    info: (m) => logs.push(`info ${m}`),
    error: (m) => logs.push(`error ${m}`),
  };
}

function start(handler: CsrHandler, opts: { workers?: number; ownsInformer?: boolean; seed?: CertificateSigningRequest[] } = {}): Setup {
  const api = new FakeCsrApi();
  for (const csr of opts.seed ?? []) api.seed(csr);
  const clock = new FakeClock();
  const informer = new Informer<CertificateSigningRequest>({ listWatch: api, clock });
  const logs: string[] = [];
  const controller = new CertificateController({ name: 'test', informer, handler, clock, workers: opts.workers ?? 1, log: recordingLog(logs), ownsInformer: opts.ownsInformer });
  const abort = new AbortController();
  const running = controller.run(abort.signal);
  return { api, clock, informer, controller, logs, abort, running };
}

async function stop(s: Setup): Promise<void> {
  s.abort.abort();
  await s.running;
  if (!s.controller.queue.shuttingDown()) throw new Error('queue not shut down');
}

describe('CertificateController', () => {
  it('hands each CSR without a certificate to the handler, as a private copy', async () => {
    const seen: string[] = [];
    const s = start(
      async (csr) => {
        seen.push(csr.metadata?.name ?? '');
        csr.spec = { signerName: 'mutated' };
      },
      { seed: [csrObject({ name: 'a' }), csrObject({ name: 'issued', certificate: 'Y2VydA==', conditions: [approved()] })] },
    );
    await waitFor(() => seen.length === 1, 'first sync');
    s.api.seed(csrObject({ name: 'b' }));
    await waitFor(() => seen.length === 2, 'watch-driven sync');
    expect(seen).toEqual(['a', 'b']);
    expect(s.informer.getByName('a')?.spec?.signerName).not.toBe('mutated');
    await stop(s);
  });

  it('ignores a deleted CSR and forgets its backoff', async () => {
    let calls = 0;
    const s = start(async () => {
      calls++;
      throw new Error('boom');
    }, { seed: [csrObject({ name: 'gone' })] });
    await waitFor(() => calls === 1, 'first failure');
    expect(s.controller.queue.numRequeues('gone')).toBe(1);
    await s.api.delete(csrResource, 'gone');
    await waitFor(() => s.controller.queue.numRequeues('gone') === 0, 'forget after the delete');
    expect(calls).toBe(1);
    await stop(s);
  });

  it('requeues a failure with upstream backoff (200 ms doubling) and forgets it on success', async () => {
    let calls = 0;
    const s = start(async () => {
      calls++;
      if (calls <= 2) throw new Error(`attempt ${calls} failed`);
    }, { seed: [csrObject({ name: 'x' })] });
    await waitFor(() => calls === 1, 'first attempt');
    await s.clock.advance(199);
    expect(calls).toBe(1);
    await s.clock.advance(1);
    await waitFor(() => calls === 2, 'retry after 200 ms');
    await s.clock.advance(399);
    expect(calls).toBe(2);
    await s.clock.advance(1);
    await waitFor(() => calls === 3, 'retry after 400 ms');
    await waitFor(() => s.controller.queue.numRequeues('x') === 0, 'forget');
    expect(s.logs.filter((l) => l.startsWith('error'))).toEqual(['error sync x failed with: attempt 1 failed', 'error sync x failed with: attempt 2 failed']);
    await stop(s);
  });

  it('logs an IgnorableError at debug level, yet retries it', async () => {
    let calls = 0;
    const s = start(async () => {
      calls++;
      throw new IgnorableError('not yet');
    }, { seed: [csrObject({ name: 'y' })] });
    await waitFor(() => calls === 1, 'first attempt');
    expect(s.logs.some((l) => l.startsWith('error'))).toBe(false);
    expect(s.logs).toContain('debug sync certificate request failed {"name":"test","csr":"y","err":"not yet"}');
    await s.clock.advance(200);
    await waitFor(() => calls === 2, 'retry');
    await stop(s);
  });

  it('runs N workers at once', async () => {
    const releases: Array<() => void> = [];
    let active = 0;
    let maxActive = 0;
    const s = start(
      async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise<void>((r) => releases.push(r));
        active--;
      },
      { workers: 2, seed: ['a', 'b', 'c'].map((name) => csrObject({ name })) },
    );
    await waitFor(() => releases.length === 2, 'two handlers running');
    expect(active).toBe(2);
    releases.shift()?.();
    await waitFor(() => releases.length === 2, 'third handler after one finished');
    for (const r of releases.splice(0)) r();
    await waitFor(() => active === 0, 'all done');
    expect(maxActive).toBe(2);
    await stop(s);
  });

  it.each([
    ['stops an informer it owns', true, true],
    ['leaves a shared informer running', false, false],
  ])('%s', async (_name, owns, stopped) => {
    const s = start(async () => undefined, { ownsInformer: owns, seed: [csrObject()] });
    await waitFor(() => s.informer.hasSynced(), 'sync');
    await stop(s);
    // A stopped informer no longer follows the API.
    s.api.seed(csrObject({ name: 'late' }));
    for (let i = 0; i < 5; i++) await flushPromises();
    expect(s.informer.getByName('late') === undefined).toBe(stopped);
    if (!owns) await s.informer.stop();
  });

  it('returns at once when aborted before the informer synced', async () => {
    const api = new FakeCsrApi();
    const informer = new Informer<CertificateSigningRequest>({ listWatch: { list: () => new Promise(() => undefined), watch: api.watch.bind(api) }, clock: new FakeClock() });
    const handler = jest.fn(async () => undefined);
    const controller = new CertificateController({ name: 't', informer, handler, clock: new FakeClock() });
    const abort = new AbortController();
    const running = controller.run(abort.signal);
    abort.abort();
    await running;
    expect(handler).not.toHaveBeenCalled();
    void informer.stop();
  });
});
