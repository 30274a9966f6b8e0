import { WatchBudget, type CutOffCause } from './watchBudget';
import { FakeClock } from './testing/fakeClock';


const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

test('the budget counts what its accounts hold and frees what they release', () => {
  const budget = new WatchBudget({ limitBytes: 1000 });
  const a = budget.open(() => undefined);
  const b = budget.open(() => undefined);
  a.update(300, 300);
  b.update(200, 200);
  expect(budget.total).toBe(500);
  a.update(0, 300);
  expect(budget.total).toBe(200);
  b.close();
  expect(budget.total).toBe(0);
  expect(budget.peak).toBe(500);
});

test('a full budget makes writers wait; a draining account makes room and the first waiter goes on', async () => {
  const time = new FakeClock(0);
  const budget = new WatchBudget({ limitBytes: 1000, ...time });
  const holder = budget.open(() => undefined);
  expect(holder.mayWrite(() => undefined)).toBe(true);
  holder.update(1000, 1000);
  const woken: string[] = [];
  const first = budget.open(() => undefined);
  const second = budget.open(() => undefined);
  expect(first.mayWrite(() => woken.push('first'))).toBe(false);
  expect(second.mayWrite(() => woken.push('second'))).toBe(false);
  // A newcomer queues behind the waiters even once there is room.
  holder.update(0, 1000);
  const late = budget.open(() => undefined);
  expect(late.mayWrite(() => woken.push('late'))).toBe(false);
  await flush();
  expect(woken).toEqual(['first', 'second', 'late']);
});

test('cut-off order: the account longest without progress, and only once it is stuck', () => {
  const time = new FakeClock(0);
  const budget = new WatchBudget({ limitBytes: 1000, stuckAfterMs: 1000, ...time });
  const cut: string[] = [];
  const open = (name: string): ReturnType<WatchBudget['open']> => budget.open((cause: CutOffCause, bytes: number) => cut.push(`${name}:${cause}:${bytes}`));
  const old = open('old');
  old.update(400, 400);
  time.advance(500);
  const newer = open('newer');
  newer.update(400, 400);
  time.advance(300);
  // old sends part of what it held: progress, so it goes behind newer.
  old.update(300, 500);
  const writer = open('writer');
  writer.update(300, 300);
  // Full (1000): nobody has gone 1000 ms without progress yet, so the writer waits.
  expect(writer.mayWrite(() => undefined)).toBe(false);
  expect(cut).toEqual([]);
  time.advance(700); // newer: 1000 ms without progress
  expect(cut).toEqual(['newer:budget:400']);
  expect(budget.total).toBe(600);
});

test('one account over its own limit is cut off at once', () => {
  const budget = new WatchBudget({ limitBytes: 1000, perWatchLimitBytes: 600 });
  const cut: string[] = [];
  const a = budget.open((cause) => cut.push(cause));
  a.update(700, 700);
  expect(cut).toEqual(['watch-limit']);
  expect(a.isClosed).toBe(true);
  expect(budget.total).toBe(0);
});

test('the per-watch limit is never above the budget', () => {
  expect(new WatchBudget({ limitBytes: 1024 }).perWatchLimitBytes).toBe(1024);
  expect(new WatchBudget().perWatchLimitBytes).toBe(32 * 1024 * 1024);
  expect(() => new WatchBudget({ limitBytes: 0 })).toThrow(RangeError);
});

test('room goes first to the waiter that sent something most recently, then in the order they asked', async () => {
  const time = new FakeClock(0);
  const budget = new WatchBudget({ limitBytes: 1000, ...time });
  const holder = budget.open(() => undefined);
  holder.update(1000, 1000);
  const woken: string[] = [];
  const quiet = budget.open(() => undefined);
  const reader = budget.open(() => undefined);
  const newcomer = budget.open(() => undefined);
  time.advance(10);
  reader.update(10, 20); // sent 10 bytes at t=10
  expect(quiet.mayWrite(() => woken.push('quiet'))).toBe(false);
  expect(reader.mayWrite(() => woken.push('reader'))).toBe(false);
  expect(newcomer.mayWrite(() => woken.push('newcomer'))).toBe(false);
  holder.update(0, 1000);
  await flush();
  expect(woken).toEqual(['reader', 'quiet', 'newcomer']);
});
