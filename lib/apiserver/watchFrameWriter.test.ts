import { EventEmitter } from 'node:events';
import { WatchBudget } from '../machinery/watchBudget';
import { WatchFrameWriter, type FrameSink, type FrameWriterCutOff } from './watchFrameWriter';
import { FakeClock } from '../machinery/testing/fakeClock';

/**
 * A response whose client reads only when told to: written bytes stay unsent until read(), as a
 * socket's or HTTP/2 stream's buffer; write() returns false at the high-water mark, as Node's.
 */
class FakeResponse extends EventEmitter implements FrameSink {
  unsent = 0;
  received = 0;
  private callbacks: Array<() => void> = [];
  private needDrain = false;

  constructor(private readonly highWaterMark = 16 * 1024) {
    super();
  }

  write(chunk: Uint8Array, callback: () => void): boolean {
    this.unsent += chunk.length;
    this.callbacks.push(callback);
    const more = this.unsent < this.highWaterMark;
    if (!more) this.needDrain = true;
    return more;
  }

  cork(): void {}
  uncork(): void {}

  /** The client takes everything written so far. */
  read(): void {
    this.received += this.unsent;
    this.unsent = 0;
    const callbacks = this.callbacks;
    this.callbacks = [];
    for (const cb of callbacks) cb();
    if (this.needDrain) {
      this.needDrain = false;
      this.emit('drain');
    }
  }
}


const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

const frameBytes = 256 * 1024;
const frame = (n: number): Uint8Array => new Uint8Array(frameBytes).fill(n % 256);

interface Watcher {
  name: string;
  res: FakeResponse;
  writer: WatchFrameWriter<number>;
  paused: boolean;
  cut?: FrameWriterCutOff;
}

function watcher(name: string, budget: WatchBudget, cuts: string[]): Watcher {
  const res = new FakeResponse();
  const w: Watcher = { name, res, paused: false } as Watcher;
  w.writer = new WatchFrameWriter<number>({
    sink: res,
    unsent: () => res.unsent,
    encode: frame,
    budget,
    onCutOff: (cause) => {
      w.cut = cause;
      cuts.push(name);
    },
  });
  return w;
}

/** What a paused producer does: send while not paused; pause on false until the writer resumes it. */
function deliver(w: Watcher, events: number[]): void {
  if (w.paused || w.cut) return;
  if (!w.writer.send(events)) {
    w.paused = true;
    w.writer.onResume(() => (w.paused = false));
  }
}

test('N watchers that never read, one that reads: the total stays within the budget plus one frame, the longest stuck go first, the reader gets every event', async () => {
  const time = new FakeClock(0);
  const budgetBytes = 8 * 1024 * 1024; // 32 frames
  const budget = new WatchBudget({ limitBytes: budgetBytes, stuckAfterMs: 1000, ...time });
  const cuts: string[] = [];
  const reader = watcher('reader', budget, cuts);
  const stalled: Watcher[] = [];
  let maxTotal = 0;
  const events = 200;
  for (let e = 0; e < events; e++) {
    // A new non-reading watcher every event: 100 of them, each starting later than the last.
    if (e < 100) stalled.push(watcher(`stalled-${e}`, budget, cuts));
    deliver(reader, [e]);
    for (const s of stalled) deliver(s, [e]);
    maxTotal = Math.max(maxTotal, budget.total);
    await settle();
    // The reader keeps up: it reads each piece as it arrives.
    for (let k = 0; k < 10 && (reader.res.unsent > 0 || reader.paused); k++) {
      reader.res.read();
      await settle();
      maxTotal = Math.max(maxTotal, budget.total);
    }
    time.advance(100);
  }
  // Bytes, not time: never more than the budget plus the one frame that crossed it.
  expect(budget.peak).toBeLessThanOrEqual(budgetBytes + frameBytes);
  expect(maxTotal).toBeLessThanOrEqual(budgetBytes + frameBytes);
  // The reader kept its stream and received every event's frame.
  expect(reader.cut).toBeUndefined();
  expect(reader.res.received).toBe(events * frameBytes);
  // Stalled watchers were cut oldest first, in the order they stopped sending.
  expect(cuts.length).toBeGreaterThan(50);
  expect(cuts).toEqual(stalled.slice(0, cuts.length).map((s) => s.name));
  // Each one left holds at most its first frame (a piece of it in the response): a client that
  // does not read costs one frame.
  for (const s of stalled.filter((x) => !x.cut)) expect(s.res.unsent).toBeLessThanOrEqual(64 * 1024);
});

test('a burst to readers larger than the budget waits for their bytes to drain: nobody is cut off', async () => {
  const time = new FakeClock(0);
  const budgetBytes = 4 * frameBytes;
  const budget = new WatchBudget({ limitBytes: budgetBytes, stuckAfterMs: 1000, ...time });
  const cuts: string[] = [];
  const readers = Array.from({ length: 20 }, (_, i) => watcher(`reader-${i}`, budget, cuts));
  let maxTotal = 0;
  for (let e = 0; e < 5; e++) {
    for (const r of readers) deliver(r, [e]);
    // The clients read after every step; a writer that waited goes on once bytes drained.
    for (let step = 0; step < 50 && readers.some((r) => r.paused); step++) {
      maxTotal = Math.max(maxTotal, budget.total);
      for (const r of readers) r.res.read();
      await settle();
    }
  }
  expect(cuts).toEqual([]);
  expect(maxTotal).toBeLessThanOrEqual(budgetBytes + frameBytes);
  for (const r of readers) expect(r.res.received).toBe(5 * frameBytes);
});

test('events handed over while the writer holds back are bounded: a producer that does not pause is cut off', () => {
  const budget = new WatchBudget({ limitBytes: 64 * 1024 * 1024 });
  const cuts: string[] = [];
  const w = watcher('w', budget, cuts);
  expect(w.writer.send([0])).toBe(false); // one frame fills the response
  for (let i = 0; i < 1000; i++) w.writer.send([i]);
  expect(cuts).toEqual([]);
  w.writer.send([1000]);
  expect(w.cut).toBe('held-events');
  expect(budget.total).toBe(0);
});

test('finishing writes what is held, then ends; until the response closes its bytes stay in the budget', async () => {
  const budget = new WatchBudget({ limitBytes: 64 * 1024 * 1024 });
  const cuts: string[] = [];
  const w = watcher('w', budget, cuts);
  expect(w.writer.send([0, 1, 2])).toBe(false); // the first frame fills the response: two held
  let ended = false;
  w.writer.finish(() => (ended = true));
  expect(ended).toBe(false);
  expect(w.writer.send([3])).toBe(true); // nothing is taken once finishing
  // One 64 KiB piece per read: the end comes after the twelfth.
  for (let reads = 0; reads < 12; reads++) {
    expect(ended).toBe(false);
    w.res.read();
    await settle();
  }
  expect(ended).toBe(true);
  expect(w.res.received).toBe(3 * frameBytes);
  expect(budget.total).toBe(0);
  // Ended but unread: still counted until the response is gone.
  const stuck = watcher('stuck', budget, cuts);
  stuck.writer.send([0]);
  stuck.writer.finish(() => undefined);
  expect(budget.total).toBe(frameBytes);
  stuck.writer.close();
  expect(budget.total).toBe(0);
  expect(cuts).toEqual([]);
});
