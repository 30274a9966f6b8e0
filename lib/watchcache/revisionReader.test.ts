// The shared revision read of consistent reads: readers arriving together share one read, and no
// reader ever joins a read that was sent before it arrived.
import { RevisionReader } from './revisionReader';

interface Pending {
  resolve(revision: number): void;
  reject(err: Error): void;
}

/** A store whose revision reads the test answers by hand; schedule runs what is due on flush(). */
function harness(): { reader: RevisionReader; sent: Pending[]; flush(): void; progressAsked: number[] } {
  const sent: Pending[] = [];
  const due: (() => void)[] = [];
  const progressAsked: number[] = [];
  const reader = new RevisionReader(
    () => new Promise<number>((resolve, reject) => sent.push({ resolve, reject })),
    (revision) => progressAsked.push(revision),
    (fn) => due.push(fn),
  );
  return { reader, sent, progressAsked, flush: () => due.splice(0).forEach((fn) => fn()) };
}

const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

test('N readers arriving together share one read', async () => {
  const h = harness();
  const readers = Array.from({ length: 50 }, () => h.reader.current());
  expect(h.sent).toHaveLength(0); // not sent before the readers of this turn have joined
  h.flush();
  expect(h.sent).toHaveLength(1);
  h.sent[0].resolve(42);
  expect(await Promise.all(readers)).toEqual(Array(50).fill(42));
  expect(h.reader.stats()).toEqual({ reads: 1, readers: 50 });
  expect(h.progressAsked).toEqual([42]);
});

test('readers arriving while a read is in flight share the next read, sent when it returns', async () => {
  const h = harness();
  const first = h.reader.current();
  h.flush();
  expect(h.sent).toHaveLength(1);
  // Arrived after the first read was sent: a write acknowledged just now may be newer than it.
  const late = [h.reader.current(), h.reader.current(), h.reader.current()];
  h.flush();
  expect(h.sent).toHaveLength(1); // one read in flight at a time
  h.sent[0].resolve(10);
  expect(await first).toBe(10);
  expect(h.sent).toHaveLength(2);
  h.sent[1].resolve(11);
  expect(await Promise.all(late)).toEqual([11, 11, 11]);
  expect(h.reader.stats()).toEqual({ reads: 2, readers: 4 });
});

test('a late reader never gets the answer of a read sent before it arrived', async () => {
  const h = harness();
  const got: [string, number][] = [];
  void h.reader.current().then((r) => got.push(['early', r]));
  h.flush();
  void h.reader.current().then((r) => got.push(['late', r]));
  h.sent[0].resolve(5);
  await settle();
  expect(got).toEqual([['early', 5]]);
  h.sent[1].resolve(6);
  await settle();
  expect(got).toEqual([
    ['early', 5],
    ['late', 6],
  ]);
});

test('a failed read fails its readers only; the next read is still sent', async () => {
  const h = harness();
  const a = h.reader.current();
  h.flush();
  const b = h.reader.current();
  h.sent[0].reject(new Error('etcd unavailable'));
  await expect(a).rejects.toThrow('etcd unavailable');
  expect(h.sent).toHaveLength(2);
  h.sent[1].resolve(7);
  await expect(b).resolves.toBe(7);
});

test('a read that throws synchronously rejects its readers', async () => {
  const reader = new RevisionReader(
    () => {
      throw new Error('closed');
    },
    () => {},
    (fn) => fn(),
  );
  await expect(reader.current()).rejects.toThrow('closed');
  // Not stuck in flight: the next reader gets its own read.
  await expect(reader.current()).rejects.toThrow('closed');
  expect(reader.stats().reads).toBe(2);
});
