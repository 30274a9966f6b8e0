import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatBackupTime, parseBackupTime, RotatingFile } from './rotatingFile';

const MiB = 1024 * 1024;
let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'audit-rotate-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** A clock that moves one second per call, from 2026-11-21T09:26:00.123Z. */
function steppingClock(): () => Date {
  let t = Date.parse('2026-11-21T09:26:00.123Z');
  return () => {
    const d = new Date(t);
    t += 1000;
    return d;
  };
}

const chunk = (kib: number, fill = 'x'): Buffer => Buffer.alloc(kib * 1024, fill);
const list = async (): Promise<string[]> => (await fs.readdir(dir)).sort();

describe('backup names (lumberjack layout 2006-01-02T15-04-05.000, UTC)', () => {
  const t = new Date('2026-11-21T09:26:05.007Z');
  test.each<[string, string]>([
    ['/var/log/audit.log', '/var/log/audit-2026-11-21T09-26-05.007.log'],
    ['/var/log/audit', '/var/log/audit-2026-11-21T09-26-05.007'],
    ['/var/log/a.b.json', '/var/log/a.b-2026-11-21T09-26-05.007.json'],
  ])('%s', (file, want) => {
    expect(new RotatingFile(file).backupName(t)).toBe(want);
  });

  test.each<[string, string | undefined]>([
    ['2026-11-21T09-26-05.007', '2026-11-21T09:26:05.007Z'],
    ['2026-02-29T00-00-00.000', undefined], // not a leap year
    ['2026-13-01T00-00-00.000', undefined],
    ['2026-11-21T09-26-05', undefined],
    ['2026-11-21T09:26:05.007', undefined],
    ['notatime', undefined],
  ])('parse %s', (s, want) => {
    expect(parseBackupTime(s)?.toISOString()).toBe(want);
  });

  test('format round-trips', () => {
    expect(parseBackupTime(formatBackupTime(t))).toEqual(t);
  });
});

describe('RotatingFile', () => {
  test('creates the file with mode 0600 and appends across writes', async () => {
    const file = path.join(dir, 'sub', 'audit.log');
    const f = new RotatingFile(file, { maxSizeMB: 1 });
    await f.write([Buffer.from('a\n')]);
    await f.write([Buffer.from('b\n'), Buffer.from('c\n')]);
    await f.close();
    expect(await fs.readFile(file, 'utf8')).toBe('a\nb\nc\n');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o700);
  });

  test('appends to an existing file on first write', async () => {
    const file = path.join(dir, 'audit.log');
    await fs.writeFile(file, 'old\n');
    const f = new RotatingFile(file, { maxSizeMB: 1 });
    await f.write([Buffer.from('new\n')]);
    await f.close();
    expect(await fs.readFile(file, 'utf8')).toBe('old\nnew\n');
    expect(await list()).toEqual(['audit.log']);
  });

  test('an existing file the first write would fill is rotated first', async () => {
    const file = path.join(dir, 'audit.log');
    await fs.writeFile(file, chunk(1000));
    const f = new RotatingFile(file, { maxSizeMB: 1, now: steppingClock() });
    await f.write([chunk(24)]); // 1000 + 24 KiB = exactly 1 MiB: lumberjack rotates on >= when opening
    await f.close();
    expect(await list()).toEqual(['audit-2026-11-21T09-26-00.123.log', 'audit.log']);
    expect((await fs.stat(file)).size).toBe(24 * 1024);
  });

  test('rotates when a write would pass maxSize; chunks are never split', async () => {
    const file = path.join(dir, 'audit.log');
    const f = new RotatingFile(file, { maxSizeMB: 1, now: steppingClock() });
    await f.write([chunk(400, 'a'), chunk(400, 'b')]);
    await f.write([chunk(224, 'c')]); // 1024 KiB exactly: fits
    await f.write([chunk(1, 'd'), chunk(600, 'e'), chunk(600, 'f')]);
    await f.close();
    const names = await list();
    expect(names).toEqual(['audit-2026-11-21T09-26-00.123.log', 'audit-2026-11-21T09-26-01.123.log', 'audit.log']);
    const first = await fs.readFile(path.join(dir, names[0]));
    const second = await fs.readFile(path.join(dir, names[1]));
    const current = await fs.readFile(file);
    expect(first.length).toBe(MiB);
    expect([first[0], first[MiB - 1]]).toEqual([0x61, 0x63]);
    expect(second.toString()).toBe(`${'d'.repeat(1024)}${'e'.repeat(600 * 1024)}`);
    expect(current.toString()).toBe('f'.repeat(600 * 1024));
    for (const n of names) expect((await fs.stat(path.join(dir, n))).mode & 0o777).toBe(0o600);
  });

  test('a chunk larger than maxSize is refused whole', async () => {
    const file = path.join(dir, 'audit.log');
    const f = new RotatingFile(file, { maxSizeMB: 1 });
    await expect(f.write([Buffer.from('ok\n'), chunk(1025)])).rejects.toThrow(`write length ${1025 * 1024} exceeds maximum file size ${MiB}`);
    await f.close();
    expect(await list()).toEqual([]);
  });

  test('maxBackups keeps the newest backups and leaves unrelated files alone', async () => {
    const file = path.join(dir, 'audit.log');
    await fs.writeFile(path.join(dir, 'audit-notatime.log'), '');
    await fs.writeFile(path.join(dir, 'other-2020-01-01T00-00-00.000.log'), '');
    const f = new RotatingFile(file, { maxSizeMB: 1, maxBackups: 2, now: steppingClock() });
    for (let i = 0; i < 5; i++) await f.write([chunk(700, String(i))]);
    await f.close();
    expect(await list()).toEqual([
      'audit-2026-11-21T09-26-02.123.log',
      'audit-2026-11-21T09-26-03.123.log',
      'audit-notatime.log',
      'audit.log',
      'other-2020-01-01T00-00-00.000.log',
    ]);
    expect((await fs.readFile(path.join(dir, 'audit-2026-11-21T09-26-03.123.log'), 'utf8'))[0]).toBe('3');
    expect((await fs.readFile(file, 'utf8'))[0]).toBe('4');
  });

  test('maxBackups 0 keeps every backup', async () => {
    const f = new RotatingFile(path.join(dir, 'audit.log'), { maxSizeMB: 1, now: steppingClock() });
    for (let i = 0; i < 4; i++) await f.write([chunk(700)]);
    await f.close();
    expect(await list()).toHaveLength(4);
  });

  test('maxAgeDays deletes backups whose name is older than the cut-off', async () => {
    const old = 'audit-2026-11-10T00-00-00.000.log';
    const recent = 'audit-2026-11-20T00-00-00.000.log';
    await fs.writeFile(path.join(dir, old), 'old');
    await fs.writeFile(path.join(dir, recent), 'recent');
    const f = new RotatingFile(path.join(dir, 'audit.log'), { maxSizeMB: 1, maxAgeDays: 7, now: () => new Date('2026-11-21T09:26:00.123Z') });
    await f.write([Buffer.from('x\n')]);
    await f.close();
    expect(await list()).toEqual([recent, 'audit.log']);
  });

  test('backups() sorts newest first by the time in the name', async () => {
    for (const n of ['audit-2026-01-02T00-00-00.000.log', 'audit-2026-01-03T00-00-00.000.log', 'audit-2026-01-01T00-00-00.000.log']) {
      await fs.writeFile(path.join(dir, n), '');
    }
    const names = (await new RotatingFile(path.join(dir, 'audit.log')).backups()).map((b) => path.basename(b.name));
    expect(names).toEqual(['audit-2026-01-03T00-00-00.000.log', 'audit-2026-01-02T00-00-00.000.log', 'audit-2026-01-01T00-00-00.000.log']);
  });
});
