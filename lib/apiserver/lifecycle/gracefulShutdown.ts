// The graceful shutdown sequence (upstream preparedGenericAPIServer.RunWithContext): on SIGTERM
// /readyz fails at once while requests are still served; after --shutdown-delay-duration new
// requests are refused and the listener closes (or, with --shutdown-send-retry-after, keeps
// answering 429 until in-flight requests drain); watches are ended cleanly, within
// --shutdown-watch-termination-grace-period when set; then the remaining connections close.
import type { Logger } from 'pino';
import { newLifecycleSignals, LifecycleSignal, LifecycleSignals } from './signals';
import { RequestWaitGroup } from './waitGroup';
import { realSleep, Sleep, WatchTracker } from './watchDrain';

export interface ShutdownOptions {
  /** --shutdown-delay-duration (ms). */
  shutdownDelayMs: number;
  /** --shutdown-send-retry-after. */
  sendRetryAfter: boolean;
  /** --shutdown-watch-termination-grace-period (ms). */
  watchTerminationGraceMs: number;
}

/** What the sequence does to the HTTP server and what must close only after requests drained. */
export interface ShutdownSteps {
  /** Close the listener (no new connections); existing connections keep being served. */
  stopListening(): void;
  /** After the drain: e.g. flush and close the audit backend. */
  afterDrained?(): Promise<void>;
  /** Close the remaining (idle) connections; resolves when the HTTP server has stopped. */
  closeConnections(): Promise<void>;
}

export class ServerLifecycle {
  readonly signals: LifecycleSignals = newLifecycleSignals();
  /** Non-long-running requests in flight. */
  readonly nonLongRunning = new RequestWaitGroup();
  readonly watches = new WatchTracker();
  private running?: Promise<void>;

  constructor(
    readonly opts: ShutdownOptions,
    private readonly log?: Logger,
    private readonly sleep: Sleep = realSleep,
  ) {}

  /** Runs the sequence once; later calls return the same promise. */
  shutdown(steps: ShutdownSteps): Promise<void> {
    return (this.running ??= this.run(steps));
  }

  private fire(s: LifecycleSignal): void {
    s.signal();
    this.log?.info({ name: s.name }, '[graceful-termination] shutdown event');
  }

  private async run(steps: ShutdownSteps): Promise<void> {
    const s = this.signals;
    this.fire(s.shutdownInitiated);
    if (this.opts.shutdownDelayMs > 0) await this.sleep(this.opts.shutdownDelayMs);
    this.fire(s.afterShutdownDelayDuration);
    // No pre-shutdown hooks here: NotAcceptingNewRequest follows the delay directly.
    this.fire(s.notAcceptingNewRequest);
    const stopListening = (): void => {
      steps.stopListening();
      this.fire(s.httpServerStoppedListening);
    };
    // Without send-retry-after the listener closes now; with it, it stays open to answer 429s.
    if (!this.opts.sendRetryAfter) stopListening();
    const [, watches] = await Promise.all([this.nonLongRunning.wait(), this.watches.drain(this.opts.watchTerminationGraceMs, this.sleep)]);
    this.log?.info({ activeWatchesBefore: watches.activeBefore, activeWatchesAfter: watches.activeAfter }, '[graceful-termination] in-flight requests and watches drained');
    this.fire(s.inFlightRequestsDrained);
    if (this.opts.sendRetryAfter) stopListening();
    await steps.afterDrained?.();
    await steps.closeConnections();
    this.log?.info('[graceful-termination] apiserver is exiting');
  }
}
