// Writes one watch's events to its response as frames, a frame at a time, within the server's
// watch budget (lib/machinery/watchBudget.ts). Events wait here unencoded (they are the cache's
// shared objects) until the response has sent what it holds: a frame is encoded only when the
// response takes more (write() returned true) and the budget has room, and it is handed over in
// pieces of up to 64 KiB as the response drains, so the budget sees a reader's progress piece
// by piece. A client that stops reading holds at most one frame (the response's buffer and the
// frame's rest), and the producer (the storage watch) pauses until the held events are written.
import type { CutOffCause, WatchBudget, WatchBudgetAccount } from '../machinery/watchBudget';

/** The part of a response this writes to (HTTP/1.1 ServerResponse and HTTP/2 compat alike). */
export interface FrameSink {
  write(chunk: Uint8Array, callback: (err?: Error | null) => void): boolean;
  cork(): void;
  uncork(): void;
  once(event: 'drain', listener: () => void): unknown;
}

/** The budget cut this watch off, or its producer kept sending while asked to pause. */
export type FrameWriterCutOff = CutOffCause | 'held-events';

/** A frame is handed to the response in pieces of at most this many bytes. */
export const framePieceBytes = 64 * 1024;

export interface FrameWriterOptions<E> {
  sink: FrameSink;
  /** Bytes written to the sink and not yet sent (protocol.ts bufferedBytes). */
  unsent: () => number;
  encode: (event: E) => Uint8Array;
  budget: WatchBudget;
  /** Called once when the watch must end; the owner drops the response. */
  onCutOff: (cause: FrameWriterCutOff, unsentBytes: number) => void;
  /**
   * Events a producer may hand over while it was asked to pause (one that cannot pause: a watch
   * without the cache). Default 1000, the cache's own bound on a paused watcher.
   */
  maxHeldEvents?: number;
}

export class WatchFrameWriter<E> {
  private held: Array<E | undefined> = [];
  /** Index in held of the next event to write. */
  private next = 0;
  /** Events taken after send() had already returned false. */
  private heldLate = 0;
  private waitingDrain = false;
  private waitingRoom = false;
  /** The frame being handed over, and how much of it the sink has. */
  private frame: Uint8Array | undefined;
  private offset = 0;
  /** Bytes of every frame encoded so far: what was sent is this minus what is still held. */
  private encoded = 0;
  private resume: (() => void) | undefined;
  /** The owner's end of the response, once everything held is written (finish()). */
  private finishing: (() => void) | undefined;
  private closed = false;
  private readonly account: WatchBudgetAccount;
  private readonly maxHeldEvents: number;

  constructor(private readonly o: FrameWriterOptions<E>) {
    this.maxHeldEvents = o.maxHeldEvents ?? 1000;
    this.account = o.budget.open((cause, bytes) => this.cutOff(cause, bytes));
  }

  /** Events not yet written, or written but not sent: the producer should pause. */
  get holding(): boolean {
    return this.waitingDrain || this.waitingRoom || this.frame !== undefined || this.next < this.held.length;
  }

  /** Encoded bytes not yet sent: in the response, and the rest of the current frame. */
  private get heldBytes(): number {
    return this.o.unsent() + (this.frame ? this.frame.length - this.offset : 0);
  }

  /** Takes events in order. False: some are held back; pause until the onResume callback. */
  send(events: readonly E[]): boolean {
    if (this.closed || this.finishing) return true;
    const late = this.holding;
    for (const e of events) this.held.push(e);
    if (late) {
      this.heldLate += events.length;
      if (this.heldLate > this.maxHeldEvents) this.cutOff('held-events', this.account.bytes);
      return false;
    }
    this.flush();
    return !this.holding;
  }

  /** Called once, when everything taken so far has been sent. */
  onResume(resume: () => void): void {
    this.resume = resume;
  }

  /**
   * Writes what is held (an ERROR event that ended the watch, say), then calls end. The bytes
   * stay in the budget, and may be cut off, until close(): an ended response a client does not
   * read keeps them as long as an open one.
   */
  finish(end: () => void): void {
    if (this.closed || this.finishing) return;
    this.finishing = end;
    this.resume = undefined;
    this.proceed();
  }

  /** The response is gone: nothing more is written, its bytes leave the budget. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.held = [];
    this.frame = undefined;
    this.resume = undefined;
    this.finishing = undefined;
    this.account.close();
  }

  private cutOff(cause: FrameWriterCutOff, bytes: number): void {
    if (this.closed) return;
    this.close();
    this.o.onCutOff(cause, bytes);
  }

  private flush(): void {
    const { sink } = this.o;
    // A batch of events goes out in one gathered write; a single live event needs no cork.
    const cork = this.held.length - this.next > 1;
    if (cork) sink.cork();
    try {
      while (!this.closed && !this.waitingDrain) {
        if (!this.frame) {
          if (this.next >= this.held.length) break;
          if (!this.account.mayWrite(this.onRoom)) {
            this.waitingRoom = !this.closed;
            break;
          }
          const event = this.held[this.next] as E;
          this.held[this.next++] = undefined;
          this.frame = this.o.encode(event);
          this.offset = 0;
          this.encoded += this.frame.length;
        }
        const frame = this.frame;
        const end = Math.min(frame.length, this.offset + framePieceBytes);
        const piece = this.offset === 0 && end === frame.length ? frame : frame.subarray(this.offset, end);
        this.offset = end;
        if (end === frame.length) this.frame = undefined;
        const more = sink.write(piece, this.onWritten);
        this.account.update(this.heldBytes, this.encoded);
        if (!more && !this.closed) {
          this.waitingDrain = true;
          sink.once('drain', this.onDrain);
        }
      }
    } finally {
      if (cork) sink.uncork();
    }
    if (this.next >= this.held.length) {
      this.held = [];
      this.next = 0;
      this.heldLate = 0;
    }
  }

  private readonly onWritten = (): void => {
    if (!this.closed) this.account.update(this.heldBytes, this.encoded);
  };

  private readonly onDrain = (): void => {
    this.waitingDrain = false;
    if (this.closed) return;
    this.account.update(this.heldBytes, this.encoded);
    this.proceed();
  };

  private readonly onRoom = (): void => {
    this.waitingRoom = false;
    if (!this.closed) this.proceed();
  };

  private proceed(): void {
    this.flush();
    if (this.closed || this.holding) return;
    const next = this.finishing ?? this.resume;
    this.resume = undefined;
    next?.();
  }
}
