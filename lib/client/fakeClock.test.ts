import { sleep } from './clock';
import { FakeClock } from './fakeClock';

describe('FakeClock', () => {
  it('fires timers in time order, including ones scheduled while advancing, and honours cancel', async () => {
    const clock = new FakeClock(0);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 200);
    clock.setTimeout(() => {
      fired.push(`a@${clock.now()}`);
      clock.setTimeout(() => fired.push(`c@${clock.now()}`), 50);
    }, 100);
    const cancelled = clock.setTimeout(() => fired.push('never'), 120);
    cancelled.cancel();
    expect(clock.nextDelay()).toBe(100);
    await clock.advance(199);
    expect(fired).toEqual(['a@100', 'c@150']);
    await clock.advance(1);
    expect(fired).toEqual(['a@100', 'c@150', 'b@200']);
    expect(clock.now()).toBe(200);
    expect(clock.requestedDelays).toEqual([200, 100, 120, 50]);
  });

  it('sleep resolves true when the time passed and false when aborted', async () => {
    const clock = new FakeClock(0);
    const ac = new AbortController();
    const long = sleep(clock, 1000, ac.signal);
    const short = sleep(clock, 10);
    await clock.advance(10);
    expect(await short).toBe(true);
    ac.abort();
    expect(await long).toBe(false);
    expect(clock.pendingCount()).toBe(0);
  });
});
