// The worker thread of one test server: its own module graph, so its own naming profile and no
// state shared with other servers in the process. Fixes the profile from argv before lib/api
// loads, then runs the apiserver's start() with the log kept in memory.
import { parentPort, workerData } from 'node:worker_threads';
import { namingFromArgv, selectNaming } from '../../lib/api/naming/selection';
import type { FromWorker, ToWorker, WorkerInput } from './protocol';

const logTail: string[] = [];
const keptLines = 200;

function post(m: FromWorker): void {
  parentPort?.postMessage(m);
}

async function run(): Promise<void> {
  const { argv } = workerData as WorkerInput;
  selectNaming(namingFromArgv(argv) ?? 'svc');
  const [{ start, registeredResources }, { apiserverFlags, toOptions }, { parseFlags }] = await Promise.all([
    import('../apiserver/main.js'),
    import('../apiserver/options.js'),
    import('../flagSet.js'),
  ]);
  const opts = toOptions(parseFlags(argv, apiserverFlags).values, registeredResources());
  const running = await start(opts, {
    logDestination: {
      write(line: string): void {
        logTail.push(line);
        if (logTail.length > keptLines) logTail.shift();
      },
    },
  });
  parentPort?.on('message', (m: ToWorker) => {
    if (m.type !== 'stop') return;
    void running.shutdown().then(() => {
      post({ type: 'stopped' });
      parentPort?.close();
    });
  });
  await running.started;
  post({ type: 'ready', port: running.address.port });
}

run().catch((e: Error) => post({ type: 'failed', message: e.message, log: logTail }));
