import { ManualTimers } from '../testing/manualTimers';
import { Pinger, type PingClock, type Silence } from './pinger';

function setup(): { timers: ManualTimers; pinger: Pinger; sent: Array<(err: Error | null) => void>; silences: Silence[] } {
  const timers = new ManualTimers();
  timers.now = 1_000_000;
  const clock: PingClock = { now: () => timers.now, setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout };
  const sent: Array<(err: Error | null) => void> = [];
  const silences: Silence[] = [];
  const pinger = new Pinger((answered) => sent.push(answered), (s) => silences.push(s), clock, 5000);
  return { timers, pinger, sent, silences };
}

test('an answered ping: nothing more happens', () => {
  const { timers, pinger, sent, silences } = setup();
  expect(pinger.ping(1000, 'probe')).toBe(true);
  timers.advance(300);
  sent[0](null);
  timers.advance(10_000);
  expect(silences).toEqual([]);
  expect(pinger.waiting).toBe(false);
});

test('an unanswered probe reports silence once at its deadline, with when it was sent and the server last heard from', () => {
  const { timers, pinger, sent, silences } = setup();
  pinger.heard();
  const heardAt = timers.now;
  timers.advance(2000);
  pinger.ping(1000, 'probe');
  timers.advance(999);
  expect(silences).toEqual([]);
  timers.advance(1);
  expect(silences).toEqual([{ sentAt: heardAt + 2000, timeoutMs: 1000, lastHeardAt: heardAt, purpose: 'probe' }]);
  // Given up: no more pings, and a late answer changes nothing.
  sent[0](null);
  expect(pinger.ping(1000, 'probe')).toBe(false);
  timers.advance(10_000);
  expect(silences).toHaveLength(1);
  expect(sent).toHaveLength(1);
});

test('one ping at a time: a probe during a keepalive ping moves its deadline in, not a second ping', () => {
  const { timers, pinger, sent, silences } = setup();
  pinger.ping(5000, 'keepalive');
  timers.advance(3000);
  expect(pinger.ping(1000, 'probe')).toBe(true);
  expect(sent).toHaveLength(1);
  timers.advance(1000);
  expect(silences).toEqual([expect.objectContaining({ timeoutMs: 4000, purpose: 'probe' })]);
});

test("a later, longer deadline does not extend an earlier one", () => {
  const { timers, pinger, silences } = setup();
  pinger.ping(1000, 'probe');
  pinger.ping(5000, 'keepalive');
  timers.advance(1000);
  expect(silences).toEqual([expect.objectContaining({ timeoutMs: 1000, purpose: 'probe' })]);
});

test("etcd's ping policy: no second ping within 5 s unless the server sent something after the first was answered", () => {
  const { timers, pinger, sent } = setup();
  pinger.ping(1000, 'probe');
  sent[0](null);
  timers.advance(1000);
  expect(pinger.ping(1000, 'probe')).toBe(false);
  pinger.heard();
  expect(pinger.ping(1000, 'probe')).toBe(true);
  sent[1](null);
  timers.advance(4999);
  expect(pinger.ping(1000, 'probe')).toBe(false);
  timers.advance(1);
  expect(pinger.ping(1000, 'probe')).toBe(true);
  expect(sent).toHaveLength(3);
});

test('something heard while the ping was out does not count: it may have been sent before the ping arrived', () => {
  const { timers, pinger, sent } = setup();
  pinger.ping(1000, 'probe');
  pinger.heard();
  sent[0](null);
  timers.advance(100);
  expect(pinger.ping(1000, 'probe')).toBe(false);
});

test('a ping failed by the session going away is not silence (the session reports its end)', () => {
  const { timers, pinger, sent, silences } = setup();
  pinger.ping(1000, 'probe');
  sent[0](new Error('session destroyed'));
  timers.advance(5000);
  expect(silences).toEqual([]);
});

test('dispose: no timers left, no more pings', () => {
  const { timers, pinger, silences } = setup();
  pinger.ping(1000, 'probe');
  pinger.dispose();
  expect(timers.size).toBe(0);
  expect(pinger.ping(1000, 'probe')).toBe(false);
  timers.advance(5000);
  expect(silences).toEqual([]);
});

test('a session that cannot send a ping: none counted, nothing armed', () => {
  const timers = new ManualTimers();
  const clock: PingClock = { now: () => timers.now, setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout };
  const pinger = new Pinger(() => {
    throw new Error('ping not sent');
  }, () => undefined, clock);
  expect(pinger.ping(1000, 'probe')).toBe(false);
  expect(timers.size).toBe(0);
});
