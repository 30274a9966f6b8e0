import { ServerLifecycle, ShutdownOptions } from './gracefulShutdown';
import type { LifecycleSignals } from './signals';

/** A sleep the test releases by hand: each call waits until advance() passes its due time. */
function manualClock() {
  let now = 0;
  const waiting: { at: number; resolve: () => void }[] = [];
  return {
    sleep: (ms: number) => new Promise<void>((resolve) => waiting.push({ at: now + ms, resolve })),
    async advance(ms: number) {
      now += ms;
      for (const w of waiting.filter((x) => x.at <= now)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
      await flush();
    },
  };
}

const flush = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

function fired(s: LifecycleSignals): string[] {
  return Object.values(s)
    .filter((x) => x.signaled)
    .map((x) => x.name);
}

/** `before` runs ahead of SIGTERM (with no delay the sequence reaches the drain synchronously). */
function setup(opts: Partial<ShutdownOptions> = {}, before: (lc: ServerLifecycle) => void = () => undefined) {
  const clock = manualClock();
  const lc = new ServerLifecycle({ shutdownDelayMs: 3000, sendRetryAfter: false, watchTerminationGraceMs: 0, ...opts }, undefined, clock.sleep);
  before(lc);
  const steps: string[] = [];
  const done = lc.shutdown({
    stopListening: () => steps.push('stopListening'),
    afterDrained: async () => {
      steps.push('afterDrained');
    },
    closeConnections: async () => {
      steps.push('closeConnections');
    },
  });
  return { clock, lc, steps, done };
}

describe('graceful shutdown sequence', () => {
  test('readyz signal first; requests still admitted until the delay has passed', async () => {
    const { clock, lc, steps } = setup();
    await flush();
    expect(fired(lc.signals)).toEqual(['ShutdownInitiated']);
    expect(lc.nonLongRunning.add()).toBe(true); // served during the delay
    lc.nonLongRunning.done();
    await clock.advance(2999);
    expect(fired(lc.signals)).toEqual(['ShutdownInitiated']);
    await clock.advance(1);
    expect(fired(lc.signals)).toEqual(['ShutdownInitiated', 'AfterShutdownDelayDuration', 'NotAcceptingNewRequest', 'InFlightRequestsDrained', 'HTTPServerStoppedListening']);
    expect(steps).toEqual(['stopListening', 'afterDrained', 'closeConnections']);
    expect(lc.nonLongRunning.add()).toBe(false);
  });

  test('an in-flight request holds the drain; the listener closes at once without send-retry-after', async () => {
    const { clock, lc, steps, done } = setup();
    expect(lc.nonLongRunning.add()).toBe(true);
    await clock.advance(3000);
    expect(lc.signals.httpServerStoppedListening.signaled).toBe(true);
    expect(lc.signals.inFlightRequestsDrained.signaled).toBe(false);
    expect(steps).toEqual(['stopListening']);
    lc.nonLongRunning.done();
    await done;
    expect(steps).toEqual(['stopListening', 'afterDrained', 'closeConnections']);
  });

  test('with send-retry-after the listener stays open until in-flight requests drained', async () => {
    const { clock, lc, steps, done } = setup({ sendRetryAfter: true });
    lc.nonLongRunning.add();
    await clock.advance(3000);
    expect(lc.signals.notAcceptingNewRequest.signaled).toBe(true);
    expect(lc.signals.httpServerStoppedListening.signaled).toBe(false);
    lc.nonLongRunning.done();
    await done;
    expect(steps).toEqual(['stopListening', 'afterDrained', 'closeConnections']);
  });

  test('watches are ended at NotAcceptingNewRequest; without a grace period nobody waits for them', async () => {
    const { clock, lc, done } = setup();
    const ended: number[] = [];
    lc.watches.register(() => ended.push(1));
    await clock.advance(2999);
    expect(ended).toEqual([]); // still streaming during the delay
    await clock.advance(1);
    await done;
    expect(ended).toEqual([1]);
    expect(lc.watches.register(() => undefined)).toBeNull();
  });

  test('with a grace period the drain waits for watches to finish', async () => {
    let handle: { done(): void } | null = null;
    const { clock, lc, done } = setup({ shutdownDelayMs: 0, watchTerminationGraceMs: 10_000 }, (l) => {
      handle = l.watches.register(() => setTimeout(() => handle?.done(), 0));
    });
    await flush();
    expect(lc.signals.notAcceptingNewRequest.signaled).toBe(true);
    await clock.advance(5); // the drain's pacing step
    await new Promise((r) => setTimeout(r, 5));
    await done;
    expect(lc.signals.inFlightRequestsDrained.signaled).toBe(true);
  });

  test('a watch that does not finish holds the drain only for the grace period', async () => {
    let ends = 0;
    const { clock, lc, done } = setup({ shutdownDelayMs: 0, watchTerminationGraceMs: 10_000 }, (l) => {
      l.watches.register(() => ends++);
    });
    await clock.advance(9_000);
    expect(lc.signals.inFlightRequestsDrained.signaled).toBe(false);
    await clock.advance(1_000);
    await done;
    expect(lc.signals.inFlightRequestsDrained.signaled).toBe(true);
    expect(ends).toBe(2); // paced once, then once more when the grace ran out
  });

  test('shutdown runs once', async () => {
    const { clock, lc, done } = setup({ shutdownDelayMs: 0 });
    const again = lc.shutdown({ stopListening: () => undefined, closeConnections: async () => undefined });
    await clock.advance(0);
    await Promise.all([done, again]);
    expect(lc.signals.httpServerStoppedListening.signaled).toBe(true);
  });
});
