// svc-apiserver: flags, then start()'s steps (./steps): storage → security → serving →
// lifecycle. Graceful shutdown on SIGINT/SIGTERM (lib/apiserver/lifecycle: readyz fails, delay,
// refuse new requests, drain, close connections), and only then storage.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import pino from 'pino';
import { processNames } from '../../lib/api';
import { ApiServerMetrics } from '../../lib/apiserver/metrics';
import { commandLineOptions, helpRequested, parseFlags } from '../flagSet';
import { LogDestination } from '../logDestination';
import { loadMallocTrim, trimAfterFullGcs } from '../freedMemory';
import { apiserverFlags, toOptions, ApiServerOptions } from './options';
import { registeredResources } from './registeredResources';
import { servedSummary } from './servedSummary';
import { runLifecycle, readinessHooks, type RunningApiServer } from './steps/lifecycle';
import { servingCertificates, startSecurity } from './steps/security';
import { startServing } from './steps/serving';
import { startStorage, type StartupState } from './steps/storage';

export { registeredResources } from './registeredResources';
export type { RunningApiServer } from './steps/lifecycle';

const program = processNames.apiserver;

export async function main(argv: string[]): Promise<void> {
  const opts = commandLineOptions<ApiServerOptions>(program, servedSummary(program, registeredResources()), apiserverFlags, () => {
    const { values, help } = parseFlags(argv, apiserverFlags);
    if (help) return helpRequested;
    return toOptions(values, registeredResources());
  });
  if (!opts) return;
  // Signals are handled from the start: a SIGTERM while post-start hooks still run (etcd
  // unreachable, say) shuts down as gracefully as one after, instead of killing the process.
  let running: RunningApiServer | undefined;
  let stopRequested = false;
  const shutdownAndExit = (r: RunningApiServer): void => {
    void r.shutdown().then(() => process.exit(0));
  };
  const stop = (): void => {
    if (stopRequested) return;
    stopRequested = true;
    if (running) shutdownAndExit(running);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    running = await start(opts, { trimFreedMemory: true });
    if (stopRequested) shutdownAndExit(running);
    await running.started;
  } catch (e) {
    if (stopRequested) return;
    process.stderr.write(`Error: ${(e as Error).message}\n`);
    process.exit(1);
  }
}

/** At most one malloc_trim per 10 s, each within 10 s of a full GC (cmd/freedMemory.ts). */
const mallocTrimIntervalMs = 10_000;

function startTrimming(metrics: ApiServerMetrics, log: pino.Logger): () => void {
  const trimmer = loadMallocTrim();
  if (typeof trimmer === 'string') {
    log.info({ reason: trimmer }, 'freed native memory stays with malloc: no malloc_trim');
    return () => undefined;
  }
  log.info({ intervalMs: mallocTrimIntervalMs }, 'malloc_trim after full GCs');
  return trimAfterFullGcs(trimmer, mallocTrimIntervalMs, ({ released, seconds }) => {
    metrics.mallocTrims.inc({ released: String(released) });
    metrics.mallocTrimSeconds.inc(seconds);
  });
}

/** --ephemeral: the PKI and kubeconfig go to a new temporary directory, removed at shutdown. */
async function ephemeralOptions(opts: ApiServerOptions): Promise<{ opts: ApiServerOptions; dir?: string }> {
  if (!opts.ephemeral) return { opts };
  const dir = await mkdtemp(path.join(tmpdir(), `${program}-`));
  return { opts: { ...opts, storageBackend: 'memory', certDir: path.join(dir, 'pki'), writeKubeconfig: path.join(dir, 'admin.kubeconfig') }, dir };
}

export interface StartDeps {
  /** Log destination; default buffered stdout (the test server keeps its log in memory). */
  logDestination?: pino.DestinationStream;
  /**
   * malloc_trim after full GCs (cmd/freedMemory.ts): only when the process is the apiserver's
   * own (main), not in the test server's worker thread, whose process belongs to the tests.
   */
  trimFreedMemory?: boolean;
}

export async function start(given: ApiServerOptions, deps: StartDeps = {}): Promise<RunningApiServer> {
  const { opts, dir: ephemeralDir } = await ephemeralOptions(given);
  // Stdout in batches: a write per request line would cost more than the request.
  const stdout = deps.logDestination ? undefined : new LogDestination({ name: program });
  const log = pino({ name: program, level: opts.verbosity >= 4 ? 'debug' : 'info' }, deps.logDestination ?? stdout);
  for (const w of opts.features.warnings) log.warn(w);
  const metrics = new ApiServerMetrics();
  const stopTrimming = deps.trimFreedMemory ? startTrimming(metrics, log) : (): void => undefined;
  const startup: StartupState = { hooksFinished: false };

  const certs = await servingCertificates(opts);
  const storage = await startStorage(opts, metrics, startup, log);
  const security = await startSecurity(opts, storage.resources, metrics, log);
  const serving = await startServing(opts, { certs, storage, security, metrics, postStartHooks: readinessHooks(storage, security), log });
  return runLifecycle(opts, { certs, storage, security, serving, startup, ephemeralDir, stopTrimming, stdout, log });
}
