// The apiserver's start() trims malloc's free pages only when its caller asks (main, the
// process entry), not in the test server's worker thread, whose process belongs to the tests.
// Run here in the test's process (svc naming, the default) with memory storage; the log says
// whether trimming started.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registeredResources, start } from '../../cmd/apiserver/main';
import { apiserverFlags, toOptions } from '../../cmd/apiserver/options';
import { parseFlags } from '../../cmd/flagSet';

async function startLogLines(trimFreedMemory: boolean | undefined): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-trim-start-'));
  const argv = ['--bind-address=127.0.0.1', '--secure-port=0', `--cert-dir=${join(dir, 'pki')}`, '--storage-backend=memory', '--etcd-compaction-interval=0'];
  const lines: string[] = [];
  const running = await start(toOptions(parseFlags(argv, apiserverFlags).values, registeredResources()), {
    logDestination: { write: (line: string) => void lines.push(line) },
    trimFreedMemory,
  });
  try {
    await running.started;
  } finally {
    await running.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}

describe("start()'s malloc_trim", () => {
  test('starts when the caller asks, as main does', async () => {
    // Under jest the module sits in no dist/native, so the log gives the reason instead.
    const lines = await startLogLines(true);
    expect(lines.filter((l) => /malloc_trim/.test(l))).toHaveLength(1);
  });

  test('is off by default, as in the test server', async () => {
    const lines = await startLogLines(undefined);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((l) => /malloc_trim/.test(l))).toEqual([]);
  });
});
