import { FakeClock } from './fakeClock';
import { BucketRateLimiter, defaultControllerRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter } from './rateLimiter';

describe('ItemExponentialFailureRateLimiter', () => {
  it('doubles per item from the base to the cap, and forgets', () => {
    const r = new ItemExponentialFailureRateLimiter<string>(5, 1_000_000);
    const a = Array.from({ length: 20 }, () => r.when('a'));
    expect(a.slice(0, 5)).toEqual([5, 10, 20, 40, 80]);
    expect(a[17]).toBe(655_360);
    expect(a.slice(18)).toEqual([1_000_000, 1_000_000]);
    expect(r.when('b')).toBe(5);
    expect(r.numRequeues('a')).toBe(20);
    r.forget('a');
    expect(r.numRequeues('a')).toBe(0);
    expect(r.when('a')).toBe(5);
  });
});

describe('BucketRateLimiter', () => {
  it('lets a burst through, then spaces calls at the rate, and refills over time', async () => {
    const clock = new FakeClock();
    const r = new BucketRateLimiter<string>(10, 100, clock);
    const burst = Array.from({ length: 100 }, (_, i) => r.when(`k${i}`));
    expect(burst.every((d) => d === 0)).toBe(true);
    expect([r.when('x'), r.when('y'), r.when('z')]).toEqual([100, 200, 300]);
    await clock.advance(1000); // +10 tokens: debt of 3 paid, 7 left
    expect(Array.from({ length: 7 }, () => r.when('w'))).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(r.when('w')).toBeCloseTo(100, 6);
    expect(r.numRequeues('x')).toBe(0);
  });
});

describe('defaultControllerRateLimiter', () => {
  it('is the larger of per-item backoff and the overall bucket', () => {
    const clock = new FakeClock();
    const r = defaultControllerRateLimiter<string>(clock);
    expect([r.when('a'), r.when('a'), r.when('a')]).toEqual([5, 10, 20]);
    for (let i = 0; i < 97; i++) r.when(`other-${i}`);
    // The bucket is now empty: a fresh item waits for a token (100 ms), not its own 5 ms.
    expect(r.when('fresh')).toBe(100);
    expect(r.numRequeues('a')).toBe(3);
    r.forget('a');
    expect(r.numRequeues('a')).toBe(0);
  });

  it('MaxOf forgets in every limiter', () => {
    const a = new ItemExponentialFailureRateLimiter<string>(1, 100);
    const b = new ItemExponentialFailureRateLimiter<string>(3, 100);
    const m = new MaxOfRateLimiter(a, b);
    expect([m.when('k'), m.when('k')]).toEqual([3, 6]);
    m.forget('k');
    expect([a.numRequeues('k'), b.numRequeues('k')]).toEqual([0, 0]);
  });
});
