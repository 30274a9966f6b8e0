// A log file that rotates by size the way gopkg.in/natefinch/lumberjack does (kube-apiserver's
// --audit-log-maxsize/-maxbackup/-maxage): when a write would take the file past maxSize, the
// file is renamed to <name>-<UTC time as 2006-01-02T15-04-05.000><ext> and a fresh file is
// opened under the original name; afterwards backups beyond maxBackups (newest kept) and older
// than maxAge days are deleted. The file handle stays open between writes. Not safe for several
// processes sharing one file (neither is lumberjack).
import { constants as fsConstants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

const megabyte = 1024 * 1024;
/** lumberjack's size when none is configured (MaxSize 0). */
const defaultMaxSizeMB = 100;
const dayMs = 24 * 60 * 60 * 1000;

export interface RotatingFileOptions {
  /** Megabytes (MiB) before rotation; 0 means lumberjack's default of 100. */
  maxSizeMB?: number;
  /** Backups kept; 0 keeps all. */
  maxBackups?: number;
  /** Days a backup is kept, judged by the time in its name; 0 keeps them regardless of age. */
  maxAgeDays?: number;
  /** Clock for backup names and the age cut-off. */
  now?: () => Date;
}

export class RotatingFile {
  readonly maxBytes: number;
  private readonly maxBackups: number;
  private readonly maxAgeDays: number;
  private readonly now: () => Date;
  private readonly dir: string;
  private readonly prefix: string;
  private readonly ext: string;
  private handle: fs.FileHandle | undefined;
  private size = 0;

  constructor(
    readonly filename: string,
    options: RotatingFileOptions = {},
  ) {
    this.maxBytes = (options.maxSizeMB || defaultMaxSizeMB) * megabyte;
    this.maxBackups = options.maxBackups ?? 0;
    this.maxAgeDays = options.maxAgeDays ?? 0;
    this.now = options.now ?? (() => new Date());
    this.dir = path.dirname(filename);
    const base = path.basename(filename);
    this.ext = path.extname(base);
    this.prefix = `${base.slice(0, base.length - this.ext.length)}-`;
  }

  /**
   * Appends chunks, each whole: a chunk that would overflow the file goes to a fresh one. A chunk
   * larger than maxBytes is refused with lumberjack's error and nothing of it is written.
   */
  async write(chunks: readonly Buffer[]): Promise<void> {
    for (const c of chunks) {
      if (c.length > this.maxBytes) throw new Error(`write length ${c.length} exceeds maximum file size ${this.maxBytes}`);
    }
    let batch: Buffer[] = [];
    let batchBytes = 0;
    for (const c of chunks) {
      if (!this.handle) await this.openExistingOrNew(c.length);
      if (this.size + batchBytes + c.length > this.maxBytes) {
        await this.append(batch, batchBytes);
        batch = [];
        batchBytes = 0;
        await this.rotate();
      }
      batch.push(c);
      batchBytes += c.length;
    }
    await this.append(batch, batchBytes);
  }

  async close(): Promise<void> {
    const h = this.handle;
    this.handle = undefined;
    await h?.close();
  }

  /** Closes the file, moves it aside under a timestamped name and opens a fresh one. */
  async rotate(): Promise<void> {
    await this.close();
    await this.openNew();
    await this.removeOldBackups();
  }

  /** The backup name for a rotation at `t`, as lumberjack's backupName (UTC). */
  backupName(t: Date): string {
    return path.join(this.dir, `${this.prefix}${formatBackupTime(t)}${this.ext}`);
  }

  /** Backups in the directory, newest first by the time in their names. */
  async backups(): Promise<{ name: string; time: Date }[]> {
    const entries = await fs.readdir(this.dir, { withFileTypes: true });
    const found: { name: string; time: Date }[] = [];
    for (const e of entries) {
      if (!e.isFile() || !e.name.startsWith(this.prefix) || !e.name.endsWith(this.ext)) continue;
      const time = parseBackupTime(e.name.slice(this.prefix.length, e.name.length - this.ext.length));
      if (time) found.push({ name: path.join(this.dir, e.name), time });
    }
    return found.sort((a, b) => b.time.getTime() - a.time.getTime());
  }

  private async append(batch: Buffer[], bytes: number): Promise<void> {
    if (!batch.length || !this.handle) return;
    const data = batch.length === 1 ? batch[0] : Buffer.concat(batch, bytes);
    // FileHandle.write may write less than asked; loop until all of it is down.
    for (let off = 0; off < data.length; ) {
      const { bytesWritten } = await this.handle.write(data, off, data.length - off);
      off += bytesWritten;
      this.size += bytesWritten;
    }
  }

  private async openExistingOrNew(writeLen: number): Promise<void> {
    let size: number;
    try {
      const st = await fs.stat(this.filename);
      if (!st.isFile()) throw notAFile(this.filename);
      size = st.size;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      await this.openNew();
      await this.removeOldBackups();
      return;
    }
    if (size + writeLen >= this.maxBytes) {
      await this.rotate();
      return;
    }
    try {
      this.handle = await fs.open(this.filename, fsConstants.O_WRONLY | fsConstants.O_APPEND);
      this.size = size;
    } catch {
      // As lumberjack: a file we cannot reopen is replaced by a fresh one.
      await this.openNew();
    }
    await this.removeOldBackups();
  }

  private async openNew(): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    let mode = 0o600;
    try {
      const st = await fs.stat(this.filename);
      // Only a log file is ever moved aside (lumberjack would rename a directory too).
      if (!st.isFile()) throw notAFile(this.filename);
      mode = st.mode & 0o777; // the fresh file keeps the old one's permissions
      await fs.rename(this.filename, this.backupName(this.now()));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    const h = await fs.open(this.filename, fsConstants.O_CREAT | fsConstants.O_WRONLY | fsConstants.O_TRUNC, mode);
    // The process umask must not widen or narrow what we asked for.
    await h.chmod(mode);
    this.handle = h;
    this.size = 0;
  }

  private async removeOldBackups(): Promise<void> {
    if (this.maxBackups === 0 && this.maxAgeDays === 0) return;
    let files = await this.backups();
    const remove: string[] = [];
    if (this.maxBackups > 0 && files.length > this.maxBackups) {
      remove.push(...files.slice(this.maxBackups).map((f) => f.name));
      files = files.slice(0, this.maxBackups);
    }
    if (this.maxAgeDays > 0) {
      const cutoff = this.now().getTime() - this.maxAgeDays * dayMs;
      for (const f of files) if (f.time.getTime() < cutoff) remove.push(f.name);
    }
    for (const name of remove) {
      await fs.rm(name, { force: true });
    }
  }
}

function notAFile(name: string): Error {
  return new Error(`audit log ${name} exists and is not a regular file`);
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** Go layout 2006-01-02T15-04-05.000 in UTC. */
export function formatBackupTime(t: Date): string {
  return (
    `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}` +
    `T${pad(t.getUTCHours())}-${pad(t.getUTCMinutes())}-${pad(t.getUTCSeconds())}.${pad(t.getUTCMilliseconds(), 3)}`
  );
}

/** The inverse of formatBackupTime; undefined for anything lumberjack would not have written. */
export function parseBackupTime(s: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})$/.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, sec, ms] = m.slice(1).map(Number);
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, sec, ms));
  // Reject out-of-range fields (month 13, Feb 30…) that Date.UTC would silently carry over.
  return formatBackupTime(t) === s ? t : undefined;
}
