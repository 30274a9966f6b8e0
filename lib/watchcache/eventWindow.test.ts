import type { WatchEvent } from '../etcd/storage';
import { EventWindow } from './eventWindow';

const ev = (rev: number, bytes = 10): WatchEvent => ({ type: 'put', key: `/k${rev}`, value: new Uint8Array(bytes), modRevision: rev, createRevision: rev });
const limits = { minEvents: 2, maxEvents: 5, maxBytes: 1000, retentionMs: 1000 };

test('sequence numbers, revision look-up and coverage', () => {
  const w = new EventWindow(limits, 10);
  expect(w.covers(11)).toBe(true);
  expect(w.covers(10)).toBe(false);
  for (let r = 11; r <= 14; r++) w.push(ev(r), 0);
  expect(w.headSeq).toBe(4);
  expect(w.startSeq).toBe(0);
  expect(w.seqForRevision(13)).toBe(2);
  expect(w.seqForRevision(99)).toBe(4);
  expect(w.entryAt(1)!.event.modRevision).toBe(12);
  expect(w.entryAt(4)).toBeUndefined();
});

test('count cap, then coverage moves to the last dropped revision', () => {
  const w = new EventWindow(limits, 0);
  const dropped: number[] = [];
  for (let r = 1; r <= 8; r++) w.push(ev(r), 0);
  w.evict(0, (e) => dropped.push(e.event.modRevision));
  expect(dropped).toEqual([1, 2, 3]);
  expect(w.length).toBe(5);
  expect(w.startSeq).toBe(3);
  expect(w.covers(4)).toBe(true);
  expect(w.covers(3)).toBe(false);
});

test('bytes cap and age beyond the minimum', () => {
  const w = new EventWindow({ ...limits, maxEvents: 100 }, 0);
  for (let r = 1; r <= 4; r++) w.push(ev(r, 300), r * 100);
  w.evict(400, () => undefined);
  expect(w.bytes).toBe(900);
  expect(w.length).toBe(3);
  w.evict(5000, () => undefined); // all old: keeps minEvents
  expect(w.length).toBe(2);
});

test('events of one revision: dropping part of it makes that revision incomplete', () => {
  const w = new EventWindow({ ...limits, minEvents: 0, maxEvents: 1 }, 0);
  w.push(ev(1), 0);
  w.push({ ...ev(2), key: '/a' }, 0);
  w.push({ ...ev(2), key: '/b' }, 0);
  w.evict(0, () => undefined);
  expect(w.covers(2)).toBe(false);
  expect(w.covers(3)).toBe(true);
});

test('dropBefore (compaction) and reset', () => {
  const w = new EventWindow(limits, 0);
  for (let r = 1; r <= 5; r++) w.push(ev(r), 0);
  w.dropBefore(3, () => undefined);
  expect(w.length).toBe(3);
  expect(w.covers(3)).toBe(true);
  expect(w.covers(2)).toBe(false);
  w.reset(50);
  expect(w.length).toBe(0);
  expect(w.covers(51)).toBe(true);
  expect(w.headSeq).toBe(5); // sequence numbers are never reused
});
