// The store's current revision for consistent reads from the cache (KEP-2340), from one quorum
// read shared by every reader waiting at that moment. A reader joins only a read that has not
// been sent yet, never one already on its way: a read sent before the reader arrived could
// precede a write acknowledged before the reader started, and the reader would miss it ("Most
// Recent" is linearizable). So at most one read is in flight, and readers arriving meanwhile
// share the next one, sent when it returns.

/** Runs fn soon, after the I/O callbacks already due (so readers arriving together share a read). */
export type Schedule = (fn: () => void) => void;

interface Batch {
  promise: Promise<number>;
  resolve(revision: number): void;
  reject(err: unknown): void;
}

function newBatch(): Batch {
  let resolve!: (revision: number) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<number>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export class RevisionReader {
  /** Readers waiting for a read not sent yet. */
  private next: Batch | undefined;
  private inflight = false;
  private reads = 0;
  private readers = 0;

  constructor(
    private readonly read: () => Promise<number>,
    /** Called with each revision read, before its readers resume (e.g. to ask for progress once). */
    private readonly onRead: (revision: number) => void = () => {},
    private readonly schedule: Schedule = setImmediate,
  ) {}

  /** The store's revision, read after this call (linearizable with writes acknowledged before it). */
  current(): Promise<number> {
    this.readers++;
    let batch = this.next;
    if (!batch) {
      batch = this.next = newBatch();
      if (!this.inflight) this.schedule(() => this.send());
    }
    return batch.promise;
  }

  /** Quorum reads sent and readers served, for tests and metrics. */
  stats(): { reads: number; readers: number } {
    return { reads: this.reads, readers: this.readers };
  }

  private send(): void {
    const batch = this.next;
    if (!batch || this.inflight) return;
    this.next = undefined;
    this.inflight = true;
    this.reads++;
    let p: Promise<number>;
    try {
      p = this.read();
    } catch (err) {
      p = Promise.reject(err);
    }
    p.then(
      (revision) => {
        this.done();
        try {
          this.onRead(revision);
        } finally {
          batch.resolve(revision);
        }
      },
      (err: unknown) => {
        this.done();
        batch.reject(err);
      },
    );
  }

  private done(): void {
    this.inflight = false;
    // Everyone who arrived during that read joined the next one; it goes out now.
    if (this.next) this.send();
  }
}
