import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import type { PolicyDecision } from './checker';
import { AuditContext, AuditEvent } from './event';
import { AuditLogWriter, AuditLogWriterOptions, defaultAuditBufferEvents } from './writer';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'audit-writer-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const decision: PolicyDecision = { level: 'Metadata', omitStages: [], omitManagedFields: false };

/** Event number i; `pad` bytes of annotation make it as large as a test needs. */
function event(i: number, pad = 0): AuditEvent {
  const ctx = new AuditContext(decision, {
    attributes: {
      user: { name: 'alice', groups: ['dev'] },
      verb: 'get',
      isResourceRequest: true,
      path: '/api/v1/namespaces/default/pods/web',
      namespace: 'default',
      group: '',
      resource: 'pods',
      subresource: '',
      name: 'web',
      apiVersion: 'v1',
    },
    requestURI: '/api/v1/namespaces/default/pods/web',
    auditID: `id-${i}`,
    receivedAt: new Date('2026-11-21T09:26:00.123Z'),
  });
  if (pad) ctx.addAnnotation('pad', 'p'.repeat(pad));
  ctx.setResponse(200);
  return ctx.event('ResponseComplete', new Date('2026-11-21T09:26:00.200Z'))!;
}

async function readLines(file: string): Promise<string[]> {
  const text = await fs.readFile(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text.slice(0, -1).split('\n');
}

/** Counts the callbacks report. */
function counters(): Required<Pick<AuditLogWriterOptions, 'onWritten' | 'onDropped' | 'onError'>> & { written: number; dropped: number; errors: Error[] } {
  const c = {
    written: 0,
    dropped: 0,
    errors: [] as Error[],
    onWritten: (n: number) => void (c.written += n),
    onDropped: (n: number) => void (c.dropped += n),
    onError: (e: Error, n: number) => void c.errors.push(...Array<Error>(n).fill(e)),
  };
  return c;
}

/** A stdout stand-in whose writes complete only when the test releases them. */
class GatedStream extends Writable {
  readonly chunks: Buffer[] = [];
  private gate: (() => void)[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.chunks.push(chunk);
    this.gate.push(() => cb());
  }
  release(): void {
    const g = this.gate;
    this.gate = [];
    for (const f of g) f();
  }
  get text(): string {
    return Buffer.concat(this.chunks).toString();
  }
}

describe('AuditLogWriter: file', () => {
  test('one valid JSON line per event, in order; mode 0600', async () => {
    const file = path.join(dir, 'audit.log');
    const c = counters();
    const w = new AuditLogWriter({ path: file, ...c });
    for (let i = 0; i < 50; i++) expect(w.write(event(i))).toBe(true);
    await w.flush();
    const lines = await readLines(file);
    expect(lines).toHaveLength(50);
    expect(lines.map((l) => (JSON.parse(l) as AuditEvent).auditID)).toEqual(Array.from({ length: 50 }, (_, i) => `id-${i}`));
    expect(JSON.parse(lines[0])).toEqual(event(0));
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect([c.written, c.dropped, c.errors.length]).toEqual([50, 0, 0]);
    await w.close();
  });

  test('write() returns before anything reaches the disk', async () => {
    const file = path.join(dir, 'audit.log');
    const w = new AuditLogWriter({ path: file });
    w.write(event(1));
    expect(w.pending).toBe(1);
    await expect(fs.stat(file)).rejects.toThrow('ENOENT');
    await w.close();
    expect(await readLines(file)).toHaveLength(1);
  });

  test('open() creates the file up front', async () => {
    const file = path.join(dir, 'logs', 'audit.log');
    const w = new AuditLogWriter({ path: file });
    await w.open();
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    await w.close();
  });

  test('close() writes everything queued, then refuses and counts new events', async () => {
    const file = path.join(dir, 'audit.log');
    const c = counters();
    const w = new AuditLogWriter({ path: file, ...c });
    for (let i = 0; i < 2500; i++) w.write(event(i)); // more than one batch
    const closed = w.close();
    expect(w.write(event(9999))).toBe(false);
    await closed;
    expect(await readLines(file)).toHaveLength(2500);
    expect([c.written, c.dropped]).toEqual([2500, 1]);
    await w.close(); // idempotent
  });

  test('rotation at size with lumberjack names, backups limited to maxBackups', async () => {
    const file = path.join(dir, 'audit.log');
    let t = Date.parse('2026-11-21T09:26:00.000Z');
    const now = (): Date => new Date((t += 1500));
    const w = new AuditLogWriter({ path: file, maxSizeMB: 1, maxBackups: 2, now });
    const big = (i: number): AuditEvent => event(i, 300 * 1024); // ~300 KiB a line: 3 per file
    for (let i = 0; i < 12; i++) {
      w.write(big(i));
      await w.flush(); // one write per event, so rotation points are deterministic
    }
    await w.close();
    const names = (await fs.readdir(dir)).sort();
    // 12 lines → 4 files of 3; 3 rotations at t+1.5s, +3s, +4.5s; the oldest backup is gone.
    expect(names).toEqual(['audit-2026-11-21T09-26-03.000.log', 'audit-2026-11-21T09-26-04.500.log', 'audit.log']);
    const ids = async (n: string): Promise<string[]> => (await readLines(path.join(dir, n))).map((l) => (JSON.parse(l) as AuditEvent).auditID);
    expect(await ids(names[0])).toEqual(['id-3', 'id-4', 'id-5']);
    expect(await ids(names[1])).toEqual(['id-6', 'id-7', 'id-8']);
    expect(await ids('audit.log')).toEqual(['id-9', 'id-10', 'id-11']);
    for (const n of names) expect((await fs.stat(path.join(dir, n))).size).toBeLessThanOrEqual(1024 * 1024);
  });

  test('rotation also happens inside one batch, never splitting a line', async () => {
    const file = path.join(dir, 'audit.log');
    let t = Date.parse('2026-11-21T09:26:00.000Z');
    const w = new AuditLogWriter({ path: file, maxSizeMB: 1, now: () => new Date((t += 1000)) });
    for (let i = 0; i < 7; i++) w.write(event(i, 300 * 1024));
    await w.close();
    const names = (await fs.readdir(dir)).sort();
    expect(names).toHaveLength(3);
    const all = (await Promise.all(names.map((n) => readLines(path.join(dir, n))))).flat();
    expect(all.map((l) => (JSON.parse(l) as AuditEvent).auditID).sort()).toEqual(['id-0', 'id-1', 'id-2', 'id-3', 'id-4', 'id-5', 'id-6']);
  });

  test('an event bigger than the file limit is lost and reported as an error', async () => {
    const c = counters();
    const w = new AuditLogWriter({ path: path.join(dir, 'audit.log'), maxSizeMB: 1, ...c });
    w.write(event(1, 1024 * 1024 + 1));
    await w.close();
    expect(c.errors.map((e) => e.message)).toEqual([expect.stringMatching(/^write length \d+ exceeds maximum file size 1048576$/)]);
    expect(c.written).toBe(0);
  });

  test('I/O errors are reported per event, the writer keeps going, a directory is never renamed', async () => {
    const c = counters();
    const w = new AuditLogWriter({ path: dir, ...c }); // a directory cannot be opened for writing
    w.write(event(1));
    w.write(event(2));
    await w.flush();
    expect(c.errors.map((e) => e.message)).toEqual(Array(2).fill(`audit log ${dir} exists and is not a regular file`));
    expect(w.stats).toEqual({ written: 0, dropped: 0, failed: 2 });
    expect((await fs.stat(dir)).isDirectory()).toBe(true); // never moved aside
    w.write(event(3));
    await w.close();
    expect(w.stats).toEqual({ written: 0, dropped: 0, failed: 3 });
  });
});

describe('AuditLogWriter: bounded buffer', () => {
  test('when the buffer is full events are dropped and counted; memory stays bounded', async () => {
    const out = new GatedStream();
    const c = counters();
    const w = new AuditLogWriter({ path: '-', stdout: out, bufferEvents: 5, ...c });
    const accepted = Array.from({ length: 20 }, (_, i) => w.write(event(i)));
    expect(accepted.filter(Boolean)).toHaveLength(5);
    expect(w.pending).toBe(5);
    expect(c.dropped).toBe(15);

    // The slow sink has taken the first batch but not finished it: still no room.
    await new Promise((r) => setImmediate(r));
    expect(w.pending).toBe(5);
    for (let i = 0; i < 1000; i++) w.write(event(100 + i));
    expect(w.pending).toBe(5);
    expect(c.dropped).toBe(1015);

    out.release();
    await w.flush();
    expect(w.pending).toBe(0);
    expect(c.written).toBe(5);
    expect(out.text.trimEnd().split('\n').map((l) => (JSON.parse(l) as AuditEvent).auditID)).toEqual(['id-0', 'id-1', 'id-2', 'id-3', 'id-4']);

    // Room again once the sink caught up.
    expect(w.write(event(7))).toBe(true);
    const flushed = w.flush();
    await new Promise((r) => setImmediate(r));
    out.release();
    await flushed;
    expect(w.stats).toEqual({ written: 6, dropped: 1015, failed: 0 });
    await w.close();
  });

  test('flush() waits only for events queued before it', async () => {
    const out = new GatedStream();
    const w = new AuditLogWriter({ path: '-', stdout: out });
    w.write(event(1));
    let done = false;
    const flushed = w.flush().then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    w.write(event(2)); // queued behind the gated batch
    out.release();
    await flushed;
    expect(done).toBe(true);
    expect(w.pending).toBe(1);
    const rest = w.close();
    await new Promise((r) => setImmediate(r));
    out.release();
    await rest;
    expect(out.text.trimEnd().split('\n')).toHaveLength(2);
  });

  test('the default buffer is upstream’s 10000', () => {
    expect(defaultAuditBufferEvents).toBe(10000);
  });
});

describe('AuditLogWriter: options', () => {
  test.each<[Partial<AuditLogWriterOptions>, string]>([
    [{ maxSizeMB: -1 }, 'audit log maxSizeMB -1 must be a non-negative integer'],
    [{ maxBackups: -2 }, 'audit log maxBackups -2 must be a non-negative integer'],
    [{ maxAgeDays: 1.5 }, 'audit log maxAgeDays 1.5 must be a non-negative integer'],
    [{ bufferEvents: 0 }, 'invalid audit log buffer size 0, must be a positive number'],
    [{ path: '' }, 'audit log path is required'],
  ])('%j', (over, want) => {
    expect(() => new AuditLogWriter({ path: path.join(dir, 'a.log'), ...over })).toThrow(want);
  });
});
