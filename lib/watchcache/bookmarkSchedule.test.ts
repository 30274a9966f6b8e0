// The bookmark schedule tick by tick against upstream's arithmetic (1.32 cacher.go
// watcherBookmarkTimeBuckets + dispatchEvents' bookmark timer, cache_watcher.go nextBookmarkTime).
// random 0.5: upstream's wait.Jitter(1 s, 0.25) is 1125 ms, so the ticks after the first watcher
// arrives fall at 1125, 2250, 3375, … ms; buckets are whole seconds from the schedule's creation.
import { BookmarkSchedule, type BookmarkTarget } from './bookmarkSchedule';
import { FakeClock } from './testing/fakeClock';

/** Milliseconds after t0 at which each bookmark fell due, for one watcher added at t0. */
function bookmarkTimes(deadlineAfter: number | undefined, runMs: number): { at: number[]; timersLeft: number } {
  const clock = new FakeClock();
  const t0 = clock.now();
  const schedule = new BookmarkSchedule(clock.now, clock.setTimer, () => 0.5);
  const at: number[] = [];
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

describe("one watcher's bookmarks, at upstream's ticks", () => {
  test.each([
    // No deadline: bucket 60 is popped by the tick at 60,750; then 60,750 + 60 s → bucket 120, tick 120,375.
    ['no deadline: about every minute', undefined, [60_750, 120_375]],
    // Deadline 5 s: due at 3,000 (bucket 3), popped by the tick at 3,375, after 3,000: none again.
    ['5 s: once, 2 s before, popped late in its second', 5_000, [3_375]],
    // Deadline 5.5 s: due at 3,500 (bucket 3), popped at 3,375, before 3,500: due again at 3,500,
    // clamped into bucket 4 → a second bookmark at 4,500, 1 s before the deadline (as upstream).
    ['5.5 s: popped before its time, so once more a second later', 5_500, [3_375, 4_500]],
    // Deadline 65 s: the minute (60,750), then 63,000 (bucket 63) popped exactly at 63,000 —
    // not before it, so due again → bucket 64 → 64,125.
    ['65 s: the minute, 2 s before, and once more', 65_000, [60_750, 63_000, 64_125]],
    // Deadline 64.9 s: the minute, then 62,900 (bucket 62) popped by the tick at 63,000, after it.
    ['64.9 s: the minute and 2 s before only', 64_900, [60_750, 63_000]],
    // Less than 2 s left at the start: nothing is scheduled at all.
    ['1.5 s: none', 1_500, []],
  ])('%s', (_name, deadline, expected) => {
    const { at, timersLeft } = bookmarkTimes(deadline, 125_000);
    expect(at).toEqual(expected);
    // A watcher with a deadline leaves the schedule after its last bookmark, and the timer stops.
    if (deadline !== undefined) expect(timersLeft).toBe(0);
  });
});

test('the tick keeps its 1–1.25 s rhythm while any watcher waits, and stops when none does', () => {
  const clock = new FakeClock();
  const t0 = clock.now();
  const schedule = new BookmarkSchedule(clock.now, clock.setTimer, () => 1);
  const at: Record<string, number[]> = { a: [], b: [] };
  const target = (name: string, deadline: number): BookmarkTarget => ({ isClosed: false, deadline: t0 + deadline, bookmarkDue: () => at[name].push(clock.now() - t0) });
  schedule.add(target('a', 4_000)); // due 2,000
  clock.advance(600);
  schedule.add(target('b', 9_000)); // added at 600: due 7,000
  expect(clock.timers).toBe(1);
  clock.advance(20_000);
  // Ticks every 1,250 ms from 0: 1,250, 2,500 (pops bucket 2), …, 7,500 (pops bucket 7).
  expect(at).toEqual({ a: [2_500], b: [7_500] });
  expect(clock.timers).toBe(0);
  schedule.stop();
});
