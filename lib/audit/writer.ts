// The audit log backend (upstream plugin/pkg/audit/log): one JSON line per event, written to
// --audit-log-path ("-" is stdout), the file rotated lumberjack-style. A request never waits on
// the disk: write() encodes the event and queues the line in memory, a background loop writes
// queued lines in batches, and when the queue holds bufferEvents lines (upstream's
// --audit-log-batch-buffer-size, 10000) further events are dropped and counted.
import { constants as fsConstants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { goJsonStringify } from '../machinery/goJson';
import type { AuditEvent } from './event';
import { RotatingFile } from './rotatingFile';

export const defaultAuditBufferEvents = 10000;
/** Lines handed to the file in one write call (a batch, not a limit on the queue). */
const maxBatchLines = 1000;

export interface AuditLogWriterOptions {
  /** --audit-log-path; "-" writes to stdout. */
  path: string;
  /** --audit-log-maxsize in megabytes; 0 means lumberjack's default of 100. */
  maxSizeMB?: number;
  /** --audit-log-maxbackup; 0 keeps every backup. */
  maxBackups?: number;
  /** --audit-log-maxage in days; 0 keeps backups regardless of age. */
  maxAgeDays?: number;
  /** Events held in memory awaiting the disk before new ones are dropped. */
  bufferEvents?: number;
  /** Clock for backup names and the age cut-off. */
  now?: () => Date;
  /** Where "-" writes (default process.stdout); never closed by the writer. */
  stdout?: NodeJS.WritableStream;
  /** n events reached the file (for apiserver_audit_event_total-style metrics). */
  onWritten?: (n: number) => void;
  /** n events were dropped because the buffer was full or the writer closed. */
  onDropped?: (n: number) => void;
  /** n events were lost to an encoding or I/O error (apiserver_audit_error_total{plugin="log"}). */
  onError?: (err: Error, n: number) => void;
}

/** Go's json.Encoder output for an event: compact, HTML-safe escapes, newline-terminated. */
export function encodeEventLine(event: AuditEvent): string {
  return `${goJsonStringify(event)}\n`;
}

interface LineSink {
  write(lines: readonly Buffer[]): Promise<void>;
  close(): Promise<void>;
}

export class AuditLogWriter {
  private readonly capacity: number;
  private readonly sink: LineSink;
  private readonly options: AuditLogWriterOptions;
  private queue: Buffer[] = [];
  private inFlight = 0;
  private enqueuedSeq = 0;
  private doneSeq = 0;
  private waiters: { seq: number; resolve: () => void }[] = [];
  private draining = false;
  private closing: Promise<void> | undefined;
  private counts = { written: 0, dropped: 0, failed: 0 };

  constructor(options: AuditLogWriterOptions) {
    for (const [flag, v] of [
      ['maxSizeMB', options.maxSizeMB],
      ['maxBackups', options.maxBackups],
      ['maxAgeDays', options.maxAgeDays],
    ] as const) {
      if (v !== undefined && (!Number.isInteger(v) || v < 0)) throw new Error(`audit log ${flag} ${v} must be a non-negative integer`);
    }
    const capacity = options.bufferEvents ?? defaultAuditBufferEvents;
    if (!Number.isInteger(capacity) || capacity <= 0) throw new Error(`invalid audit log buffer size ${capacity}, must be a positive number`);
    if (!options.path) throw new Error('audit log path is required');
    this.capacity = capacity;
    this.options = options;
    this.sink = options.path === '-' ? streamSink(options.stdout ?? process.stdout) : fileSink(new RotatingFile(options.path, options));
  }

  /**
   * Creates the log file (mode 0600, its directory 0700) if missing, as kube-apiserver does at
   * start-up, so a bad path fails early rather than on the first event. Optional.
   */
  async open(): Promise<void> {
    if (this.options.path === '-') return;
    await fs.mkdir(path.dirname(this.options.path), { recursive: true, mode: 0o700 });
    const h = await fs.open(this.options.path, fsConstants.O_CREAT | fsConstants.O_APPEND | fsConstants.O_RDWR, 0o600);
    await h.close();
  }

  /** Queues an event; false when it was dropped (buffer full, writer closed, or unencodable). */
  write(event: AuditEvent): boolean {
    if (this.closing || this.queue.length + this.inFlight >= this.capacity) {
      this.counts.dropped++;
      this.options.onDropped?.(1);
      return false;
    }
    let line: Buffer;
    try {
      line = Buffer.from(encodeEventLine(event), 'utf8');
    } catch (e) {
      this.counts.failed++;
      this.options.onError?.(e as Error, 1);
      return false;
    }
    this.queue.push(line);
    this.enqueuedSeq++;
    this.startDrain();
    return true;
  }

  /** Events queued or being written. */
  get pending(): number {
    return this.queue.length + this.inFlight;
  }

  get stats(): Readonly<{ written: number; dropped: number; failed: number }> {
    return { ...this.counts };
  }

  /** Resolves once every event queued before the call has been written (or has failed). */
  flush(): Promise<void> {
    const seq = this.enqueuedSeq;
    if (this.doneSeq >= seq) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ seq, resolve }));
  }

  /** Stops accepting events, writes what is queued, closes the file. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.flush().then(() => this.sink.close());
    return this.closing;
  }

  private startDrain(): void {
    if (this.draining) return;
    this.draining = true;
    // Deferred so events queued in the same turn go out in one write.
    setImmediate(() => void this.drain());
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.length <= maxBatchLines ? this.queue : this.queue.slice(0, maxBatchLines);
      this.queue = batch === this.queue ? [] : this.queue.slice(maxBatchLines);
      this.inFlight = batch.length;
      try {
        await this.sink.write(batch);
        this.counts.written += batch.length;
        this.options.onWritten?.(batch.length);
      } catch (e) {
        this.counts.failed += batch.length;
        this.options.onError?.(e as Error, batch.length);
      }
      this.inFlight = 0;
      this.doneSeq += batch.length;
      this.wakeWaiters();
    }
    this.draining = false;
  }

  private wakeWaiters(): void {
    const ready = this.waiters.filter((w) => w.seq <= this.doneSeq);
    if (!ready.length) return;
    this.waiters = this.waiters.filter((w) => w.seq > this.doneSeq);
    for (const w of ready) w.resolve();
  }
}

function fileSink(file: RotatingFile): LineSink {
  return { write: (lines) => file.write(lines), close: () => file.close() };
}

function streamSink(stream: NodeJS.WritableStream): LineSink {
  return {
    write: (lines) =>
      new Promise<void>((resolve, reject) => {
        // The callback fires once the stream has taken the data, which paces us to its speed.
        stream.write(Buffer.concat(lines), (err) => (err ? reject(err) : resolve()));
      }),
    close: async () => undefined,
  };
}
