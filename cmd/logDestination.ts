// Where both processes' pino lines go: stdout, written in batches. pino's own buffered destination
// (sonic-boom, utf8 mode) appends each line to one growing string and then measures that string
// with Buffer.byteLength, which flattens the whole concatenation again for every line: up to
// 16 KiB copied per line, about 2 µs and 4 KB of garbage per request (docs/perf). Here lines wait
// in a list and are joined once per batch.
//
// A batch is written synchronously, as a Go server's log writes are: lines stay in order and
// nothing is in flight at exit. A reader that stops reading a non-blocking pipe (EAGAIN) does not
// stall the server: the batch waits and is retried later, and past maxPendingChars new lines
// are dropped and counted (a line says how many once there is room again).
import { writeSync } from 'node:fs';

export interface LogDestinationOptions {
  /** Default 1 (stdout). */
  fd?: number;
  /** A batch is written once this many characters wait (default 4096). */
  batchChars?: number;
  /** Characters that may wait while the reader is stalled; lines past it are dropped (default 32 Mi). */
  maxPendingChars?: number;
  /** Lines of a quiet period are written within this (default 1000 ms; 0: no timer). */
  flushIntervalMs?: number;
  /** After EAGAIN, the next attempt waits this long (default 100 ms). */
  retryAfterMs?: number;
  /** The process name the dropped-lines notice carries (pino's `name`). */
  name?: string;
  /** fs.writeSync's shape; tests replace it. */
  write?: (fd: number, data: Uint8Array) => number;
  now?: () => number;
}

/** pino's level number for warn. */
const warnLevel = 40;

export class LogDestination {
  private readonly fd: number;
  private readonly batchChars: number;
  private readonly maxPendingChars: number;
  private readonly retryAfterMs: number;
  private readonly name: string | undefined;
  private readonly writeFd: (fd: number, data: Uint8Array) => number;
  private readonly now: () => number;
  private readonly timer: NodeJS.Timeout | undefined;
  private lines: string[] = [];
  private pendingChars = 0;
  /** What a short write or EAGAIN left of the last batch; written before anything else. */
  private rest: Uint8Array | undefined;
  private retryAt = 0;
  private dropped = 0;

  constructor(opts: LogDestinationOptions = {}) {
    this.fd = opts.fd ?? 1;
    this.batchChars = opts.batchChars ?? 4096;
    this.maxPendingChars = opts.maxPendingChars ?? 32 * 1024 * 1024;
    this.retryAfterMs = opts.retryAfterMs ?? 100;
    this.name = opts.name;
    this.writeFd = opts.write ?? writeSync;
    this.now = opts.now ?? Date.now;
    const interval = opts.flushIntervalMs ?? 1000;
    if (interval > 0) {
      this.timer = setInterval(() => this.flush(), interval);
      this.timer.unref();
    }
  }

  /** pino's DestinationStream: one serialised line (newline included). */
  write(line: string): void {
    if (this.pendingChars + line.length > this.maxPendingChars) {
      this.dropped++;
      return;
    }
    if (this.dropped) this.noteDropped();
    this.lines.push(line);
    this.pendingChars += line.length;
    if (this.pendingChars >= this.batchChars && (this.rest === undefined || this.now() >= this.retryAt)) this.flush();
  }

  /** Writes everything waiting, unless the reader is stalled (then it waits for a later call). */
  flush(): void {
    if (this.dropped && this.pendingChars < this.maxPendingChars) this.noteDropped();
    if (this.rest !== undefined && !this.writeOut(this.rest)) return;
    this.rest = undefined;
    if (this.lines.length === 0) return;
    const text = this.lines.length === 1 ? this.lines[0] : this.lines.join('');
    this.lines = [];
    this.pendingChars = 0;
    this.writeOut(Buffer.from(text, 'utf8'));
  }

  /** The last flush (shutdown): stops the timer and retries a stalled reader a few times, briefly. */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    for (let attempt = 0; attempt < 10; attempt++) {
      this.flush();
      if (this.rest === undefined) return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }

  /** Whether data went out whole; a remainder is kept in `rest` when the reader is stalled. */
  private writeOut(data: Uint8Array): boolean {
    let off = 0;
    try {
      while (off < data.length) off += this.writeFd(this.fd, off === 0 ? data : data.subarray(off));
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN' || code === 'EWOULDBLOCK') {
        this.rest = data.subarray(off);
        this.retryAt = this.now() + this.retryAfterMs;
        return false;
      }
      // The reader is gone (EPIPE, EBADF): there is nowhere to report it; the lines are lost.
      this.rest = undefined;
      return true;
    }
  }

  private noteDropped(): void {
    const line = `${JSON.stringify({ level: warnLevel, time: this.now(), ...(this.name ? { name: this.name } : {}), dropped: this.dropped, msg: 'log lines dropped: the reader of the log did not keep up' })}\n`;
    this.dropped = 0;
    this.lines.push(line);
    this.pendingChars += line.length;
  }
}
