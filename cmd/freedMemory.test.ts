import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { FakeClock } from '../lib/client';
import { loadMallocTrim, trimAfterFullGcs, TrimSchedule, type MallocTrim, type TrimObservation } from './freedMemory';

describe('TrimSchedule', () => {
  // Each case: full GCs at the given times (ms from the start); the times trims ran, interval 10 s.
  const cases: Array<{ name: string; gcs: number[]; trims: number[] }> = [
    { name: 'the first full GC is trimmed after at once', gcs: [0], trims: [0] },
    { name: 'a GC within the interval waits for its end', gcs: [0, 3000], trims: [0, 10000] },
    { name: 'GCs while a trim is pending share it', gcs: [0, 3000, 5000, 9000], trims: [0, 10000] },
    { name: 'a GC after the interval is trimmed at once', gcs: [0, 12000], trims: [0, 12000] },
    { name: 'the interval counts from the last trim, not the last GC', gcs: [0, 3000, 15000], trims: [0, 10000, 20000] },
    { name: 'no GC, no trim', gcs: [], trims: [] },
  ];
  it.each(cases)('$name', async ({ gcs, trims }) => {
    const clock = new FakeClock(0);
    const ran: number[] = [];
    const schedule = new TrimSchedule(() => ran.push(clock.now()), 10000, clock);
    for (const at of gcs) {
      await clock.advance(at - clock.now());
      schedule.fullGc();
      await clock.advance(0);
    }
    await clock.advance(60000);
    expect(ran).toEqual(trims);
  });

  it('stop cancels the pending trim', async () => {
    const clock = new FakeClock(0);
    let ran = 0;
    const schedule = new TrimSchedule(() => ran++, 10000, clock);
    schedule.fullGc();
    await clock.advance(0);
    schedule.fullGc();
    schedule.stop();
    await clock.advance(60000);
    expect(ran).toBe(1);
    expect(clock.pendingCount()).toBe(0);
  });
});

describe('native malloc_trim', () => {
  let dir: string;
  let built: string;
  beforeAll(() => {
    // Built here as `make native` builds it, so the test does not depend on the build's order;
    // a machine without a C compiler fails here instead of passing without the check.
    dir = mkdtempSync(path.join(tmpdir(), 'svc-malloc-trim-'));
    built = path.join(dir, 'mallocTrim.node');
    execFileSync('cc', ['-shared', '-fPIC', '-O2', '-o', built, path.join(__dirname, '..', 'native', 'mallocTrim.c')]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says why when the module was not built', () => {
    expect(loadMallocTrim(path.join(dir, 'absent.node'))).toMatch(/absent\.node was not built/);
  });

  it('loads and exports trim()', () => {
    const m = loadMallocTrim(built);
    expect(typeof m).toBe('object');
    expect(typeof (m as MallocTrim).trim()).toBe('boolean');
  });

  it('gives freed pages in the middle of the heap back to the kernel', () => {
    // A child process, so the measured RSS is not the test runner's: 160 MB of 1 KB buffers,
    // one kept above them so the arena's top cannot shrink, the rest freed by a full GC. free()
    // keeps those pages; malloc_trim returns them.
    const script = `
      const m = { exports: {} }; process.dlopen(m, process.argv[1]);
      const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(require('fs').readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
      let freed = []; for (let i = 0; i < 160000; i++) freed.push(Buffer.allocUnsafeSlow(1024));
      const pin = Buffer.allocUnsafeSlow(1024);
      freed = null; gc(); gc();
      const before = rss(); const released = m.exports.trim(); const after = rss();
      process.stdout.write(JSON.stringify({ before, after, released, pin: pin.length }));`;
    const out = JSON.parse(execFileSync(process.execPath, ['--expose-gc', '-e', script, built], { encoding: 'utf8' })) as { before: number; after: number; released: boolean };
    expect(out.released).toBe(true);
    expect(out.before - out.after).toBeGreaterThan(80 * 1024 * 1024);
  });

  it('trims after a full GC that V8 reports', async () => {
    const m = loadMallocTrim(built) as MallocTrim;
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const observed = new Promise<TrimObservation>((resolve) => {
      const stop = trimAfterFullGcs(m, 10000, (o) => {
        stop();
        resolve(o);
      });
    });
    gc();
    const o = await observed;
    expect(typeof o.released).toBe('boolean');
    expect(o.seconds).toBeGreaterThanOrEqual(0);
  });
});
