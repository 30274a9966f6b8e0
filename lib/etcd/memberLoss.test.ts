import { MemberLoss } from './memberLoss';
import { ManualTimers } from './testing/manualTimers';
import type { PingClock } from './wire/pinger';

function setup(): { timers: ManualTimers; losses: MemberLoss; cancelled: Array<[string, string]>; start: (endpoint: string, name: string) => () => void } {
  const timers = new ManualTimers();
  timers.now = 1_000_000;
  const clock: PingClock = { now: () => timers.now, setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout };
  const losses = new MemberLoss({ abandonAfterMs: 2000, noticeMs: 1000 }, clock);
  const cancelled: Array<[string, string]> = [];
  const start = (endpoint: string, name: string): (() => void) => losses.begin(endpoint, (details) => cancelled.push([name, details]));
  return { timers, losses, cancelled, start };
}

test('without a lost member nothing is abandoned, however long a call waits', () => {
  const { timers, cancelled, start } = setup();
  start('b', 'slow');
  timers.advance(60_000);
  expect(cancelled).toEqual([]);
});

test("a call on another member still waiting 2 s after its start is abandoned once a member is lost, naming the lost member and why", () => {
  const { timers, losses, cancelled, start } = setup();
  start('b', 'forwarded');
  timers.advance(500);
  losses.memberLost('a', 'read ECONNRESET');
  timers.advance(1499);
  expect(cancelled).toEqual([]);
  timers.advance(1);
  expect(cancelled).toEqual([['forwarded', expect.stringMatching(/^abandoned after 2\.0 s: etcd member a was lost at .*\(read ECONNRESET\).*the outcome is unknown$/)]]);
});

test('a call that already waited 2 s when the loss is seen (a silent member, found by ping) is abandoned at once', () => {
  const { timers, losses, cancelled, start } = setup();
  start('b', 'forwarded');
  timers.advance(2000);
  losses.memberLost('a', 'no answer to ping within 1 s');
  timers.advance(0);
  expect(cancelled.map(([n]) => n)).toEqual(['forwarded']);
});

test('calls started within the notice time after the loss are suspect too; later ones are not', () => {
  const { timers, losses, cancelled, start } = setup();
  losses.memberLost('a', undefined);
  timers.advance(999);
  start('b', 'early');
  timers.advance(1);
  start('c', 'late');
  timers.advance(10_000);
  expect(cancelled.map(([n]) => n)).toEqual(['early']);
  expect(cancelled[0][1]).toMatch(/\(connection closed\)/);
});

test('calls that end in time are left alone, and their timers are gone', () => {
  const { timers, losses, cancelled, start } = setup();
  const done = start('b', 'quick');
  losses.memberLost('a', 'x');
  done();
  expect(timers.size).toBe(0);
  timers.advance(5000);
  expect(cancelled).toEqual([]);
});

test("calls on the lost member itself are not abandoned here (its connection's end fails them)", () => {
  const { timers, losses, cancelled, start } = setup();
  start('a', 'on-lost');
  losses.memberLost('a', 'x');
  start('a', 'after');
  timers.advance(10_000);
  expect(cancelled).toEqual([]);
});

test('each call is abandoned at most once, across several losses', () => {
  const { timers, losses, cancelled, start } = setup();
  start('c', 'forwarded');
  losses.memberLost('a', 'x');
  timers.advance(100);
  losses.memberLost('b', 'y');
  timers.advance(10_000);
  expect(cancelled.map(([n]) => n)).toEqual(['forwarded']);
});
