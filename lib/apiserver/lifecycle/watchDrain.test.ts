import { minWatchDrainQPS, WatchTracker } from './watchDrain';

describe('WatchTracker.drain', () => {
  test('paces ends at max(count/grace, 200) per second', async () => {
    const t = new WatchTracker();
    const gaps: number[] = [];
    for (let i = 0; i < 3; i++) {
      const h = t.register(() => h?.done());
    }
    const sleep = (ms: number): Promise<void> => {
      gaps.push(ms);
      return ms >= 1000 ? new Promise(() => undefined) : Promise.resolve();
    };
    const r = await t.drain(10_000, sleep);
    expect(r).toEqual({ activeBefore: 3, activeAfter: 0 });
    // The first sleep is the grace deadline; then one pause per watch at the floor rate (3/10 s < 200/s).
    expect(gaps).toEqual([10_000, 1000 / minWatchDrainQPS, 1000 / minWatchDrainQPS, 1000 / minWatchDrainQPS]);
  });

  test('many watches over a short grace drain faster than the floor', async () => {
    const t = new WatchTracker();
    for (let i = 0; i < 1000; i++) {
      const h = t.register(() => h?.done());
    }
    const gaps: number[] = [];
    await t.drain(1000, (ms) => {
      gaps.push(ms);
      return ms >= 1000 ? new Promise(() => undefined) : Promise.resolve();
    });
    expect(gaps[1]).toBe(1); // 1000 watches / 1 s
  });

  test('grace 0 ends every watch at once and does not wait', async () => {
    const t = new WatchTracker();
    let ended = 0;
    t.register(() => ended++);
    t.register(() => ended++);
    const r = await t.drain(0, () => new Promise(() => undefined));
    expect(ended).toBe(2);
    expect(r).toEqual({ activeBefore: 2, activeAfter: 2 });
  });

  test('done() is idempotent and unknown handles do not go negative', () => {
    const t = new WatchTracker();
    const h = t.register(() => undefined);
    h?.done();
    h?.done();
    expect(t.count).toBe(0);
  });
});
