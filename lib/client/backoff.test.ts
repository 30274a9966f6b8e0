import { ExponentialBackoff, reflectorBackoff } from './backoff';
import { FakeClock } from './fakeClock';

describe('ExponentialBackoff with the reflector defaults', () => {
  it.each([
    { random: 0, want: [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, 30000] },
    { random: 0.5, want: [1200, 2400, 4800, 9600, 19200, 38400, 45000, 45000, 45000] },
  ])('random() = $random gives $want', ({ random, want }) => {
    const clock = new FakeClock();
    const b = new ExponentialBackoff(reflectorBackoff, clock, () => random);
    const got = want.map(() => b.next());
    expect(got).toEqual(want);
  });

  it('stays below twice the base delay with jitter 1', () => {
    const b = new ExponentialBackoff(reflectorBackoff, new FakeClock(), () => 0.999999);
    const got = Array.from({ length: 8 }, () => b.next());
    const base = [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000];
    got.forEach((d, i) => {
      expect(d).toBeGreaterThanOrEqual(base[i]);
      expect(d).toBeLessThan(2 * base[i]);
    });
  });

  it('starts over after two quiet minutes, not before', async () => {
    const clock = new FakeClock();
    const b = new ExponentialBackoff(reflectorBackoff, clock, () => 0);
    expect([b.next(), b.next(), b.next()]).toEqual([800, 1600, 3200]);
    await clock.advance(120_000);
    expect(b.next()).toBe(6400); // exactly 2 min since the last backoff: not yet "more than"
    await clock.advance(120_001);
    expect([b.next(), b.next()]).toEqual([800, 1600]);
  });
});
