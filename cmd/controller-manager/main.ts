// svc-controller-manager: flags → client (kubeconfig) → /healthz and /metrics → leader election
// on a Lease → the enabled controllers, while leading. Losing the lease ends the process with
// status 1 (upstream's "leaderelection lost"); SIGINT/SIGTERM stop the controllers, hand the
// lease back at once (releaseOnCancel) and exit 0.
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { processNames, serverVersion, signerNames } from '../../lib/api';
import { HealthRegistry } from '../../lib/apiserver/health';
import { defaultLeaderIdentity, LeaderElector, restLeaseClient, RestClient } from '../../lib/client';
import type { Clock } from '../../lib/client';
import { errorMessage } from '../../lib/controllers/controller';
import { CsrSigner, loadSignerCAs } from '../../lib/signing/signer';
import { commandLineOptions, helpRequested } from '../flagSet';
import { availableResources } from './availableResources';
import { controllerLog, controllerResources, ControllerContext, runControllers } from './controllers';
import { controllersSummary } from './controllersSummary';
import { SharedInformers } from './informers';
import { LeaderElectionHealth } from './leaderHealth';
import { ControllerManagerMetrics } from './metrics';
import { controllerManagerFlags, ControllerManagerOptions, enabledControllers, parseControllerManagerFlags } from './options';
import { startServingEndpoints, ServingEndpoints } from './servingEndpoints';
import { LogDestination } from '../logDestination';

const program = processNames.controllerManager;

export const userAgent = `${program}/${serverVersion.gitVersion} (${process.platform}/${process.arch})`;

export async function main(argv: string[]): Promise<void> {
  const opts = commandLineOptions<ControllerManagerOptions>(program, controllersSummary(program), controllerManagerFlags, () => parseControllerManagerFlags(argv).options ?? helpRequested);
  if (!opts) return;
  let cm: RunningControllerManager;
  try {
    cm = await start(opts);
  } catch (e) {
    process.stderr.write(`Error: ${errorMessage(e)}\n`);
    process.exit(1);
  }
  const stop = (): void => {
    void cm.shutdown().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Leadership lost or a controller that could not start: exit without waiting for anything.
  const { code } = await cm.exited;
  process.exit(code);
}

export interface RunningControllerManager {
  /** Where /healthz and /metrics are served (undefined with --secure-port=0). */
  address?: AddressInfo;
  /** The leader-election identity (hostname_uuid). */
  identity: string;
  metrics: ControllerManagerMetrics;
  /** Graceful: stop the controllers, release the lease, stop serving. */
  shutdown(): Promise<void>;
  /** Resolves when the process must end on its own: leadership lost (code 1) or a fatal start error. */
  exited: Promise<{ code: number; reason: string }>;
}

export interface StartDeps {
  clock?: Clock;
  /** Log destination; default buffered stdout. */
  logDestination?: pino.DestinationStream;
}

async function loadSigner(opts: ControllerManagerOptions, log: pino.Logger): Promise<CsrSigner | undefined> {
  if (!enabledControllers(opts.controllers).includes('csrsigning')) return undefined;
  const cas = await loadSignerCAs(opts.signing, Object.values(signerNames));
  if (cas.size === 0) return undefined;
  log.info({ signers: [...cas.keys()] }, 'loaded signing CAs');
  return new CsrSigner({ perSigner: Object.fromEntries(cas), maxDuration: opts.signing.durationMs, signerNames: [...cas.keys()] });
}

export async function start(opts: ControllerManagerOptions, deps: StartDeps = {}): Promise<RunningControllerManager> {
  const stdout = deps.logDestination ? undefined : new LogDestination({ name: program });
  const log = pino({ name: program, level: opts.verbosity >= 4 ? 'debug' : 'info' }, deps.logDestination ?? stdout);
  for (const w of opts.features.warnings) log.warn(w);

  // Fail before touching the API when the CA files are unusable (upstream fails the controller start).
  const signer = await loadSigner(opts, log);
  const client = await RestClient.fromKubeconfig(opts.kubeconfig, { userAgent });
  const identity = defaultLeaderIdentity();
  const le = opts.leaderElection;

  const metrics = new ControllerManagerMetrics();
  const health = new HealthRegistry({ onFailure: (_e, name, reason) => log.warn({ check: name, reason }, 'healthz check failed') });
  const clock = deps.clock;
  const leaderHealth = new LeaderElectionHealth({ leaseName: le.resourceName, identity, leaseDurationMs: le.leaseDurationMs, now: clock ? () => clock.now() : undefined });
  // Upstream installs ping only when no other check exists; controllers add theirs once running.
  health.add(le.leaderElect ? { name: 'leaderElection', check: leaderHealth.check } : { name: 'ping', check: () => null });

  let serving: ServingEndpoints | undefined;
  if (opts.securePort > 0) {
    serving = await startServingEndpoints({
      bindAddress: opts.bindAddress,
      port: opts.securePort,
      tlsCertFile: opts.tlsCertFile,
      tlsKeyFile: opts.tlsPrivateKeyFile,
      health,
      metrics: metrics.registry,
    });
    log.info({ address: `https://${serving.address.address}:${serving.address.port}` }, 'serving securely (/healthz, /metrics)');
  }

  const informers = new SharedInformers(client, {
    clock: deps.clock,
    onError: (resource, err) => log.warn({ resource, err: errorMessage(err) }, 'informer list/watch failed; retrying'),
  });
  const ctx: ControllerContext = { client, informers, options: opts, metrics, signer, clock: deps.clock, logFor: (name) => controllerLog(log, name) };
  const names = enabledControllers(opts.controllers);
  log.info({ controllers: names, identity, version: serverVersion.gitVersion }, 'starting');

  let resolveExit!: (v: { code: number; reason: string }) => void;
  const exited = new Promise<{ code: number; reason: string }>((r) => (resolveExit = r));
  let stopping = false;
  const fatal = (reason: string): void => {
    if (stopping) return;
    log.error(reason);
    stdout?.flush();
    resolveExit({ code: 1, reason });
  };
  let controllersDone: Promise<void> = Promise.resolve();
  const runAll = (signal: AbortSignal): Promise<void> =>
    (controllersDone = (async () => {
      // Asked once, as upstream: a group turned off by --runtime-config skips its controllers.
      const wanted = names.flatMap((n) => controllerResources[n]);
      const available = await availableResources((p) => client.request('GET', p), wanted).catch((e: unknown) => {
        throw new Error(`failed to get supported resources from server: ${errorMessage(e)}`);
      });
      await runControllers({ ...ctx, availableResources: available }, names, signal, {
        log,
        onStarted: (name) => health.add({ name, check: () => null }),
      });
    })().catch((e: unknown) => fatal(errorMessage(e))));

  let elector: LeaderElector | undefined;
  const standalone = new AbortController();
  if (le.leaderElect) {
    const leaseName = `${le.resourceNamespace}/${le.resourceName}`;
    metrics.setLeader(le.resourceName, false);
    elector = new LeaderElector({
      leases: leaderHealth.track(restLeaseClient(client)),
      namespace: le.resourceNamespace,
      name: le.resourceName,
      identity,
      leaseDurationMs: le.leaseDurationMs,
      renewDeadlineMs: le.renewDeadlineMs,
      retryPeriodMs: le.retryPeriodMs,
      releaseOnCancel: true,
      clock: deps.clock,
      onError: (err) => log.warn({ err: errorMessage(err) }, 'leader election: error reading or writing the lease'),
      callbacks: {
        onStartedLeading: (signal) => {
          log.info({ lease: leaseName }, `successfully acquired lease ${leaseName}`);
          metrics.setLeader(le.resourceName, true);
          return runAll(signal);
        },
        onStoppedLeading: () => {
          metrics.setLeader(le.resourceName, false);
          fatal('leaderelection lost');
        },
        onNewLeader: (holder) => {
          if (holder && holder !== identity) log.info({ identity: holder }, 'new leader elected');
        },
      },
    });
    leaderHealth.isLeader = () => elector?.isLeader() ?? false;
    log.info({ lease: leaseName }, `attempting to acquire leader lease ${leaseName}...`);
    void elector.run();
  } else {
    void runAll(standalone.signal);
  }

  let shuttingDown: Promise<void> | undefined;
  const shutdown = (): Promise<void> =>
    (shuttingDown ??= (async () => {
      stopping = true;
      log.info('shutting down');
      standalone.abort();
      // Stops the controllers (their signal aborts) and hands the lease back.
      await elector?.stop();
      await controllersDone;
      await informers.stop();
      await serving?.close();
      client.close();
      stdout?.close();
    })());

  return { address: serving?.address, identity, metrics, shutdown, exited };
}
