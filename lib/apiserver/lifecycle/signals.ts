// The server's lifecycle signals (upstream genericapiserver lifecycleSignals): named one-shot
// events that the shutdown sequence fires in order and that request handling reads.

/** A one-shot event: signal() once, read `signaled` or await `wait()`. */
export class LifecycleSignal {
  private fired = false;
  private readonly done: Promise<void>;
  private resolve!: () => void;

  constructor(readonly name: string) {
    this.done = new Promise<void>((r) => (this.resolve = r));
  }

  get signaled(): boolean {
    return this.fired;
  }

  signal(): void {
    if (this.fired) return;
    this.fired = true;
    this.resolve();
  }

  wait(): Promise<void> {
    return this.done;
  }
}

/** Upstream's names, so the log lines read like kube-apiserver's `[graceful-termination]` ones. */
export interface LifecycleSignals {
  /** SIGTERM received: /readyz fails from now on. */
  shutdownInitiated: LifecycleSignal;
  /** --shutdown-delay-duration has passed since shutdownInitiated. */
  afterShutdownDelayDuration: LifecycleSignal;
  /** New requests are refused (503/429) and watches are told to end. */
  notAcceptingNewRequest: LifecycleSignal;
  /** Every non-long-running request has finished and watches have drained (or their grace ran out). */
  inFlightRequestsDrained: LifecycleSignal;
  /** The listener is closed: new connections are refused. */
  httpServerStoppedListening: LifecycleSignal;
}

export function newLifecycleSignals(): LifecycleSignals {
  return {
    shutdownInitiated: new LifecycleSignal('ShutdownInitiated'),
    afterShutdownDelayDuration: new LifecycleSignal('AfterShutdownDelayDuration'),
    notAcceptingNewRequest: new LifecycleSignal('NotAcceptingNewRequest'),
    inFlightRequestsDrained: new LifecycleSignal('InFlightRequestsDrained'),
    httpServerStoppedListening: new LifecycleSignal('HTTPServerStoppedListening'),
  };
}
