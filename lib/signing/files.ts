// File helpers for key material: atomic writes with explicit modes, and a directory lock so
// several processes bootstrapping the same cert dir do not mix keys from different runs.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

/** Writes via a temp file + rename so readers never see a half-written key or certificate. */
export async function writeFileAtomic(file: string, data: string | Buffer, mode: number): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await fs.writeFile(tmp, data, { mode, flag: 'wx' });
    await fs.chmod(tmp, mode); // writeFile's mode passes through the umask; make it exact
    await fs.rename(tmp, file);
  } catch (e) {
    await fs.rm(tmp, { force: true });
    throw e;
  }
}

export async function fileExists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

export interface DirLockOptions {
  /** Give up waiting after this long. */
  timeoutMs?: number;
  /** A lock older than this is assumed to belong to a crashed process and is broken. */
  staleMs?: number;
  pollMs?: number;
}

/** Runs fn while holding `<dir>/.lock` (an exclusive mkdir, which is atomic on every filesystem we use). */
export async function withDirLock<T>(dir: string, fn: () => Promise<T>, opts: DirLockOptions = {}): Promise<T> {
  const lock = path.join(dir, '.lock');
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const staleMs = opts.staleMs ?? 60_000;
  const pollMs = opts.pollMs ?? 50;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fs.mkdir(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const st = await fs.stat(lock).catch(() => undefined);
      if (st && Date.now() - st.mtimeMs > staleMs) {
        await fs.rm(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for lock ${lock}`);
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }
  try {
    return await fn();
  } finally {
    await fs.rm(lock, { recursive: true, force: true });
  }
}
