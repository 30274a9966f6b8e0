// The bookmark schedule against a fake clock: each watcher is served at its due time (upstream's
// nextBookmarkTime), never before it, at most 250 ms after (random 0.5 here: 125 ms), and the
// bookmark before a deadline comes once.
import { BookmarkSchedule, type BookmarkTarget } from './bookmarkSchedule';
import { FakeClock } from '../machinery/testing/fakeClock';

/** Milliseconds after t0 at which each bookmark fell due, for one watcher added at `addedAt`. */
function bookmarkTimes(deadlineAfter: number | undefined, runMs: number, addedAt = 0): { at: number[]; timersLeft: number } {
  const clock = new FakeClock();
  const t0 = clock.now();
  const schedule = new BookmarkSchedule(clock.now, clock.setTimer, () => 0.5);
  const at: number[] = [];
  clock.advance(addedAt);
  const target: BookmarkTarget = {
    isClosed: false,
    deadline: deadlineAfter === undefined ? undefined : t0 + deadlineAfter,
    bookmarkDue: () => at.push(clock.now() - t0),
  };
  schedule.add(target);
  clock.advance(runMs);
  const timersLeft = clock.timers;
  schedule.stop();
  return { at, timersLeft };
}

describe("one watcher's bookmarks", () => {
  test.each([
    ['no deadline: every minute', undefined, 0, [60_125, 120_250]],
    ['5 s: once, 2 s before (+125 ms)', 5_000, 0, [3_125]],
    // Upstream pops bucket 3 at its first tick inside that second and, before 3,500, sends another a second later.
    ['5.5 s: once, not again a second later', 5_500, 0, [3_625]],
    ['65 s: the minute, then once 2 s before', 65_000, 0, [60_125, 63_125]],
    ['added mid-second: due times are exact, not whole seconds', 10_000, 700, [8_125]],
    ['1.5 s: none', 1_500, 0, []],
  ])('%s', (_name, deadline, addedAt, expected) => {
    const { at, timersLeft } = bookmarkTimes(deadline, 125_000, addedAt);
    expect(at).toEqual(expected);
    // A watcher with a deadline leaves the schedule after its last bookmark, and no timer is left.
    if (deadline !== undefined) expect(timersLeft).toBe(0);
  });

  test('over many deadlines, one bookmark 2 s (+125 ms) before the deadline and none after it', () => {
    for (let deadline = 2_001; deadline < 70_000; deadline += 997) {
      const { at } = bookmarkTimes(deadline, 80_000);
      expect(at.filter((t) => t > deadline - 2_250)).toEqual([deadline - 2_000 + 125]);
    }
  });
});

test('one timer for many watchers, armed for the earliest; none while nobody waits', () => {
  const clock = new FakeClock();
  const t0 = clock.now();
  const schedule = new BookmarkSchedule(clock.now, clock.setTimer, () => 0);
  const at: Record<string, number[]> = { a: [], b: [], c: [] };
  const target = (name: string, deadline: number): BookmarkTarget => ({ isClosed: false, deadline: t0 + deadline, bookmarkDue: () => at[name].push(clock.now() - t0) });
  schedule.add(target('b', 9_000)); // due 7,000
  schedule.add(target('a', 4_000)); // due 2,000: the timer moves earlier
  schedule.add(target('c', 9_400)); // due 7,400
  expect(clock.timers).toBe(1);
  clock.advance(20_000);
  expect(at).toEqual({ a: [2_000], b: [7_000], c: [7_400] });
  expect(clock.timers).toBe(0);
  schedule.stop();
});
